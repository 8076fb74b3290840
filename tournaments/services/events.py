"""An event file (``shared/formats/event-json.md``) imported as a new tournament: all of
it in one transaction, or nothing.

The file is read and checked by the pure reader first (``tournaments.events.event_json``:
every problem, one line each); then what the app adds is checked (``event_problems``:
limits of its columns, Vint's fixed tie-breaks, a short table's empty seat). Players are
matched to the club's register (``event_players``) by federation id (the licence number),
else by exact name, else registered as new; a director sees that list before anything is
written. Tables are stored as accepted, locked sessions: deals through the scoring write
path (``deals_import``), a paper result in ``RoundTable.paper``. The import is one
``TournamentAction`` ("imported") in the new tournament's history.
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club, Player
from clubs.services import club_or_first, player_create
from scoring.actors import IMPORT_LABEL
from scoring.engines.errors import Problem, RuleError, SheetError
from scoring.engines.rules import KOSCIAN_BIG_POINTS, TIE_BREAKS, validate_profile_options
from scoring.games import game_for
from scoring.imports import profile_version_for
from scoring.models import RuleProfile, RuleProfileVersion
from scoring.services import (
    Actor,
    DealRejected,
    deals_import,
    session_create,
    session_lock,
    table_event_record,
)
from tournaments.events.event_json import EventFile, load_event, read_event
from tournaments.families import family_for, results_of
from tournaments.models import Adjustment, Registration, Round, RoundTable, Tournament
from tournaments.services.acceptance import results_changed
from tournaments.services.mend import action_record
from tournaments.services.registration import tournament_create

NAME_MAX = 120  # clubs.Player.name
LICENCE_MAX = 40  # clubs.Player.federation_id
TEAM_MAX = 80  # Registration.team
TOURNAMENT_NAME_MAX = 160
AMOUNT_MAX = 100_000  # an adjustment's big or small points or net, either way
DEFAULT_DEALS = 32


@dataclass(frozen=True)
class Read:
    """An event file read and checked: its JSON value and the pure reader's event."""

    data: dict[str, Any]
    event: EventFile


@dataclass(frozen=True)
class PlayerMatch:
    """An event's player and whom the import registers: ``player`` from the club's
    register (``how`` "licence" or "name") or None, a new player (``how`` "new")."""

    id: int
    name: str
    licence: str
    player: Player | None
    how: str

    @property
    def licence_added(self) -> bool:
        """The register learns the player's licence number from the file."""
        return bool(self.player and self.licence and not self.player.federation_id)


def _line(text: str) -> Problem:
    return Problem("event.import", {}, None, text)


def event_problems(data: Mapping[str, Any]) -> list[str]:
    """What the app cannot store of a valid event file, one line each."""
    lines: list[str] = []
    name = data.get("name", "")
    if len(name) > TOURNAMENT_NAME_MAX:
        lines.append(f"name: longer than {TOURNAMENT_NAME_MAX} characters")
    licences: Counter[str] = Counter()
    for p in data["players"]:
        if len(" ".join(p["name"].split())) > NAME_MAX or not p["name"].strip():
            lines.append(f"player {p['id']}: name: empty or longer than {NAME_MAX} characters")
        number = (p.get("licence") or {}).get("number")
        if number is not None:
            licences[number.strip()] += 1
            if len(number.strip()) > LICENCE_MAX:
                lines.append(f"player {p['id']}: licence.number: longer than {LICENCE_MAX}")
    for number, count in licences.items():
        if count > 1:
            lines.append(f"players: the licence number {number} is given to {count} players")
    for team in data.get("teams") or ():
        if len(team["name"].strip()) > TEAM_MAX:
            lines.append(f"team {team['id']}: name: longer than {TEAM_MAX} characters")
    names = Counter(team["name"].strip() for team in data.get("teams") or ())
    for name, count in names.items():
        if count > 1:
            lines.append(f"teams: the name {name} is given to {count} teams")
    shape = family_for(data["game"]).competition
    ties = (data.get("competition") or {}).get("tie_breaks")
    if "tie_breaks" in shape.profile_keys:  # the rule profile holds them (Kop, Baska)
        if ties == []:
            lines.append("competition: tie_breaks: the app orders tied players by at least one")
    elif ties is not None and tuple(ties) != tuple(shape.read({}).tie_breaks):
        lines.append(
            f"competition: tie_breaks: the app ranks {data['game'].capitalize()} tournaments by "
            + ", ".join(shape.read({}).tie_breaks)
        )
    everyone = {p["id"] for p in data["players"]}
    for rnd in data["rounds"]:
        present = {n for t in rnd["tables"] for n in t["seats"]} | set(rnd.get("byes") or ())
        for table in rnd["tables"]:
            if table.get("short") and not everyone - present:
                lines.append(
                    f"round {rnd['number']}, table {table['number']}: a short table keeps its "
                    "empty seat for a player of the event absent that round, and there is none"
                )
    for i, adj in enumerate(data.get("adjustments") or (), 1):
        for key in ("big", "small", "net"):
            if key in adj and abs(_fraction(adj[key])) >= AMOUNT_MAX:
                lines.append(f"adjustment {i}: {key}: at most {AMOUNT_MAX - 1} either way")
    return lines


