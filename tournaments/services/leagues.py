"""Leagues: their events, licences, rosters and line-ups, and their precomputed tables
(competitions.md §8; the rules are ``tournaments.ranking.league``, the vocabulary is there).

Every write takes the league's row (``select_for_update``) first, checks everything, and
either writes all of it or refuses with ``LeagueRejected`` (its ``problems``: one sentence
each, in the reader's language) and writes nothing. A licence list is the organiser's
(a club or an association), so its import locks the organiser's row instead.

The tables (``LeagueTable``/``LeagueRow``, one per held event: the season after it) are
recomputed from the events' stored standings rows (``StandingsRow``), never from their
tables: when an event's standings are stored (``standings_stored``, called by
``tournaments.services.snapshots``) and after every change of the league's events,
rosters, line-ups or licences. A recompute reads each event's rows once and adds the
events up in one pass (``league.league_progress``), so it costs time linear in the
league's events; it writes only the tables from the changed event on.

A person is one ``who`` across clubs (``clubs.Person``): his register rows count as one
player, named by his first row.
"""

from __future__ import annotations

import csv
import datetime
import functools
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.db.models import Min, Q
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs.models import Club, ClubRecord, Person, Player
from ops.outbox import enqueue_on_commit
from scoring.profile_services import create_with_unique_slug
from tournaments.families import family_for, games
from tournaments.models import (
    League,
    LeagueEvent,
    LeagueRow,
    LeagueTable,
    LeagueTeam,
    Licence,
    LineUp,
    Registration,
    RosterMember,
    StandingsRow,
    StandingsSnapshot,
    Tournament,
)
from tournaments.ranking import league as rules
from tournaments.ranking.competition import KopRow, Team, team_standings
from tournaments.ranking.errors import RankingProblem
from tournaments.ranking.ratings import RatingOptionError, SeriesRules, series_standings
from tournaments.selectors import hiding_standings

#: The Celery task that recomputes the leagues of a tournament (``tournaments.tasks``).
LEAGUES_RECOMPUTE = "tournaments.leagues_recompute"

#: A licence list larger than this is refused (an association's list is a few thousand).
LICENCE_LINES_MAX = 20_000


class LeagueRejected(Exception):
    """A league write refused; ``problems`` has one translated sentence each."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = list(problems)


def _refuse(*problems: str) -> None:
    if problems:
        raise LeagueRejected(problems)


def league_game_choices() -> list[tuple[str, str]]:
    """The games a league may be of: those whose events have big points and teams
    (competitions.md §9: not Vint)."""
    return [(code, label) for code, label in games() if family_for(code).competition.walkouts]


def _locked(league: League) -> League:
    return League.objects.select_for_update().get(pk=league.pk)


# --------------------------------------------------------------------------- the league


@transaction.atomic
def league_create(
    *,
    organiser: Club,
    name: str,
    game: str,
    season: str,
    counting: str = League.SUM,
    points_table: Sequence[int] = (),
    licences_required: bool = False,
    team_size_min: int = 4,
    team_size_max: int = 5,
    team_counting: int = 4,
    created_by: Any = None,
) -> League:
    name, season = " ".join(name.split()), " ".join(season.split())
    problems = []
    if not name:
        problems.append(_("Give the league a name."))
    if not season:
        problems.append(_("Give the season, e.g. 2026."))
    if game not in dict(league_game_choices()):
        problems.append(_("A league is of Kop or Baśka: its events have big points and teams."))
    if counting not in dict(League.COUNTINGS):
        problems.append(_("Choose how the league counts: big points or points by place."))
    if counting == League.PLACEMENT:
        try:
            SeriesRules(tuple(points_table))
        except RatingOptionError:
            problems.append(_("Give the points for 1st, 2nd, ... place, none negative."))
    if not 1 <= team_size_min <= team_size_max:
        problems.append(_("A team needs at least one regular player, and no more than the most."))
    if not 1 <= team_counting <= team_size_max:
        problems.append(_("The results that count must be between 1 and the team's most players."))
    _refuse(*problems)
    return create_with_unique_slug(
        League,
        base=slugify(f"{name} {season}")[:40] or "league",
        name=name,
        game=game,
        organiser=organiser,
        season=season,
        counting=counting,
        points_table=list(points_table) if counting == League.PLACEMENT else [],
        licences_required=licences_required,
        team_size_min=team_size_min,
        team_size_max=team_size_max,
        team_counting=team_counting,
        created_by=created_by,
    )


def event_candidates(*, league: League) -> Any:
    """The tournaments a league may count: of its game, held by its organiser or by a
    member club of it, not yet in the league."""
    return (
        Tournament.objects.filter(game=league.game)
        .filter(Q(club=league.organiser_id) | Q(club__association=league.organiser_id))
        .exclude(league_events__league=league)
        .order_by("-date", "-created_at")
    )


@transaction.atomic
def event_add(*, league: League, tournament: Tournament) -> LeagueEvent:
    league = _locked(league)
    problems = []
    if tournament.game != league.game:
        problems.append(
            _("%(tournament)s is a tournament of another game.") % {"tournament": tournament.name}
        )
    if LeagueEvent.objects.filter(league=league, tournament=tournament).exists():
        problems.append(
            _("%(tournament)s is already an event of this league.")
            % {"tournament": tournament.name}
        )
    club = tournament.club
    if club is None or (
        club.pk != league.organiser_id and club.association_id != league.organiser_id
    ):
        problems.append(
            _("%(tournament)s is held by neither the organiser nor one of its member clubs.")
            % {"tournament": tournament.name}
        )
    _refuse(*problems)
    event = LeagueEvent.objects.create(league=league, tournament=tournament)
    league_recompute(league=league)
    return event


# ------------------------------------------------------------------------------ licences


@dataclass(frozen=True)
class LicenceLine:
    line: int  # in the file, 1-based
    number: str
    name: str
    granted_on: datetime.date
    status: str  # "new", "changed", "same"


@dataclass(frozen=True)
class LicencePreview:
    lines: list[LicenceLine]
    problems: list[str]

    def count(self, status: str) -> int:
        return sum(1 for line in self.lines if line.status == status)


def read_upload(data: bytes) -> str:
    """An uploaded text file: UTF-8 (with or without a byte-order mark), else the
    Windows code page a Polish spreadsheet saves in."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1250", errors="replace")


