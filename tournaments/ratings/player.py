"""A player's page: their ratings with history and chart per game, tournaments, table
sessions with results, and the partners and opponents met most. The page of a register
row is its person's (``clubs.Person``): every register row of that person, in any club,
counts, and each session and tournament says which row played it.

What a session's result says and what a game's totals count is its family's
(``tournaments.families``: ``RatingFamily.session_lines``, ``meetings``, ``game_totals``).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from clubs.models import Player
from clubs.selectors import club_number_label, person_rows, several_clubs
from scoring.models import TableSeat, TableSession
from tournaments.families import FAMILIES, SessionLine, family_for, games
from tournaments.models import (
    RatingEvent,
    RatingSource,
    RatingState,
    Registration,
    RoundTable,
    Tournament,
)
from tournaments.ratings.common import (
    CAUSE,
    SESSION,
    cause_label,
    change_label,
    signed,
    snapshot_rows,
)
from tournaments.ratings.leaderboards import rating_status
from tournaments.selectors import hiding_standings


def rating_history(*, person_id: int, game: str) -> list[dict[str, Any]]:
    events = (
        RatingEvent.objects.filter(person_id=person_id, game=game)
        .select_related(CAUSE, SESSION)
        .order_by("at", "source__session_id")
    )
    return [
        {
            "at": e.at,
            "cause": cause_label(e.source),
            "tournament": e.source.table.round.tournament if e.source.table else None,
            "club_evening": e.source.table_id is None,
            "session_id": e.source.session_id,
            "games": e.games,
            "mu": round(e.mu_after, 2),
            "sigma": round(e.sigma_after, 2),
            "rating": round(e.after, 2),
            "change": round(e.delta, 2),
            "change_label": signed(e.delta),
            "before": round(e.before, 2),
            "mu_before": round(e.mu_before, 2),
        }
        for e in events
    ]


def _nice_step(span: float, ticks: int = 4) -> float:
    raw = span / ticks if span > 0 else 1.0
    magnitude = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * magnitude:
            return m * magnitude
    return 10 * magnitude


def rating_chart(history: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """An SVG line chart of the displayed rating (and μ), coordinates computed here so
    the template only draws; no script. Points are evenly spaced, one per table."""
    if not history:
        return None
    width, height = 480, 220
    left, right, top, bottom = 40, 10, 12, 30
    first = history[0]
    ratings = [first["before"], *[h["rating"] for h in history]]
    mus = [first["mu_before"], *[h["mu"] for h in history]]
    low, high = min(ratings + mus), max(ratings + mus)
    step = _nice_step(high - low)
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step
    if high == low:
        high = low + step
    n = len(ratings)

    def x(i: int) -> float:
        return round(left + (width - left - right) * (i / (n - 1) if n > 1 else 0.5), 1)

    def y(v: float) -> float:
        return round(top + (height - top - bottom) * (high - v) / (high - low), 1)

    ticks = []
    v = low
    while v <= high + step / 2:
        ticks.append({"y": y(v), "label": number_format(v, 0 if step >= 1 else 1)})
        v += step
    points = [
        {
            "x": x(i + 1),
            "y": y(h["rating"]),
            "title": f"{h['cause']}: {number_format(h['rating'], 1)} ({h['change_label']})",
        }
        for i, h in enumerate(history)
    ]
    return {
        "width": width,
        "height": height,
        "left": left,
        "right": width - right,
        "bottom": height - bottom,
        "rating_line": " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(ratings)),
        "mu_line": " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(mus)),
        "points": points,
        "ticks": ticks,
        "first_label": history[0]["at"],
        "last_label": history[-1]["at"],
        "label_y": height - 8,
    }


def _snapshot_ranks(tournament_ids: Sequence[int]) -> dict[int, dict[int, Any]]:
    """Tournament -> start number -> rank label ("3", "=8"), from each tournament's latest
    standings (none for a tournament that still hides its standings)."""
    return {
        t_id: {number: row.get("rank") for number, row in rows.items()}
        for t_id, rows in snapshot_rows(tournament_ids).items()
    }


def _evening_state(session: TableSession, rated: bool) -> str:
    if rated:
        return _("rated")
    if session.rating_excluded_at is not None:
        return _("left out of the ratings")
    if session.accepted_at is not None:
        return _("accepted, rating soon")
    return _("not accepted: not rated")


def player_profile(*, player: Player) -> dict[str, Any]:
    """Everything on a player's page, for the person the register row stands for (all
    their rows, ``rows``): ratings, history and chart per game, tournaments, sessions with
    results (each with the row that played it), and the partners and opponents met most."""
    person_id = player.person_id
    rows = person_rows([person_id])[person_id]
    several = several_clubs()
    row_label = {p.pk: club_number_label(p, several=several) for p in rows}
    seats = list(
        TableSeat.objects.filter(player__person_id=person_id)
        .select_related("session")
        .order_by("-session__created_at", "-session_id")
    )
    session_ids = [s.session_id for s in seats]
    seat_of = {s.session_id: s.seat for s in seats}
    row_at = {s.session_id: row_label.get(s.player_id, "") for s in seats}
    tables = {
        t.session_id: t
        for t in RoundTable.objects.filter(session_id__in=session_ids).select_related(
            "round__tournament"
        )
    }
    hiding_now = set(
        hiding_standings(
            tournaments=Tournament.objects.filter(
                pk__in={t.round.tournament_id for t in tables.values()}
            )
        )
    )
    hidden = {s for s, t in tables.items() if t.round.tournament_id in hiding_now}
    shown = [s for s in seats if s.session_id not in hidden]
    ids_of: dict[str, list[int]] = defaultdict(list)  # by family
    for s in shown:
        ids_of[family_for(s.session.game).name].append(s.session_id)
    lines: dict[int, SessionLine] = {}
    partners: Counter[int] = Counter()
    partner_wins: Counter[int] = Counter()
    opponents: Counter[int] = Counter()
    for name, family in FAMILIES.items():
        ids = ids_of.get(name)
        if not ids:
            continue
        lines.update(family.ratings.session_lines(person_id, seat_of, ids))
        met = family.ratings.meetings(person_id, ids)
        partners.update(met[0])
        partner_wins.update(met[1])
        opponents.update(met[2])

    rated_ids = set(
        RatingSource.objects.filter(session_id__in=session_ids).values_list("session_id", flat=True)
    )
    sessions = []
    per_game: dict[str, dict[str, Any]] = {}
    for s in seats:
        session = s.session
        table = tables.get(session.pk)
        summary = per_game.setdefault(
            session.game,
            {"game": session.game, "label": session.get_game_display(), "sessions": 0},
        )
        if session.pk in hidden:
            result = _("hidden until the last round is finished")
        else:
            line = lines[session.pk]
            summary["sessions"] += 1
            for key, n in line.counts.items():
                summary[key] = summary.get(key, 0) + n
            result = line.text
        sessions.append(
            {
                "session_id": session.pk,
                "title": str(session),
                "row": row_label.get(s.player_id, ""),
                "game": session.get_game_display(),
                "date": session.created_at,
                "tournament": table.round.tournament.name if table else "",
                "tournament_slug": table.round.tournament.slug if table else "",
                "result": result,
                "accepted": bool(table and table.accepted_at) or session.locked,
                "rated": session.pk in rated_ids,
                # Its rating state in words (a club evening: also left out or waiting).
                "evening": _evening_state(session, session.pk in rated_ids)
                if table is None
                else (_("rated") if session.pk in rated_ids else ""),
            }
        )
    played = [g for g in per_game.values() if g["sessions"]]
    for summary in played:
        summary.update(family_for(summary["game"]).ratings.game_totals(summary))

    entries = list(
        Registration.objects.filter(player__person_id=person_id)
        .select_related("tournament")
        .order_by("-tournament__created_at")
    )
    ranks = _snapshot_ranks([e.tournament_id for e in entries])
    tournaments = [
        {
            "name": e.tournament.name,
            "slug": e.tournament.slug,
            "number": e.number,
            "row": row_label.get(e.player_id, ""),
            "game": e.tournament.get_game_display(),
            "date": e.tournament.created_at,
            "rank": ranks.get(e.tournament_id, {}).get(e.number),
        }
        for e in entries
    ]

    top_partners = partners.most_common(5)
    top_opponents = opponents.most_common(5)
    # Partners and opponents are persons too: each named and linked by their first row.
    met_rows = person_rows(p for p, _n in top_partners + top_opponents)
    first = {p: found[0] for p, found in met_rows.items()}

    states = {
        s.game: s
        for s in RatingState.objects.filter(person_id=person_id).select_related(
            f"last_event__{CAUSE}", f"last_event__{SESSION}"
        )
    }
    ratings = []
    for code, label in games():
        state = states.get(code)
        if state is None:
            continue
        history = rating_history(person_id=person_id, game=code)
        for h in history:  # which register row played it
            h["row"] = row_at.get(h["session_id"], "")
        last = state.last_event
        ratings.append(
            {
                "game": code,
                "label": label,
                "state": state,
                "rating": round(state.display, 2),
                "last": change_label(last.delta, last.source) if last else "",
                "history": history,
                "chart": rating_chart(history),
                "run": rating_status(game=code),
            }
        )
    return {
        "rows": [{"player": p, "label": row_label[p.pk]} for p in rows],
        "several_rows": len(rows) > 1,
        "ratings": ratings,
        "per_game": played,
        "sessions": sessions,
        "tournaments": tournaments,
        "partners": [
            {"player_id": first[p].pk, "name": first[p].name, "count": n, "won": partner_wins[p]}
            for p, n in top_partners
        ],
        "opponents": [
            {"player_id": first[p].pk, "name": first[p].name, "count": n} for p, n in top_opponents
        ],
    }