def _fraction(value: object) -> Fraction:
    return Fraction(value) if isinstance(value, int) else Fraction(str(value))


def event_read(raw: bytes | str) -> Read:
    """The file read and checked: ``SheetError`` with every problem, one line each."""
    data = load_event(raw)
    event = read_event(data)
    assert isinstance(data, dict)  # noqa: S101 -- read_event refuses anything else
    lines = event_problems(data)
    if lines:
        raise SheetError([_line(text) for text in lines])
    return Read(data, event)


def club_for(name: str | None = None) -> Club | None:
    """The register players are matched in: the club of that name, or the first club
    (None when there is none yet); ``ValueError`` for an unknown name."""
    if name:
        club = Club.objects.filter(name=name).first()
        if club is None:
            raise ValueError(name)
        return club
    return Club.objects.order_by("pk").first()


def event_players(*, data: Mapping[str, Any], club: Club | None) -> list[PlayerMatch]:
    """Each of the file's players, matched to the club's register: by federation id (the
    licence number) when exactly one registered player has it, else by the exact name when
    exactly one has it (and no other licence number), else new. A registered player is
    matched at most once; one matched by name takes the file's licence number if the
    register has none (``PlayerMatch.licence_added``)."""
    register = list(Player.objects.filter(club=club)) if club is not None else []
    by_licence: dict[str, list[Player]] = {}
    by_name: dict[str, list[Player]] = {}
    for p in register:
        if p.federation_id:
            by_licence.setdefault(p.federation_id.strip(), []).append(p)
        by_name.setdefault(p.name, []).append(p)
    taken: set[int] = set()
    out = []
    for item in data["players"]:
        name = " ".join(item["name"].split())
        licence = ((item.get("licence") or {}).get("number") or "").strip()
        found, how = None, "new"
        candidates = by_licence.get(licence, []) if licence else []
        if len(candidates) == 1 and candidates[0].pk not in taken:
            found, how = candidates[0], "licence"
        else:
            # Another licence number is another person, whatever the name.
            named = [
                p
                for p in by_name.get(name, [])
                if p.pk not in taken
                and not (licence and p.federation_id and p.federation_id.strip() != licence)
            ]
            if len(by_name.get(name, [])) == 1 and named:
                found, how = named[0], "name"
        if found is not None:
            taken.add(found.pk)
        out.append(PlayerMatch(item["id"], name, licence, found, how))
    return out


def _in_force(settings: Mapping[str, Any] | None) -> dict[str, list[Any]]:
    """A profile's tournament settings as the standings read them
    (``tournaments.families.kop.competition_options``)."""
    settings = settings or {}
    return {
        "big_points": list(settings.get("big_points") or KOSCIAN_BIG_POINTS),
        "tie_breaks": list(settings.get("tie_breaks") or TIE_BREAKS),
    }