def parse_date(text: str) -> datetime.date | None:
    """2025-11-01 or 01.11.2025 (the way a Polish list writes it); None otherwise."""
    text = text.strip()
    for pattern in ("%Y-%m-%d", "%d.%m.%Y"):
        try:
            return datetime.datetime.strptime(text, pattern).date()
        except ValueError:
            continue
    return None


def licences_preview(*, organiser: Club, text: str) -> LicencePreview:
    """What importing ``text`` (CSV: licence number, name, date; ``;`` or ``,``; a header
    line allowed) would do: each line new, changed or the same, or the problems that
    refuse the whole file (with their line numbers)."""
    rows = [row for row in _csv_lines(text) if any(cell.strip() for cell in row[1])]
    problems: list[str] = []
    if len(rows) > LICENCE_LINES_MAX:
        return LicencePreview(
            [], [_("The file has more than %(n)s lines.") % {"n": LICENCE_LINES_MAX}]
        )
    if rows and not any(ch.isdigit() for ch in (rows[0][1] or [""])[-1]):
        rows = rows[1:]  # a header line: its last field ("date") holds no digit
    parsed: list[tuple[int, str, str, datetime.date]] = []
    seen: dict[str, list[int]] = {}
    for line, cells in rows:
        cells = [cell.strip() for cell in cells]
        if len(cells) != 3:
            problems.append(
                _("Line %(line)s: give three fields, licence number, name and date.")
                % {"line": line}
            )
            continue
        number, name, day = cells[0], " ".join(cells[1].split()), parse_date(cells[2])
        if not number or len(number) > 40:
            problems.append(_("Line %(line)s: no licence number.") % {"line": line})
        elif not name or len(name) > 120:
            problems.append(_("Line %(line)s: no name.") % {"line": line})
        elif day is None:
            problems.append(
                _("Line %(line)s: %(date)s is not a date (2025-11-01 or 01.11.2025).")
                % {"line": line, "date": cells[2]}
            )
        else:
            parsed.append((line, number, name, day))
        seen.setdefault(number, []).append(line)
    for number, lines in seen.items():
        if number and len(lines) > 1:
            problems.append(
                _("Licence %(number)s is listed more than once, on lines %(lines)s.")
                % {"number": number, "lines": ", ".join(map(str, lines))}
            )
    if not rows:
        problems.append(_("The file lists no licence."))
    if problems:
        return LicencePreview([], problems)
    held = {
        number: (name, day)
        for number, name, day in Licence.objects.filter(
            organiser=organiser, number__in=[p[1] for p in parsed]
        ).values_list("number", "name", "granted_on")
    }
    read = [
        LicenceLine(
            line,
            number,
            name,
            day,
            "new" if number not in held else "same" if held[number] == (name, day) else "changed",
        )
        for line, number, name, day in parsed
    ]
    return LicencePreview(read, [])


