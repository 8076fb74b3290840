"""A tournament as an event file (``shared/formats/event-json.md``): what the download
gives and what an import of it stores again.

Players are named by start number (``id``). Only accepted tables are results, as in the
standings: a round with no accepted table yet is left out (the rounds that remain keep
their order, numbered 1, 2, ... as the format wants, and an adjustment about a round left
out names no round), exactly as the app's standings count rounds. A table's deals are its
scoresheet's deal objects (the game's ``sheet_json``: ``formats/scoresheet-json.md``); a
table imported as a paper result gives its ``small_points`` (Vint: ``totals``) again.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Any

from scoring.engines.errors import SheetError
from scoring.games import game_for
from tournaments.families import family_for
from tournaments.models import Adjustment, Registration, Round, RoundTable, Tournament

FORMAT = "tablescore-event/1"


def event_exportable(tournament: Tournament) -> bool:
    """Whether the tournament has an accepted table (an event file needs a round)."""
    return RoundTable.objects.filter(
        round__tournament=tournament, accepted_at__isnull=False
    ).exists()


def _exact(value: Any) -> int | str:
    fraction = Fraction(value)
    if fraction.denominator == 1:
        return fraction.numerator
    return f"{fraction.numerator}/{fraction.denominator}"


def _sheet(game_sheet: Any, session: Any) -> dict[str, Any] | None:
    """The table's scoresheet, or None when it cannot be written as one: the format names
    a table's players by name, and two at one table may share a name (the event file then
    gives the table's result on paper)."""
    try:
        return dict(game_sheet.sheet_json(session))
    except SheetError:
        return None


def event_document(tournament: Tournament) -> dict[str, Any]:
    """The tournament as an event file's JSON value (keys in the format's order)."""
    game = tournament.game
    shape = family_for(game).competition
    entries = list(
        Registration.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("number")
    )
    number_of = {e.player_id: e.number for e in entries}
    tables = list(
        RoundTable.objects.filter(round__tournament=tournament, accepted_at__isnull=False)
        .select_related("round", "session")
        .prefetch_related("session__seats")
        .order_by("round__number", "number")
    )
    by_round: dict[int, list[RoundTable]] = defaultdict(list)
    for t in tables:
        by_round[t.round.number].append(t)
    numbers = sorted(by_round)
    position = {n: i for i, n in enumerate(numbers, 1)}
    byes = dict(Round.objects.filter(tournament=tournament).values_list("number", "byes"))
    registered = set(number_of.values())
    game_sheet = game_for(game).sheet
    rules: dict[str, Any] | None = None
    rounds: list[dict[str, Any]] = []
    participants: set[int] = set()
    for n in numbers:
        out_tables = []
        for t in by_round[n]:
            seat_rows = sorted(t.session.seats.all(), key=lambda s: s.seat)
            seats = [number_of[s.player_id] for s in seat_rows]
            paper = t.paper or {}
            played = not paper and t.missing_seat is None
            sheet = _sheet(game_sheet, t.session) if played or rules is None else None
            if rules is None and sheet is not None:
                rules = sheet.get("rules")
            if not played:
                sheet = None
            names = [s.player.name for s in seat_rows] if sheet else []
            out_tables.append(shape.event_table(t, sheet, seats, names))
            participants.update(out_tables[-1]["seats"])
        rnd: dict[str, Any] = {"number": position[n]}
        if shape.walkouts:  # byes, walkouts, short tables and teams apply
            rnd["byes"] = [b for b in byes.get(n) or () if b in registered]
            participants.update(rnd["byes"])
        rnd["tables"] = out_tables
        rounds.append(rnd)

    options = shape.options_json(shape.options(tournament))
    known = {c["code"] for c in options["classes"]}
    players = []
    for e in entries:
        player: dict[str, Any] = {"id": e.number, "name": e.player.name}
        codes = [c for c in e.classes or () if c in known]
        if codes:
            player["classes"] = list(dict.fromkeys(codes))
        if e.player.federation_id:
            licence = {"number": e.player.federation_id}
            if e.licence_since:
                licence["since"] = e.licence_since.isoformat()
            player["licence"] = licence
        players.append(player)

    doc: dict[str, Any] = {"format": FORMAT, "name": tournament.name}
    if tournament.date:
        doc["date"] = tournament.date.isoformat()
    doc["game"] = game
    if rules is not None:
        doc["rules"] = rules
    doc["competition"] = options
    doc["players"] = players
    if shape.walkouts:
        teams: dict[str, list[int]] = defaultdict(list)
        for e in entries:
            if e.team:
                teams[e.team].append(e.number)
        size_min, size_max = options["team_size_min"], options["team_size_max"]
        listed = [
            {"id": name, "name": name, "members": members}
            for name, members in teams.items()
            if size_min <= len(members) <= size_max and participants.intersection(members)
        ]
        if listed:
            doc["teams"] = listed
    doc["rounds"] = rounds
    adjustments = []
    for a in (
        Adjustment.objects.filter(tournament=tournament)
        .select_related("entry")
        .order_by("created_at", "id")
    ):
        if a.entry.number not in participants:
            continue  # the format names only participants; the standings count no other
        item: dict[str, Any] = {"player": a.entry.number}
        if a.round is not None and a.round in position:
            item["round"] = position[a.round]
        for key in shape.amounts:
            if getattr(a, key):
                item[key] = _exact(getattr(a, key))
        if len(item) == 1 + ("round" in item):
            continue  # nothing to say: no amount
        item["reason"] = a.reason
        adjustments.append(item)
    if adjustments:
        doc["adjustments"] = adjustments
    return doc
