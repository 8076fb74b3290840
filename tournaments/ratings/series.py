"""Grand Prix series: placings over several tournaments summed by a points table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.utils.formats import number_format
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs.models import Club
from clubs.selectors import clubs_of, person_rows
from tournaments.models import Registration, Series, SeriesTournament, Tournament
from tournaments.ranking import ratings as core
from tournaments.ratings.common import RatingError, check_game, snapshot_rows


def parse_points_table(text: str) -> tuple[int, ...]:
    """ "25, 18, 15 12" -> (25, 18, 15, 12); raises ``RatingError`` in plain words."""
    parts = [p for p in text.replace(";", ",").replace(",", " ").split() if p]
    try:
        points = tuple(int(p) for p in parts)
    except ValueError as exc:
        raise RatingError(_("Points must be whole numbers, e.g. 25, 18, 15, 12.")) from exc
    try:
        core.SeriesRules(points)
    except core.RatingOptionError as exc:
        raise RatingError(_("Give the points for 1st, 2nd, ... place, none negative.")) from exc
    return points


def _check_series_tournaments(game: str, tournaments: Sequence[Tournament]) -> None:
    other = [t.name for t in tournaments if t.game != game]
    if other:
        raise RatingError(
            _("Not a tournament of this game: %(names)s.") % {"names": ", ".join(other)}
        )


@transaction.atomic
def series_create(
    *,
    name: str,
    game: str,
    points_table: Sequence[int],
    min_tournaments: int = 1,
    drop_worst: bool = False,
    tournaments: Sequence[Tournament] = (),
    club: Club | None = None,
    created_by: Any = None,
) -> Series:
    check_game(game)
    core.SeriesRules(tuple(points_table), min_tournaments, drop_worst)
    _check_series_tournaments(game, tournaments)
    base = slugify(name)[:40] or "series"
    slug, n = base, 1
    while Series.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    series = Series.objects.create(
        name=" ".join(name.split()),
        slug=slug,
        game=game,
        points_table=list(points_table),
        min_tournaments=min_tournaments,
        drop_worst=drop_worst,
        club=club,
        created_by=created_by,
    )
    SeriesTournament.objects.bulk_create(
        SeriesTournament(series=series, tournament=t) for t in tournaments
    )
    return series


@transaction.atomic
def series_update(
    *,
    series: Series,
    name: str,
    points_table: Sequence[int],
    min_tournaments: int,
    drop_worst: bool,
    tournaments: Sequence[Tournament],
) -> Series:
    core.SeriesRules(tuple(points_table), min_tournaments, drop_worst)
    _check_series_tournaments(series.game, tournaments)
    series.name = " ".join(name.split())
    series.points_table = list(points_table)
    series.min_tournaments = min_tournaments
    series.drop_worst = drop_worst
    series.save()
    wanted = {t.pk for t in tournaments}
    SeriesTournament.objects.filter(series=series).exclude(tournament_id__in=wanted).delete()
    have = set(
        SeriesTournament.objects.filter(series=series).values_list("tournament_id", flat=True)
    )
    SeriesTournament.objects.bulk_create(
        SeriesTournament(series=series, tournament=t) for t in tournaments if t.pk not in have
    )
    return series


def _points(value: Fraction | None) -> str:
    if value is None:
        return "–"
    return number_format(float(value), 0 if value.denominator == 1 else 1)


def series_table(*, series: Series) -> dict[str, Any]:
    """Standings of a series from each tournament's latest standings snapshot
    (``data["individual"]``: start number and rank), start numbers mapped to persons (one
    line for a person who played legs under several clubs' register rows)."""
    legs = list(
        SeriesTournament.objects.filter(series=series)
        .select_related("tournament")
        .order_by("tournament__created_at", "tournament_id")
    )
    ranks = snapshot_rows([leg.tournament_id for leg in legs])
    held = [leg.tournament for leg in legs if ranks.get(leg.tournament_id)]
    numbers: dict[tuple[int, int], int] = {
        (t_id, number): person_id
        for t_id, number, person_id in Registration.objects.filter(
            tournament_id__in=[t.pk for t in held]
        ).values_list("tournament_id", "number", "player__person_id")
    }
    placings = []
    for t in held:
        places: dict[int, int] = {}
        for number, row in ranks[t.pk].items():
            player_id = numbers.get((t.pk, number))
            place = _row_place(row)
            if player_id is not None and place is not None:
                # Players tied at a place share the points of the places they cover
                # (kop.md §8.2: two tied for 1st get (5 + 3) / 2): series_standings.
                places[player_id] = place
        placings.append(places)
    rules = core.SeriesRules(
        tuple(series.points_table) or (0,), series.min_tournaments, series.drop_worst
    )
    standings = core.series_standings(placings, rules)
    registers = person_rows(r.player for r in standings)
    rows = []
    for r in standings:
        first = registers[r.player][0]
        line: dict[str, Any] = {
            "rank": r.rank,
            "player_id": first.pk,
            "name": first.name,
            "club": clubs_of(registers[r.player]),
            "total": float(r.total),
            "total_label": _points(r.total),
            "played": r.played,
            "qualified": r.rank is not None,
        }
        for i, value in enumerate(r.points):
            label = _points(value)
            line[f"t{i}"] = f"({label})" if i == r.dropped else label
        rows.append(line)
    return {
        "rows": rows,
        "held": held,
        "pending": [leg.tournament for leg in legs if not ranks.get(leg.tournament_id)],
    }


def _row_place(row: Mapping[str, Any]) -> int | None:
    """A standings row's numeric place: tied players share the first place they cover
    (the label "=8" is place 8). Snapshots older than the ``place`` key give the label."""
    place = row.get("place")
    if isinstance(place, int) and not isinstance(place, bool):
        return place
    try:
        return int(str(row.get("rank")).lstrip("="))
    except ValueError:
        return None  # not ranked (e.g. withdrawn before playing)