def _csv_lines(text: str) -> list[tuple[int, list[str]]]:
    lines = text.splitlines()
    first = next((line for line in lines if line.strip()), "")
    delimiter = ";" if ";" in first else ","
    reader = csv.reader(io.StringIO("\n".join(lines)), delimiter=delimiter)
    return [(reader.line_num, row) for row in reader]


@transaction.atomic
def licences_import(*, organiser: Club, text: str, by: Any = None) -> LicencePreview:
    """Import the licence list ``text`` (see ``licences_preview``): all of it or, when
    the preview finds a problem, nothing. New numbers are added, changed ones updated;
    each licence is linked to the register row whose federation id is its number, if it
    has none yet. Kept as a ``ClubRecord``; the organiser's leagues are recomputed."""
    Club.objects.select_for_update().filter(pk=organiser.pk).first()
    preview = licences_preview(organiser=organiser, text=text)
    _refuse(*preview.problems)
    held = {licence.number: licence for licence in Licence.objects.filter(organiser=organiser)}
    new, changed = [], []
    for line in preview.lines:
        licence = held.get(line.number)
        if licence is None:
            new.append(
                Licence(
                    organiser=organiser,
                    number=line.number,
                    name=line.name,
                    granted_on=line.granted_on,
                )
            )
        elif line.status == "changed":
            licence.name, licence.granted_on = line.name, line.granted_on
            changed.append(licence)
    Licence.objects.bulk_create(new)
    Licence.objects.bulk_update(changed, ["name", "granted_on"])
    linked = _licences_link(organiser)
    ClubRecord.objects.create(
        club=organiser,
        user=by,
        action="licences_imported",
        detail={
            "new": len(new),
            "changed": len(changed),
            "same": preview.count("same"),
            "linked": linked,
        },
    )
    for league in League.objects.filter(organiser=organiser).order_by("pk"):
        league_recompute(league=league)
    return preview


def _licences_link(organiser: Club) -> int:
    """Link the organiser's unlinked licences to the register row whose federation id is
    the licence number (the lowest such row); how many were linked."""
    unlinked = {
        licence.number: licence
        for licence in Licence.objects.filter(organiser=organiser, player__isnull=True)
    }
    found: dict[str, int] = {}
    for pk, number in (
        Player.objects.filter(federation_id__in=list(unlinked))
        .order_by("pk")
        .values_list("pk", "federation_id")
    ):
        found.setdefault(number, pk)
    linked = []
    for number, pk in found.items():
        unlinked[number].player_id = pk
        linked.append(unlinked[number])
    Licence.objects.bulk_update(linked, ["player"])
    return len(linked)


@transaction.atomic
def licence_link(*, licence: Licence, player: Player | None) -> Licence:
    """A director names the register row a licence belongs to (None: unlinks it)."""
    Club.objects.select_for_update().filter(pk=licence.organiser_id).first()
    licence.player = player
    licence.save(update_fields=["player"])
    for league in League.objects.filter(organiser_id=licence.organiser_id).order_by("pk"):
        league_recompute(league=league)
    return licence


# ----------------------------------------------------------------------------- people


@dataclass(frozen=True)
class People:
    """Register rows -> the person (``who``, a player id) and his licence date."""

    who: dict[int, int]
    licensed: dict[int, datetime.date]  # who -> granted on

    def of(self, player_id: int) -> int:
        return self.who.get(player_id, player_id)


