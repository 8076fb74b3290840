"""What the ratings' modules share: the games rated, their family's strategy and
settings, how a rating change names its cause, and the standings that player pages and
series read."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.formats import date_format, number_format
from django.utils.translation import gettext as _

from scoring.models import TableSession
from tournaments.families import RatingFamily, family_for, games
from tournaments.models import RatingSource, StandingsSnapshot, Tournament
from tournaments.selectors import hiding_standings


class RatingError(Exception):
    """A request about ratings or series that cannot be done (said in plain words)."""


def rated_games() -> list[str]:
    """Every game of the registry, in its order (each is rated on its own)."""
    return [code for code, _label in games()]


def check_game(game: str) -> None:
    """``RatingError`` unless ``game`` is a game."""
    codes = rated_games()
    if game not in codes:
        raise RatingError(f"{game!r} is not a game ({', '.join(codes)})")


def family_of(game: str) -> RatingFamily:
    """The ratings strategy of ``game``'s family (``RatingError`` for an unknown game)."""
    check_game(game)
    return family_for(game).ratings


def configured_model(game: str) -> str:
    return family_of(game).configured_model()


def default_min_games(game: str) -> int:
    configured = getattr(settings, "RATINGS_MIN_GAMES", {}) or {}
    if game in configured:
        return int(configured[game])
    return family_of(game).min_games


# ------------------------------------------------------------------------ a change's cause

# The rows a rating change's cause is named from (``select_related`` from an event).
CAUSE = "source__table__round__tournament"
SESSION = "source__session"


def cause_label(source: RatingSource) -> str:
    """What a rating change came from: a tournament's table, or a club evening."""
    table = source.table
    if table is None:
        return club_evening_label(source.session)
    return _("%(tournament)s round %(round)s table %(table)s") % {
        "tournament": table.round.tournament.name,
        "round": table.round.number,
        "table": table.number,
    }


def club_evening_label(session: TableSession) -> str:
    return _("club evening %(date)s, %(title)s") % {
        "date": date_format(timezone.localtime(session.accepted_at or session.created_at)),
        "title": str(session),
    }


def signed(value: float, digits: int = 1) -> str:
    """+1.8 / −0.4 (a real minus sign), in the current language's number format."""
    text = number_format(abs(value), digits)
    if round(value, digits) == 0:
        return text
    return ("+" if value > 0 else "−") + text


def change_label(delta: float, source: RatingSource) -> str:
    return _("%(change)s after %(cause)s") % {
        "change": signed(delta),
        "cause": cause_label(source),
    }


# ------------------------------------------------------------------ standings read back


def snapshot_rows(tournament_ids: Sequence[int]) -> dict[int, dict[int, dict[str, Any]]]:
    """Tournament -> start number -> individual standings row, from each tournament's
    latest standings (none for a tournament that still hides its standings)."""
    hidden = set(hiding_standings(tournaments=Tournament.objects.filter(pk__in=tournament_ids)))
    out: dict[int, dict[int, dict[str, Any]]] = {}
    latest: dict[int, int] = {}  # tournament -> its newest snapshot (the only JSON read)
    for t_id, pk in (
        StandingsSnapshot.objects.filter(
            tournament_id__in=[t for t in tournament_ids if t not in hidden]
        )
        .order_by("tournament_id", "-results_version")
        .values_list("tournament_id", "pk")
    ):
        latest.setdefault(t_id, pk)
    for t_id, data in StandingsSnapshot.objects.filter(pk__in=latest.values()).values_list(
        "tournament_id", "data"
    ):
        rows = (data or {}).get("individual") or []
        out[t_id] = {int(r["number"]): r for r in rows if "number" in r}
    return out
