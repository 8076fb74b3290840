"""Read-only queries for the hall: where a player sits, and the hall display with the
version its poll watches."""

from __future__ import annotations

from typing import Any

from clubs.selectors import fold_name, names_alike
from tournaments.models import Registration, Round, RoundTable, Tournament
from tournaments.selectors.results import points_columns, standings_stage
from tournaments.selectors.rounds import newest_round, progress
from tournaments.selectors.standings import FIND_QUERY_MAX, standings_view
from tournaments.sql import display_row

# With a field this small the find page lists every name to tap; a bigger one searches.
FIND_TAP_LIST_MAX = 80


def find_seat(
    *, tournament: Tournament, query: str = "", number: int | None = None
) -> dict[str, Any]:
    """Where a player sits in the newest seated round. ``number`` (a start number) names
    one player; ``query`` (a name, part of one, or a start number) may name several,
    matched with ``clubs.selectors.names_alike`` on folded names ("Lukasz" finds
    "Łukasz"), and each match is listed with its start number: a name alone never
    decides who is who."""
    rnd = newest_round(tournament=tournament)
    entries = list(tournament.entries.select_related("player").order_by("number"))
    query = " ".join(query.split())[:FIND_QUERY_MAX]
    digits = query.lstrip("#").strip()
    if number is None and digits.isdigit() and len(digits) <= 6:
        number = int(digits)
    matches: list[Registration] = []
    if number is not None:
        matches = [e for e in entries if e.number == number]
    elif query:
        # The closest tier wins: the whole name (in any order of its words), then part
        # of it, then a name alike (a typo): "Gracz 03" is not "Gracz 04".
        folded = fold_name(query)
        words = sorted(folded.split())
        tiers = (
            lambda name: sorted(fold_name(name).split()) == words,
            lambda name: folded in fold_name(name),
            lambda name: names_alike(name, query),
        )
        for alike in tiers:
            matches = [e for e in entries if alike(e.player.name)]
            if matches:
                break
    found = None
    if len(matches) == 1:
        found = {"entry": matches[0], **_seat_of(rnd=rnd, entry=matches[0])}
    return {
        "round": rnd,
        "query": query,
        "searched": bool(query) or number is not None,
        "matches": matches,
        "found": found,
        "tap_list": entries if len(entries) <= FIND_TAP_LIST_MAX else [],
    }


def _seat_of(*, rnd: Round | None, entry: Registration) -> dict[str, Any]:
    if rnd is None:
        return {"table": None, "seat": None, "bye": False}
    if entry.number in (rnd.byes or []):
        return {"table": None, "seat": None, "bye": True}
    seat = (
        RoundTable.objects.filter(round=rnd, session__seats__player_id=entry.player_id)
        .values("number", "session__seats__seat", "session_id")
        .first()
    )
    if seat is None:
        return {"table": None, "seat": None, "bye": False}
    return {"table": seat["number"], "seat": seat["session__seats__seat"], "bye": False}


def display_version(*, slug: str) -> str | None:
    """What the hall display shows changes only when this does: the results version (a
    deal, an acceptance or a correction moves it), the newest snapshot, the newest round
    and its accepted tables. One small read (``tournaments.sql.display_row``: the display
    polls it every few seconds), no snapshot JSON; None for an unknown tournament."""
    row = display_row(slug)
    if row is None:
        return None
    version, shown, newest, accepted = row
    return f"{version}-{shown}-{newest or 0}-{accepted}"


# How many accepted tables the display lists, newest first.
DISPLAY_ACCEPTED = 12  # the newest; the display shows as many as fit its screen


def hall_display(*, tournament: Tournament) -> dict[str, Any]:
    """The hall display: the round's clock, the tables still playing, the last accepted
    ones and (when the public may see them) the standings, every row: the display's
    script pages through them."""
    state = progress(tournament=tournament)
    tables = state["tables"]
    playing = [t for t in tables if not t["table"].accepted_at]
    accepted = sorted(
        (t for t in tables if t["table"].accepted_at),
        key=lambda t: t["table"].accepted_at,
        reverse=True,
    )[:DISPLAY_ACCEPTED]
    view = standings_view(tournament=tournament, viewer_is_director=False)
    rows: list[dict[str, Any]] = []
    columns: list[tuple[str, Any]] = []
    stage = None
    if view["visible"] and view["data"]:
        columns = points_columns(tournament)
        points = [k for k, _label in columns]
        stage = standings_stage(tournament=tournament)
        rows = [
            {
                "rank": r["rank"],
                "number": r["number"],
                "name": r["name"],
                "points": [r.get(k) for k in points],
            }
            for r in view["data"]["individual"]
        ]
    return {
        **state,
        "playing": playing,
        "accepted_tables": accepted,
        "standings_visible": view["visible"],
        "standings_rows": rows,
        "standings_columns": columns,
        "standings_stage": stage,
    }
