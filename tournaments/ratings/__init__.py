"""Club ratings, player pages and series, by job: the update and the rebuild
(``update``), the leaderboards (``leaderboards``), a player's page with its rating chart
(``player``), Grand Prix series (``series``) and what a merge of register rows means to
them (``persons``); ``common`` has what they share. Every
public name is here too, so callers import ``tournaments.ratings`` whichever module
answers.

The rating model itself is pure (``tournaments.ranking.ratings``, where its vocabulary is
defined); what a family of games reads for it is in ``tournaments.families``; the
hand-written reads and writes of the update are in ``tournaments.sql``.

Settings: ``RATINGS_MODEL`` ("deal", the default, or "table") for Kop and Baśka;
``RATINGS_MIN_GAMES`` (a dict by game) for the leaderboards' default minimum. A change of
``RATINGS_MODEL`` takes effect with ``manage.py rebuild_ratings``.
"""

from __future__ import annotations

from tournaments.ratings.common import (
    RatingError,
    cause_label,
    change_label,
    club_evening_label,
    configured_model,
    default_min_games,
    rated_games,
    signed,
)
from tournaments.ratings.leaderboards import (
    leaderboard_csv_rows,
    rated_evenings,
    rating_leaderboard,
    rating_seasons,
    rating_status,
)
from tournaments.ratings.persons import (
    RATINGS_UPDATE_ROWS,
    merge_check,
    ratings_update_for_rows,
    row_counts,
    rows_changed,
)
from tournaments.ratings.player import player_profile, rating_chart, rating_history
from tournaments.ratings.series import (
    parse_points_table,
    series_create,
    series_table,
    series_update,
)
from tournaments.ratings.update import (
    RatingUpdate,
    hidden_tournaments,
    ratings_rebuild,
    ratings_update,
    ratings_update_for_tournament,
)

__all__ = [
    "RATINGS_UPDATE_ROWS",
    "RatingError",
    "RatingUpdate",
    "cause_label",
    "change_label",
    "club_evening_label",
    "configured_model",
    "default_min_games",
    "hidden_tournaments",
    "leaderboard_csv_rows",
    "merge_check",
    "parse_points_table",
    "player_profile",
    "rated_evenings",
    "rated_games",
    "rating_chart",
    "rating_history",
    "rating_leaderboard",
    "rating_seasons",
    "rating_status",
    "row_counts",
    "rows_changed",
    "ratings_rebuild",
    "ratings_update",
    "ratings_update_for_rows",
    "ratings_update_for_tournament",
    "series_create",
    "series_table",
    "series_update",
    "signed",
]