def league_people(*, league: League, player_ids: Iterable[int]) -> People:
    """Who each of ``player_ids`` is in ``league``: the person (``clubs.Person``: rows of
    one person are one player, named by the person's first register row), and the
    licence of the organiser the person holds (linked to one of his rows, or numbered
    with his federation id); the earliest when several."""
    person_of = dict(Player.objects.filter(pk__in=set(player_ids)).values_list("pk", "person_id"))
    persons = set(person_of.values())
    first_row = dict(
        Player.objects.filter(person_id__in=persons)
        .values("person_id")
        .annotate(first=Min("pk"))
        .values_list("person_id", "first")
    )
    who = {pk: first_row[person] for pk, person in person_of.items()}
    federation = dict(
        Person.objects.filter(pk__in=persons)
        .exclude(federation_id="")
        .values_list("federation_id", "pk")
    )
    licensed: dict[int, datetime.date] = {}
    for number, row_person, granted in Licence.objects.filter(
        Q(player__person_id__in=persons) | Q(number__in=list(federation)),
        organiser_id=league.organiser_id,
    ).values_list("number", "player__person_id", "granted_on"):
        person = row_person if row_person in first_row else federation.get(number)
        if person is None:
            continue
        held = licensed.get(first_row[person])
        licensed[first_row[person]] = granted if held is None else min(held, granted)
    return People(who, licensed)


# ---------------------------------------------------------------------- rosters, line-ups


def _names(players: Iterable[Player]) -> str:
    return ", ".join(sorted(p.name for p in players))


@transaction.atomic
def team_create(*, league: League, name: str) -> LeagueTeam:
    league = _locked(league)
    name = " ".join(name.split())
    if not name:
        _refuse(_("Give the team a name."))
    if LeagueTeam.objects.filter(league=league, name=name).exists():
        _refuse(_("The league has a team %(name)s already.") % {"name": name})
    return LeagueTeam.objects.create(league=league, name=name)


@transaction.atomic
def roster_set(*, team: LeagueTeam, players: Sequence[Player]) -> None:
    """The team's regular players: ``team_size_min`` to ``team_size_max`` of them, none
    on another team of the league (refused, naming them and the team)."""
    league = _locked(team.league)
    people = league_people(league=league, player_ids=[p.pk for p in players])
    problems = []
    chosen = {people.of(p.pk): p for p in players}
    if len(chosen) < len(players):
        problems.append(_("A player is listed twice."))
    if not league.team_size_min <= len(chosen) <= league.team_size_max:
        problems.append(
            _("A team has %(min)s to %(max)s regular players, not %(n)s.")
            % {"min": league.team_size_min, "max": league.team_size_max, "n": len(chosen)}
        )
    others = _rosters(league, people)
    for who, player in chosen.items():
        other = others.get(who)
        if other is not None and other[0] != team.pk:
            problems.append(
                _("%(player)s is on the roster of %(team)s.")
                % {"player": player.name, "team": other[1]}
            )
    _refuse(*problems)
    RosterMember.objects.filter(team=team).delete()
    RosterMember.objects.bulk_create(
        RosterMember(team=team, league=league, player=p) for p in chosen.values()
    )
    league_recompute(league=league)


def _rosters(league: League, people: People) -> dict[int, tuple[int, str]]:
    """who -> (team id, team name) of every roster member of the league."""
    members = list(
        RosterMember.objects.filter(league=league).values_list("player_id", "team_id", "team__name")
    )
    more = league_people(league=league, player_ids=[m[0] for m in members])
    return {more.of(pk): (team_id, name) for pk, team_id, name in members}


@transaction.atomic
def lineup_set(*, team: LeagueTeam, event: LeagueEvent, players: Sequence[Player]) -> None:
    """The team at one event (§8.2): up to ``team_size_max`` players, at most one of them
    a substitute (off the team's roster) who is on no other team's roster; when the
    league requires licences, each licensed on or before the event's day. A player in
    another team's line-up at this event is refused too."""
    league = _locked(team.league)
    if event.league_id != league.pk:
        _refuse(_("That event is not of this league."))
    people = league_people(league=league, player_ids=[p.pk for p in players])
    chosen = {people.of(p.pk): p for p in players}
    problems = []
    if len(chosen) < len(players):
        problems.append(_("A player is listed twice."))
    if not 1 <= len(chosen) <= league.team_size_max:
        problems.append(
            _("A line-up has 1 to %(max)s players, not %(n)s.")
            % {"max": league.team_size_max, "n": len(chosen)}
        )
    rosters_of = _rosters(league, people)
    rosters: dict[str, list[int]] = {}
    for who, (team_id, _name) in rosters_of.items():
        rosters.setdefault(str(team_id), []).append(who)
    names = {str(team_id): name for team_id, name in rosters_of.values()}
    found = rules.lineup_problems(
        str(team.pk),
        list(chosen),
        rosters,
        licences=people.licensed if league.licences_required else None,
        date=event_day(event.tournament),
    )
    problems += [_lineup_sentence(p, chosen, names) for p in found]
    elsewhere = LineUp.objects.filter(event=event, player__in=players).exclude(team=team)
    for line in elsewhere.select_related("player", "team"):
        problems.append(
            _("%(player)s plays for %(team)s at this event.")
            % {"player": line.player.name, "team": line.team.name}
        )
    _refuse(*problems)
    own = set(rosters.get(str(team.pk), ()))
    LineUp.objects.filter(team=team, event=event).delete()
    LineUp.objects.bulk_create(
        LineUp(team=team, event=event, player=p, substitute=who not in own)
        for who, p in chosen.items()
    )
    league_recompute(league=league, tournament_id=event.tournament_id)


