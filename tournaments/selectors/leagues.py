"""Reads of a league's pages: its precomputed tables (``LeagueTable``/``LeagueRow``, written
by ``tournaments.services.leagues.league_recompute``), never the events' standings.

A page shows one table (after the n-th event, or the last one: "final") with each row's
line per event: the rows of the earlier tables of the same player or team carry them
(``LeagueRow.line``, his result at that table's event)."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from clubs.models import Player
from tournaments.models import League, LeagueRow, LeagueTable, LeagueTeam
from tournaments.selectors.standings import csv_rank


def points_label(value: str | Fraction | None) -> str:
    """An exact total as the reader writes numbers: 39, 3,5 (Polish), 2.33."""
    if value is None or value == "":
        return "–"
    exact = Fraction(value)
    return number_format(float(exact), 0 if exact.denominator == 1 else 2)


@dataclass
class Cell:
    """A row's result at one event: rank there, then the points."""

    rank: str = ""
    points: str = "–"
    counted: bool = True
    members: list[dict[str, Any]] = field(default_factory=list)  # a team's


@dataclass
class Row:
    who: int
    rank: str
    name: str
    club: str
    big: str
    small: str
    big_value: Fraction
    small_value: Fraction
    wins: int
    events: int
    cells: list[Cell]


@dataclass
class LeaguePage:
    league: League
    tables: list[LeagueTable]  # every table, in event order
    chosen: LeagueTable | None
    teams: list[Row]
    individual: list[Row]

    @property
    def events(self) -> list[Any]:
        """The events up to the chosen table's, in order."""
        if self.chosen is None:
            return []
        return [t.event.tournament for t in self.tables[: self.chosen.after_event]]

    @property
    def is_final(self) -> bool:
        return self.chosen is not None and self.chosen.pk == self.tables[-1].pk


def league_page(*, league: League, after: int | None = None) -> LeaguePage:
    """The league's tables after the ``after``-th event (None or out of range: the last)."""
    tables = list(
        LeagueTable.objects.filter(league=league)
        .select_related("event__tournament")
        .order_by("after_event")
    )
    if not tables:
        return LeaguePage(league, [], None, [], [])
    chosen = tables[-1]
    if after is not None and 1 <= after <= len(tables):
        chosen = tables[after - 1]
    rows = list(
        LeagueRow.objects.filter(table__league=league, table__after_event__lte=chosen.after_event)
        .values_list(
            "table__after_event",
            "kind",
            "position",
            "who",
            "rank",
            "tied",
            "big_points",
            "small_points",
            "event_wins",
            "events",
            "line",
        )
        .order_by("kind", "table__after_event", "position")
    )
    lines: dict[tuple[str, int], dict[int, Any]] = {}
    current: dict[str, list[tuple[Any, ...]]] = {"individual": [], "team": []}
    for row in rows:
        after_event, kind, _position, who = row[0], row[1], row[2], row[3]
        if row[10] is not None:
            lines.setdefault((kind, who), {})[after_event] = row[10]
        if after_event == chosen.after_event:
            current[kind].append(row)
    people = {
        p.pk: p
        for p in Player.objects.filter(
            pk__in={r[3] for r in current["individual"]}
            | {m["who"] for r in current["team"] for m in (r[10] or {}).get("members", ())}
            | {
                m["who"]
                for per in (v for (k, _w), v in lines.items() if k == "team")
                for line in per.values()
                for m in line.get("members", ())
            }
        ).select_related("club")
    }
    teams = dict(LeagueTeam.objects.filter(league=league).values_list("pk", "name"))
    n = chosen.after_event

    def made(kind: str, row: tuple[Any, ...]) -> Row:
        _after, _kind, _position, who, rank, tied, big, small, wins, events, _line = row
        per = lines.get((kind, who), {})
        cells = [_cell(kind, per.get(k), people, league) for k in range(1, n + 1)]
        player = people.get(who)
        return Row(
            who=who,
            rank="–" if rank is None else (f"={rank}" if tied else str(rank)),
            name=teams.get(who, "?") if kind == "team" else (player.name if player else "?"),
            club="" if kind == "team" or player is None else player.club.name,
            big=points_label(big),
            small=points_label(small),
            big_value=Fraction(big),
            small_value=Fraction(small),
            wins=wins,
            events=events,
            cells=cells,
        )

    return LeaguePage(
        league,
        tables,
        chosen,
        [made("team", r) for r in current["team"]],
        [made("individual", r) for r in current["individual"]],
    )


def _cell(kind: str, line: Any, people: dict[int, Player], league: League) -> Cell:
    if line is None:
        return Cell()
    if league.counting == League.PLACEMENT and kind == "individual":
        points = _("%(points)s pt") % {"points": points_label(line.get("points", "0"))}
    else:
        points = f"{points_label(line['big'])} / {points_label(line['small'])}"
    members = [
        {
            "name": people[m["who"]].name if m["who"] in people else "?",
            "counted": m["counted"],
            "substitute": m["substitute"],
            "played": m["played"],
        }
        for m in line.get("members", ())
    ]
    return Cell(str(line["rank"]), points, bool(line.get("counted", True)), members)


def league_csv_rows(page: LeaguePage) -> list[list[Any]]:
    """The chosen tables as CSV rows: the team table, an empty line, the individual one;
    a column per event (the result there; a member not counted in brackets)."""
    events = [t.name for t in page.events]
    out: list[list[Any]] = []
    for title, rows in ((_("Teams"), page.teams), (_("Players"), page.individual)):
        if not rows:
            continue
        if out:
            out.append([])
        out.append(
            [
                title,
                _("Rank"),
                _("Club"),
                _("Points")
                if page.league.counting == League.PLACEMENT and title == _("Players")
                else _("Big points"),
                _("Small points"),
                _("Event wins"),
                _("Events"),
                *events,
            ]
        )
        for r in rows:
            out.append(
                [
                    r.name,
                    csv_rank(r.rank),
                    r.club,
                    _number(r.big_value),
                    _number(r.small_value),
                    r.wins,
                    r.events,
                    *[_csv_cell(c) for c in r.cells],
                ]
            )
    return out


def _number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else round(float(value), 2)


def _csv_cell(cell: Cell) -> str:
    if not cell.rank:
        return ""
    text = f"{csv_rank(cell.rank)}: {cell.points}"
    text = text if cell.counted else f"({text})"
    if cell.members:
        names = [m["name"] + ("*" if m["substitute"] else "") for m in cell.members if m["counted"]]
        text += " [" + ", ".join(names) + "]"
    return text