def _profile_version(game: str, data: Mapping[str, Any], options: Any) -> RuleProfileVersion:
    """A rule profile version with the file's deal rules and, for Kop and Baśka, its big
    points and tie-breaks (found, or made as an imported profile)."""
    version = profile_version_for(game, data.get("rules") or {})
    keys = family_for(game).competition.profile_keys
    if not keys:  # the family's profile holds no competition option
        return version
    wanted = {key: list(getattr(options, key)) for key in keys}
    if _in_force(version.tournament) == wanted:
        return version
    rules = validate_profile_options(game, version.options)
    for other in RuleProfileVersion.objects.filter(profile__game=game).select_related("profile"):
        if other != other.profile.current or _in_force(other.tournament) != wanted:
            continue
        try:
            if validate_profile_options(game, other.options) == rules:
                return other
        except RuleError:
            continue
    points = "/".join(str(b) for b in wanted["big_points"])
    spelled = json.dumps([version.options, wanted], sort_keys=True).encode()
    digest = hashlib.sha1(spelled, usedforsecurity=False).hexdigest()[:8]
    profile, _created = RuleProfile.objects.get_or_create(
        slug=f"{game}-event-{digest}",
        defaults={"name": f"{version.profile.name} ({points})"[:120], "game": game},
    )
    return profile.current or RuleProfileVersion.objects.create(
        profile=profile, version=1, options=dict(version.options), tournament=wanted
    )


def _stored_options(game: str, options: Any) -> dict[str, Any]:
    """``Tournament.competition``: the options it keeps, written in full."""
    shape = family_for(game).competition
    full = shape.options_json(options)
    return {key: full[key] for key in shape.kept}


def _planned_deals(data: Mapping[str, Any]) -> int:
    counts = [len(t["deals"]) for r in data["rounds"] for t in r["tables"] if t.get("deals")]
    return max(counts) if counts else DEFAULT_DEALS


def _seated_parts(imported: Any, seats: Sequence[int]) -> Any:
    """A sheet's parts seated by the event table's seat order: a Vint sheet numbers seats
    by rubber 1's N, E, S, W (a Kop sheet has no parts: it comes back as it was)."""
    if not imported.parts:
        return imported
    order = [int(name) for name in imported.names]
    seat_of = {n: seats.index(n) + 1 for n in order}
    parts = [
        {**part, "seats": {c: seat_of[order[s - 1]] for c, s in part["seats"].items()}}
        for part in imported.parts
    ]
    return dataclasses.replace(imported, parts=parts)