def _lineup_sentence(
    problem: RankingProblem, chosen: Mapping[int, Player], teams: Mapping[str, str]
) -> str:
    params: Any = problem.params
    if problem.code == "league.substitutes":
        return _("A line-up may have one substitute, not %(n)s: %(players)s.") % {
            "n": len(params["players"]),
            "players": _names(chosen[p] for p in params["players"]),
        }
    if problem.code == "league.substitute_on_roster":
        return _("%(player)s is on the roster of %(team)s and cannot substitute.") % {
            "player": chosen[params["player"]].name,
            "team": teams.get(str(params["other"]), ""),
        }
    return _("%(player)s holds no licence granted on or before the event.") % {
        "player": chosen[params["player"]].name
    }


def event_day(tournament: Tournament) -> datetime.date:
    """The day an event was played: its date, else the day it was created."""
    return tournament.date or timezone.localdate(tournament.created_at)


# ------------------------------------------------------------------------------ tables


def standings_stored(*, tournament_id: int) -> None:
    """A tournament's standings were stored: its leagues are recomputed once the
    transaction commits (a task: idempotent, given the tournament's id)."""
    if LeagueEvent.objects.filter(tournament_id=tournament_id).exists():
        enqueue_on_commit(LEAGUES_RECOMPUTE, tournament_id, tournament_id=tournament_id)


def leagues_recompute_for(*, tournament_id: int) -> None:
    """Recompute every league that counts the tournament, from that event on."""
    for league in League.objects.filter(events__tournament_id=tournament_id).order_by("pk"):
        league_recompute(league=league, tournament_id=tournament_id)


@dataclass(frozen=True)
class HeldEvent:
    event: LeagueEvent
    day: datetime.date
    rows: list[dict[str, Any]]  # the individual standings rows, in their order, with "who"


@functools.lru_cache(maxsize=8192)
def _points(value: Any) -> Fraction:
    """A stored standings value back to its exact fraction (shares are twelfths,
    adjustments halves; the snapshot keeps two decimals)."""
    return Fraction(str(value)).limit_denominator(12)


def held_events(league: League) -> tuple[list[HeldEvent], People]:
    """The league's events whose standings are stored and public, in the order they were
    played, each with its individual rows (one read of each event's stored rows)."""
    events = sorted(
        LeagueEvent.objects.filter(league=league).select_related("tournament"),
        key=lambda e: (event_day(e.tournament), e.tournament.created_at, e.tournament_id),
    )
    ids = [e.tournament_id for e in events]
    hidden = set(hiding_standings(tournaments=Tournament.objects.filter(pk__in=ids)))
    newest: dict[int, int] = {}
    for t_id, pk in (
        StandingsSnapshot.objects.filter(tournament_id__in=[i for i in ids if i not in hidden])
        .order_by("tournament_id", "-results_version")
        .values_list("tournament_id", "pk")
    ):
        newest.setdefault(t_id, pk)
    rows: dict[int, list[dict[str, Any]]] = {}
    for snapshot_id, data in (
        StandingsRow.objects.filter(snapshot_id__in=newest.values(), kind="individual")
        .order_by("snapshot_id", "position")
        .values_list("snapshot_id", "data")
    ):
        rows.setdefault(snapshot_id, []).append(data)
    registered: dict[tuple[int, int], int] = {
        (t_id, number): player_id
        for t_id, number, player_id in Registration.objects.filter(
            tournament_id__in=list(newest)
        ).values_list("tournament_id", "number", "player_id")
    }
    people = league_people(league=league, player_ids=set(registered.values()))
    held = []
    for e in events:
        event_rows = rows.get(newest.get(e.tournament_id, -1))
        if not event_rows:
            continue
        listed, seen = [], set()
        for row in event_rows:
            player_id = registered.get((e.tournament_id, row.get("number", -1)))
            if player_id is None or people.of(player_id) in seen:
                continue
            seen.add(people.of(player_id))
            listed.append({**row, "who": people.of(player_id)})
        held.append(HeldEvent(e, event_day(e.tournament), listed))
    return held, people


