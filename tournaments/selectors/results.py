"""Read-only queries for what the results say in words and on paper: how far the
standings have got (``standings_stage``), the rules a table of numbers does not show
(``standings_words``), who withdrew, a player's own card for the tournament
(``player_card``) and a round's results for the notice board (``round_notice``).

Vocabulary
----------
stage
    How far the standings have got. Round ``n`` is **complete** when it is seated and
    every one of its tables is accepted; the standings are "after round N of R" where N
    is the last round that is complete with every round before it (R: the rounds
    planned), and **final** once the last planned round is seated and every table of the
    tournament is accepted (``tournaments.selectors.tournament_finished``: a table a
    director unlocked is open again). Accepted tables of the round after N already count
    in the standings (``partial``).
absent
    A round a registered player was not seated for and did not sit out as a bye: he had
    not arrived yet (``Registration.first_round``) or had withdrawn
    (``Registration.withdrawn_after``). He gets nothing for it.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count

from tournaments.families import family_for, results_of
from tournaments.models import Registration, Round, RoundTable, Tournament
from tournaments.selectors.rounds import player_rounds, round_tables
from tournaments.tables import PlayerStandingsTable


def standings_stage(*, tournament: Tournament) -> dict[str, Any]:
    """How far the standings have got (see the module's vocabulary): ``final``, ``after``
    (N, 0 before round 1 is complete), ``of`` (the rounds planned) and ``partial``: the
    round after N when some of its tables already count, with how many of how many (else
    None). One read: the tables of every round, counted."""
    counts = list(
        RoundTable.objects.filter(round__tournament=tournament)
        .values_list("round__number")
        .annotate(tables=Count("id"), accepted=Count("accepted_at"))
        .order_by("round__number")
    )
    after = 0
    for number, tables, accepted in counts:
        if number != after + 1 or accepted != tables:
            break
        after = number
    partial = next(
        (
            {"round": number, "accepted": accepted, "tables": tables}
            for number, tables, accepted in counts
            if number == after + 1 and accepted
        ),
        None,
    )
    last_seated = any(number >= tournament.rounds_planned for number, _t, _a in counts)
    every_table = all(accepted == tables for _n, tables, accepted in counts)
    return {
        "final": last_seated and every_table,
        "after": after,
        "of": tournament.rounds_planned,
        "partial": partial,
    }


def withdrawals(*, tournament: Tournament) -> dict[int, int]:
    """Start number -> the round after which the player withdrew (0: before round 1)."""
    found = tournament.entries.filter(withdrawn_after__isnull=False)
    return {number: after or 0 for number, after in found.values_list("number", "withdrawn_after")}


def standings_words(*, tournament: Tournament) -> dict[str, Any]:
    """What the standings page and its print say besides the tables: the stage, the rules
    in force for byes, walkouts and absences (the game's family says them, from the
    tournament's options), and who withdrew (start number -> after which round)."""
    return {
        "stage": standings_stage(tournament=tournament),
        "rules": family_for(tournament.game).rules(tournament),
        "withdrawn": withdrawals(tournament=tournament),
    }


def points_columns(tournament: Tournament) -> list[tuple[str, Any]]:
    """The two point columns that rank a game's players (Kop: big and small points; Vint:
    net and rubbers won), as (key, heading): what the hall display and a player's card
    show of a standings row."""
    table_cls = family_for(tournament.game).table
    base = set(PlayerStandingsTable.base_columns)
    keys = [k for k in table_cls.base_columns if k not in base][:2]
    return [(k, table_cls.base_columns[k].verbose_name) for k in keys]


def player_card(*, tournament: Tournament, entry: Registration, data: Any) -> dict[str, Any]:
    """A player's tournament round by round, every round seated: his table, seat,
    opponents and small points (as entered, accepted or not), with the place at the
    table and big points once the standings count the table; a bye with its big points;
    an absence (not arrived yet, or withdrawn); a walkout at his table, his own or
    another's, or a short table (``situation``), and his adjustments. Then his totals and
    current place from
    the standings (``data``: the newest snapshot's document, None before any; its
    stored rows keep no rounds)."""
    individual = (data or {}).get("individual", [])
    row = next((r for r in individual if r["number"] == entry.number), None)
    counted = {e["round"]: e for e in (row or {}).get("by_round", [])}
    tables = {r["round"]: r for r in player_rounds(tournament=tournament, entry=entry)}
    rounds = []
    for number, byes in tournament.rounds.order_by("number").values_list("number", "byes"):
        cell = counted.get(number, {})
        if number in tables:
            kind = "table"
            line = dict(tables[number])
        elif entry.number in (byes or []):
            kind, line = "bye", {"round": number}
        else:
            kind, line = "absent", {"round": number}
            line["withdrawn"] = entry.withdrawn_after is not None and number > entry.withdrawn_after
        line.update(
            kind=kind,
            big_points=cell.get("big_points"),
            counted_small=cell.get("small_points"),
            situation=cell.get("situation"),  # "stayer", "leaver", "short": a walkout's
            place=cell.get("place"),
            counted=bool(cell),
        )
        rounds.append(line)
    totals = [(label, row.get(key)) for key, label in points_columns(tournament)] if row else []
    return {
        "rounds": rounds,
        "by_round": family_for(tournament.game).by_round,
        "rank": row["rank"] if row else None,
        "totals": totals,
        "withdrawn_after": entry.withdrawn_after,
        "adjustments": [
            a for a in (data or {}).get("adjustments", []) if a["number"] == entry.number
        ],
    }


def round_notice(
    *, rnd: Round, data: Any, tables: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """A round's results for the notice board: every table with its four seats (start
    number, name) and, once the table is accepted, each seat's small points, big points
    and place at the table from the standings document ``data`` (None: not shown, the
    standings hidden). A family whose standings keep no rounds (``Family.by_round``:
    Vint) shows the points of the accepted tables' sheets. The round's byes with their
    big points. ``tables``: the round's ``round_tables`` when already read."""
    individual = (data or {}).get("individual", [])
    counted = {
        row["number"]: entry
        for row in individual
        for entry in row.get("by_round", [])
        if entry["round"] == rnd.number
    }
    has_rounds = family_for(rnd.tournament.game).by_round
    if tables is None:
        tables = round_tables(rnd=rnd)
    sheets: dict[int, dict[int, Any]] = {}
    if data is not None and not has_rounds:
        accepted = [t["table"].session_id for t in tables if t["table"].accepted_at]
        results = results_of(rnd.tournament.game).seat_results(accepted) if accepted else {}
        sheets = {sid: {r.seat: r.points for r in rs} for sid, rs in results.items()}
    out = []
    for t in tables:
        table = t["table"]
        shown = data is not None and table.accepted_at is not None
        seats = []
        for seat, number, player in t["seats"]:
            cell = counted.get(number, {}) if shown else {}
            small = cell.get("small_points")
            if shown and not has_rounds:
                small = sheets.get(table.session_id, {}).get(seat)
            seats.append(
                {
                    "seat": seat,
                    "number": number,
                    "name": player.name,
                    "small_points": small,
                    "big_points": cell.get("big_points"),
                    "place": cell.get("place"),
                }
            )
        out.append(
            {"number": table.number, "accepted": table.accepted_at is not None, "seats": seats}
        )
    names = dict(
        rnd.tournament.entries.filter(number__in=rnd.byes or []).values_list(
            "number", "player__name"
        )
    )
    byes = [
        {"number": n, "name": names.get(n, ""), "big_points": counted.get(n, {}).get("big_points")}
        for n in sorted(rnd.byes or [])
    ]
    return {"tables": out, "byes": byes, "has_rounds": has_rounds}