@transaction.atomic
def event_import(
    *, raw: bytes | str, club: Club | None, user: Any, name: str = ""
) -> tuple[Tournament, list[PlayerMatch]]:
    """Create a tournament from an event file: all of it, or nothing (``SheetError``
    with every problem, raised before anything is written, or from a deal the scoring
    write path refuses, which rolls everything back)."""
    read = event_read(raw)
    data = read.data
    club = club_or_first(club)
    game = data["game"]
    options = read.event.event.options
    matches = event_players(data=data, club=club)
    version = _profile_version(game, data, options)
    tournament = tournament_create(
        name=name or data.get("name") or _("Imported event"),
        game=game,
        profile_version=version,
        rounds=len(data["rounds"]),
        deals_per_round=_planned_deals(data),
        club=club,
        created_by=user if getattr(user, "pk", None) else None,
    )
    tournament.competition = _stored_options(game, options)
    tournament.date = datetime.date.fromisoformat(data["date"]) if "date" in data else None
    tournament.save(update_fields=["competition", "date"])

    # The app names a team by its name (``Registration.team``): the export's id is it.
    team_of = {m: t["name"].strip() for t in data.get("teams") or () for m in t["members"]}
    by_id = {p["id"]: p for p in data["players"]}
    entries: dict[int, Registration] = {}
    created = []
    for m in matches:
        player = m.player or player_create(club=club, name=m.name, federation_id=m.licence)
        if m.player is None:
            created.append(m.id)
        elif m.licence and not player.federation_id:
            player.federation_id = m.licence
            player.save(update_fields=["federation_id"])
        since = (by_id[m.id].get("licence") or {}).get("since")
        entries[m.id] = Registration.objects.create(
            tournament=tournament,
            player=player,
            number=m.id,
            checked_in=True,
            team=team_of.get(m.id, ""),
            classes=list(by_id[m.id].get("classes") or ()),
            licence_since=datetime.date.fromisoformat(since) if since else None,
        )

    label = user.get_username() if getattr(user, "pk", None) else IMPORT_LABEL
    actor = Actor(label=label, is_director=True, user_id=getattr(user, "pk", None))
    planned = results_of(game).planned_deals(tournament.deals_per_round)
    sheet_of = game_for(game).sheet
    now = timezone.now()
    for rnd in data["rounds"]:
        number = rnd["number"]
        present = {n for t in rnd["tables"] for n in t["seats"]} | set(rnd.get("byes") or ())
        absent = [n for n in sorted(entries) if n not in present]
        round_row = Round.objects.create(
            tournament=tournament,
            number=number,
            source="imported",
            algorithm="event file",
            inputs={},
            byes=list(rnd.get("byes") or ()),
        )
        for table in rnd["tables"]:
            seats = list(table["seats"])
            missing = None
            if table.get("short"):
                seats.append(absent.pop(0))  # the empty seat: a player absent that round
                missing = 4
            sheet = read.event.sheets.get((number, table["number"]))
            imported = sheet_of.read(sheet) if sheet is not None else None
            if imported is not None:
                imported = _seated_parts(imported, seats)
            session = session_create(
                game=game,
                profile_version=version,
                players=[entries[n].player for n in seats],
                created_by=tournament.created_by,
                planned_deals=planned,
                club=tournament.club,
            )
            if imported is not None and imported.deals:
                try:
                    deals_import(session=session, sheet=imported, actor=actor)
                except DealRejected as exc:  # everything written so far is rolled back
                    where = f"round {number}, table {table['number']}"
                    raise SheetError(
                        [_line(f"{where}: {m}") for ms in exc.errors.values() for m in ms]
                    ) from None
            paper = None
            if "small_points" in table:
                paper = {"small_points": list(table["small_points"])}
            elif "totals" in table:
                paper = {"totals": list(table["totals"])}
                if "rubbers_won" in table:
                    paper["rubbers_won"] = list(table["rubbers_won"])
            walkout = table.get("walkout")
            RoundTable.objects.create(
                round=round_row,
                number=table["number"],
                session=session,
                accepted_at=now,
                accepted_user_id=actor.user_id,
                walkout_seat=seats.index(walkout["player"]) + 1 if walkout else None,
                walkout_after=walkout["after_deal"] if walkout else None,
                missing_seat=missing,
                paper=paper,
            )
            # As a director accepts a table: the table's history says so, then it is locked.
            table_event_record(
                session=session,
                action="accepted",
                actor=actor,
                reason="import",
                details={"override": True, "imported": True},
            )
            session_lock(session=session, actor=actor, reason="import", announced=False)

    for adj in data.get("adjustments") or ():
        Adjustment.objects.create(
            tournament=tournament,
            entry=entries[adj["player"]],
            round=adj.get("round"),
            big=_decimal(adj.get("big", 0)),
            small=_decimal(adj.get("small", 0)),
            net=_decimal(adj.get("net", 0)),
            reason=adj["reason"],
            created_by=user if getattr(user, "pk", None) else None,
        )
    action_record(
        tournament=tournament,
        user=user,
        action="imported",
        reason="",
        details={
            "players": len(matches),
            "created": created,
            "matched": {str(m.id): m.player.pk for m in matches if m.player is not None},
            "rounds": len(data["rounds"]),
        },
    )
    results_changed(tournament=tournament)
    return tournament, matches


def _decimal(value: object) -> Decimal:
    fraction = _fraction(value)
    return Decimal(fraction.numerator) / Decimal(fraction.denominator)