def _kop_row(row: Mapping[str, Any]) -> KopRow:
    return KopRow(
        player=row["who"],
        name="",
        rank=int(row.get("place") or str(row.get("rank", "0")).lstrip("=") or 0),
        tied=str(row.get("rank", "")).startswith("="),
        big_points=_points(row.get("big_points", 0)),
        small_points=_points(row.get("small_points", 0)),
        firsts=int(row.get("firsts", 0)),
        seconds=int(row.get("seconds", 0)),
        thirds=int(row.get("thirds", 0)),
        fourths=int(row.get("fourths", 0)),
        rounds_played=int(row.get("rounds", 0)),
        byes=int(row.get("byes", 0)),
        walkouts=int(row.get("walkouts", 0)),
        adjustment_big=Fraction(0),
        adjustment_small=Fraction(0),
        rounds=(),
    )


# A table's row: who, rank (None: not ranked), tied, big points (or points by place),
# small points, event wins, events counted.
type Ranked = tuple[int, int | None, bool, Fraction, Fraction, int, int]


@dataclass(frozen=True)
class Computed:
    """A league's tables after each held event, and each event's lines."""

    individual: list[list[Ranked]]
    teams: list[list[Ranked]]
    individual_lines: list[dict[int, dict[str, Any]]]
    team_lines: list[dict[int, dict[str, Any]]]


def league_compute(league: League, held: Sequence[HeldEvent], people: People) -> Computed:
    """The tables after each held event (pure rules over the events' stored rows)."""
    licences: dict[int | str, datetime.date] | None = (
        {who: day for who, day in people.licensed.items()} if league.licences_required else None
    )
    kops = [[_kop_row(r) for r in h.rows] for h in held]
    events = [
        rules.LeagueEvent(
            h.day, tuple(rules.EventRow(k.player, k.rank, k.big_points, k.small_points) for k in ks)
        )
        for h, ks in zip(held, kops, strict=True)
    ]
    counted = rules.counted_rows(events, licences)
    individual_lines: list[dict[int, dict[str, Any]]] = []
    for ks, rows in zip(kops, counted, strict=True):
        counts = {r.who for r in rows}
        individual_lines.append(
            {
                k.player: {
                    "rank": k.rank_label,
                    "big": str(k.big_points),
                    "small": str(k.small_points),
                    "counted": k.player in counts,
                }
                for k in ks
            }
        )
    individual: list[list[Ranked]] = []
    if league.counting == League.PLACEMENT:
        placings = [
            {int(who): place for who, place in p.items()}
            for p in rules.league_placings(events, licences)
        ]
        table_rules = SeriesRules(tuple(league.points_table) or (0,))
        for k in range(1, len(events) + 1):
            standings = series_standings(placings[:k], table_rules)
            individual.append(_placement_rows(standings, placings[:k]))
            for r in standings:
                value = r.points[k - 1]
                if value is not None and r.player in individual_lines[k - 1]:
                    individual_lines[k - 1][r.player]["points"] = str(value)
    else:
        individual = [_ranked(t) for t in rules.league_progress(events, licences)]
    team_events, team_lines = _team_events(league, held, kops, people)
    teams = [_ranked(t) for t in rules.league_progress(team_events)]
    return Computed(individual, teams, individual_lines, team_lines)


def _ranked(table: Sequence[rules.LeagueRow]) -> list[Ranked]:
    return [
        (int(r.who), r.rank, r.tied, r.big_points, r.small_points, r.event_wins, r.events)
        for r in table
    ]


def _placement_rows(
    standings: Sequence[Any], placings: Sequence[Mapping[Any, int]]
) -> list[Ranked]:
    """Counting ``placement``: the Grand Prix rows (total points; no small points),
    with their event wins (places 1, shared or not)."""
    ranks = [r.rank for r in standings]
    return [
        (
            r.player,
            r.rank,
            r.rank is not None and ranks.count(r.rank) > 1,
            r.total,
            Fraction(0),
            sum(1 for places in placings if places.get(r.player) == 1),
            r.played,
        )
        for r in standings
    ]


