"""What a change of person means here (``clubs.signals``): a merge must not make one
person sit twice at a table, and the ratings follow the rows that changed person.

* ``merge_check`` answers ``person_merge_check``: the rows of the two persons must not
  have sat at one table session, nor be entered in one tournament (its next round could
  seat them together).
* ``rows_changed`` answers ``person_rows_changed``: after the transaction commits, the
  ratings of every game are rated again from the first rated game one of the rows played
  (``ratings_update(rows=...)``; earlier ratings cannot change).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import Sum
from django.utils.translation import gettext as _

from clubs.models import Player
from ops.outbox import enqueue_on_commit
from scoring.models import TableSeat, TableSession
from tournaments.models import RatingState, Registration
from tournaments.ratings.common import rated_games
from tournaments.ratings.update import ratings_update

# The Celery task a merge or split enqueues (``tournaments.tasks`` registers it).
RATINGS_UPDATE_ROWS = "tournaments.tasks.ratings_update_rows"


def merge_check(*, keep_rows: Sequence[int], other_rows: Sequence[int], **kwargs: Any) -> str:
    """Why the persons of ``keep_rows`` and ``other_rows`` cannot be one ("" if they can)."""
    mine = TableSeat.objects.filter(player_id__in=keep_rows).values("session_id")
    shared = TableSession.objects.filter(pk__in=mine, seats__player_id__in=other_rows).first()
    if shared is not None:
        return _(
            "These two sat at one table (%(table)s): a person does not sit twice at a table."
        ) % {"table": str(shared)}
    entered = Registration.objects.filter(player_id__in=keep_rows).values("tournament_id")
    both = (
        Registration.objects.filter(tournament_id__in=entered, player_id__in=other_rows)
        .select_related("tournament")
        .first()
    )
    if both is not None:
        return _(
            "These two are entered in one tournament (%(tournament)s): a person does not sit twice at a table. Withdraw one entry first."  # noqa: E501
        ) % {"tournament": both.tournament.name}
    return ""


def rows_changed(*, rows: Sequence[int], **kwargs: Any) -> None:
    """The rows changed person: rate again from their first game, once committed."""
    enqueue_on_commit(RATINGS_UPDATE_ROWS, sorted(rows))


def ratings_update_for_rows(*, rows: Sequence[int]) -> None:
    """What the task runs: each game's ratings from the first source one of ``rows``
    sat at (and whatever else changed meanwhile); idempotent."""
    for game in rated_games():
        ratings_update(game=game, rows=rows)


def row_counts(*, player: Player) -> dict[str, int]:
    """What a register row has played (the merge page shows both rows' counts): its table
    sessions and tournament entries, and the rated games of its person (every row)."""
    rated = RatingState.objects.filter(person_id=player.person_id).aggregate(n=Sum("games"))
    return {
        "sessions": TableSeat.objects.filter(player=player).count(),
        "entries": Registration.objects.filter(player=player).count(),
        "rated_games": rated["n"] or 0,
    }