def _team_events(
    league: League, held: Sequence[HeldEvent], kops: Sequence[list[KopRow]], people: People
) -> tuple[list[rules.LeagueEvent], list[dict[int, dict[str, Any]]]]:
    """Each held event's team rows (§7: the line-up's best ``team_counting`` in the
    event's standings, ranked on the sums) and each team's line there."""
    teams = list(LeagueTeam.objects.filter(league=league).order_by("name", "pk"))
    roster_rows = list(
        RosterMember.objects.filter(league=league).values_list("team_id", "player_id")
    )
    lineup_rows = list(
        LineUp.objects.filter(team__league=league).values_list(
            "event_id", "team_id", "player_id", "substitute"
        )
    )
    more = league_people(
        league=league, player_ids=[r[1] for r in roster_rows] + [r[2] for r in lineup_rows]
    )
    roster: dict[int, list[int]] = {}
    for team_id, player_id in roster_rows:
        roster.setdefault(team_id, []).append(more.of(player_id))
    lineups: dict[tuple[int, int], dict[int, bool]] = {}
    for event_id, team_id, player_id, substitute in lineup_rows:
        lineups.setdefault((event_id, team_id), {})[more.of(player_id)] = substitute
    licences = people.licensed | more.licensed
    out_events, out_lines = [], []
    for h, individual in zip(held, kops, strict=True):
        present = {r.player for r in individual}
        line_ups = []
        for team in teams:
            members = lineups.get((h.event.pk, team.pk)) or dict.fromkeys(
                roster.get(team.pk, ()), False
            )
            if league.licences_required:
                members = {
                    p: s for p, s in members.items() if p in licences and licences[p] <= h.day
                }
            if present.intersection(members):
                line_ups.append((team, members))
        options = family_for(h.event.tournament.game).competition.options(h.event.tournament)
        ranked = team_standings(
            individual,
            [Team(str(team.pk), team.name, tuple(members)) for team, members in line_ups],
            league.team_counting,
            options.tie_breaks,
        )
        by_team = {str(team.pk): members for team, members in line_ups}
        lines = {}
        for row in ranked:
            members = by_team[row.team]
            lines[int(row.team)] = {
                "rank": row.rank_label,
                "big": str(row.big_points),
                "small": str(row.small_points),
                "members": [
                    {"who": p, "substitute": s, "counted": p in row.counted, "played": p in present}
                    for p, s in members.items()
                ],
            }
        out_lines.append(lines)
        out_events.append(
            rules.LeagueEvent(
                h.day,
                tuple(
                    rules.EventRow(int(r.team), r.rank, r.big_points, r.small_points)
                    for r in ranked
                ),
            )
        )
    return out_events, out_lines


@transaction.atomic
def league_recompute(*, league: League, tournament_id: int | None = None) -> None:
    """Recompute the league's tables; with ``tournament_id``, only those after that
    event and later ones are written (the earlier ones do not change)."""
    league = _locked(league)
    held, people = held_events(league)
    computed = league_compute(league, held, people)
    start = 0
    if tournament_id is not None:
        start = next((i for i, h in enumerate(held) if h.event.tournament_id == tournament_id), 0)
    LeagueTable.objects.filter(league=league, after_event__gt=start).delete()
    tables = LeagueTable.objects.bulk_create(
        LeagueTable(league=league, after_event=k + 1, event=held[k].event)
        for k in range(start, len(held))
    )
    rows = []
    for table, k in zip(tables, range(start, len(held)), strict=True):
        for kind, ranked, lines in (
            ("individual", computed.individual[k], computed.individual_lines[k]),
            ("team", computed.teams[k], computed.team_lines[k]),
        ):
            rows += [
                LeagueRow(
                    table=table,
                    kind=kind,
                    position=position,
                    who=who,
                    rank=place,
                    tied=tied,
                    big_points=str(big),
                    small_points=str(small),
                    event_wins=wins,
                    events=played,
                    line=lines.get(who),
                )
                for position, (who, place, tied, big, small, wins, played) in enumerate(ranked)
            ]
    LeagueRow.objects.bulk_create(rows, batch_size=2000)
    League.objects.filter(pk=league.pk).update(computed_at=timezone.now())
