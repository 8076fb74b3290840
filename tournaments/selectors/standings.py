"""Read-only queries for the standings: their state (what every standings page reads
first, and its poll), who may see them, the stored rows a page shows, searches, the CSV
and a round's results.

The state read and the poll are written out in ``tournaments.sql`` (every reader's request
and every open page's poll send them); the rest is the ORM.
"""

from __future__ import annotations

from typing import Any

from django.core.paginator import EmptyPage
from django.db.models import Exists, F, OuterRef, QuerySet
from django.db.models.fields.json import KeyTransform
from django.utils.translation import gettext as _
from django_tables2 import RequestConfig
from django_tables2.data import TableData

from clubs.selectors import fold_name
from config.csvexport import heading
from tournaments.families import family_for
from tournaments.models import Round, RoundTable, StandingsRow, StandingsSnapshot, Tournament
from tournaments.sql import StandingsState, standings_states, standings_status_row
from tournaments.tables import GroupStandingsTable, RoundResultsTable

# Longest query a search reads (the standings search, the hall's find page): a name or a
# start number, never a paragraph.
FIND_QUERY_MAX = 80


def latest_snapshot(*, tournament: Tournament, with_data: bool = True) -> StandingsSnapshot | None:
    """The newest snapshot; without ``with_data`` its JSON is neither read nor decoded
    (2.4 MB at 4,000 players), only its version and time."""
    snapshots = tournament.snapshots.order_by("-results_version")
    return (snapshots if with_data else snapshots.defer("data")).first()


def standings_status(*, slug: str) -> dict[str, Any] | None:
    """What the standings page's status line shows, for its poll, in one small indexed
    read whatever the state (``tournaments.sql.standings_status_row``): the tournament's
    results version, the newest snapshot's version and time (never its JSON) and whether a
    recompute waits in the outbox for the broker. None for an unknown tournament."""
    row = standings_status_row(slug)
    if row is None:
        return None
    pk, version, shown, computed_at, deferred = row
    status: dict[str, Any] = {
        "tournament": {"slug": slug, "id": pk},
        "version": version,
        "snapshot": None,
        "pending": True,
        "current": False,
    }
    if shown is not None:
        current = shown >= version
        status.update(
            snapshot={"results_version": shown, "computed_at": computed_at},
            current=current,
            pending=not current,
        )
    # A recompute waiting for the broker is said only while the standings are behind.
    status["deferred"] = deferred and status["pending"]
    return status


def standings_view(
    *,
    tournament: Tournament,
    viewer_is_director: bool,
    with_data: bool = True,
    state: StandingsState | None = None,
) -> dict[str, Any]:
    """The newest snapshot and who may see it, and whether a recompute waits in the
    outbox (``deferred``): one read (``standings_state``), and a second for the JSON with
    ``with_data``; without it ``data`` is None and the snapshot's JSON is neither read nor
    decoded (2.4 MB at 4,000 players): read it with ``snapshot_data`` when it is needed."""
    if state is None:  # not read with the tournament (``standings_page_state``)
        state = standings_state(tournament)
    snapshot: StandingsSnapshot | None = None
    if state.snapshot_id is not None:
        if with_data:
            snapshot = StandingsSnapshot.objects.get(pk=state.snapshot_id)
        else:
            snapshot = StandingsSnapshot.from_db(
                StandingsSnapshot.objects.db,
                ["id", "tournament_id", "results_version", "computed_at"],
                [state.snapshot_id, tournament.pk, state.shown, state.computed_at],
            )
    finished = state.finished
    visible = viewer_is_director or not tournament.hide_standings or finished
    pending = snapshot is None or snapshot.results_version < tournament.results_version
    return {
        "snapshot": snapshot,
        "data": snapshot.data if snapshot and with_data else None,
        "current": not pending,
        "pending": pending,
        "visible": visible,
        "hidden_for_public": tournament.hide_standings and not finished,
        "finished": finished,
        "deferred": state.deferred,
    }


def standings_state(tournament: Tournament) -> StandingsState:
    """A tournament's standings state (``tournaments.sql.standings_states``): the newest
    snapshot's id, version and time, whether the tournament is finished (its last round
    seated and every table accepted) and whether a task for it waits in the outbox
    (nothing stored if it was deleted meanwhile)."""
    found = standings_states("t.id = %s", tournament.pk)
    return found[0][1] if found else StandingsState(None, None, None, False, False, False)


def standings_page_state(*, slug: str) -> tuple[Tournament, StandingsState] | None:
    """The tournament by its slug and its standings state, in one read: what the public
    standings page reads on every request. None if unknown."""
    found = standings_states("t.slug = %s", slug, prepared=True)
    return found[0] if found else None


def hiding_standings(*, tournaments: QuerySet[Tournament]) -> list[int]:
    """Of ``tournaments``, the ones whose standings the public may not see yet: they hide
    them until the last round is finished (``standings_view``), and it is not. One read,
    however many tournaments."""
    last_seated = Exists(
        Round.objects.filter(tournament=OuterRef("pk"), number__gte=OuterRef("rounds_planned"))
    )
    open_tables = Exists(
        RoundTable.objects.filter(round__tournament=OuterRef("pk"), accepted_at__isnull=True)
    )
    return list(
        tournaments.filter(hide_standings=True)
        .filter(~last_seated | open_tables)
        .values_list("pk", flat=True)
    )


def snapshot_data(*, snapshot: StandingsSnapshot) -> Any:
    """A snapshot's JSON (read now if the snapshot was read without it)."""
    return StandingsSnapshot.objects.values_list("data", flat=True).get(pk=snapshot.pk)


# Rows on one page of the individual standings (4,000 players: 80 pages).
STANDINGS_PAGE_SIZE = 50
# How many players a standings search lists (a name shared by more: type more of it).
STANDINGS_SEARCH_MAX = 20


class StandingsRowsData(TableData):
    """A django-tables2 data source over a snapshot's stored rows of one kind: sorted by
    the database, counted by the database, and only the page shown is read (``len`` is
    one COUNT, a slice one SELECT of that page's rows). The rows are the snapshot's own
    dicts, so a family's table (``tournaments.families.Family.table``) renders them as
    before."""

    # Columns sorted by a stored field rather than by the row's JSON.
    FIELDS = {"rank": "position", "number": "number", "name": "folded", "group": "folded"}
    data: Any  # the rows' QuerySet, in the order asked

    def __init__(self, rows: Any) -> None:
        super().__init__(rows.order_by("position"))
        self._length: int | None = None

    def __len__(self) -> int:
        if self._length is None:
            self._length = self.data.count()
        return self._length

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, slice):
            return list(self.data.values_list("data", flat=True)[key])
        return self.data.values_list("data", flat=True)[key]

    def __iter__(self) -> Any:
        return iter(self.data.values_list("data", flat=True))

    def order_by(self, aliases: Any) -> None:
        terms: list[Any] = []
        for alias in aliases:
            name = alias.lstrip("-")
            field = self.FIELDS.get(name)
            expression = F(field) if field else KeyTransform(name, "data")
            terms.append(expression.desc() if alias.startswith("-") else expression.asc())
        self.data = self.data.order_by(*terms, "position")


def standings_rows(*, snapshot: StandingsSnapshot, kind: str | None) -> Any:
    """A snapshot's stored rows of one kind (None: of every kind)."""
    rows = StandingsRow.objects.filter(snapshot_id=snapshot.pk)
    return rows if kind is None else rows.filter(kind=kind)


def standings_search(*, snapshot: StandingsSnapshot, query: str) -> list[dict[str, Any]]:
    """The players a standings search names, best placed first: a start number ("12",
    "#12") names one, else each word of the folded query is looked up in the folded names
    ("Lukasz" finds "Łukasz"). One read of at most ``STANDINGS_SEARCH_MAX`` rows."""
    query = " ".join(query.split())[:FIND_QUERY_MAX]
    digits = query.lstrip("#").strip()
    rows = standings_rows(snapshot=snapshot, kind="individual")
    if digits.isdigit() and len(digits) <= 6:
        rows = rows.filter(number=int(digits))
    elif query:
        # Every word of the query, in any order ("szczepanska 111" finds
        # "Małgorzata Wiśniewska-Szczepańska 111").
        for word in fold_name(query).split():
            rows = rows.filter(folded__contains=word)
    else:
        return []
    return list(rows.order_by("position").values_list("data", flat=True)[:STANDINGS_SEARCH_MAX])


def standings_page_of(*, snapshot: StandingsSnapshot, number: int, per_page: int) -> int | None:
    """The page (1-based, in place order) holding start number ``number``; None if that
    player has no row. One indexed read."""
    position = (
        standings_rows(snapshot=snapshot, kind="individual")
        .filter(number=number)
        .values_list("position", flat=True)
        .first()
    )
    return None if position is None else position // per_page + 1


def standings_sortable(tournament: Tournament, param: str) -> set[str]:
    """The columns a standings table (named by its sorting parameter: "ind-sort" for the
    individual one, else the pairs' or teams') may be sorted by."""
    if param == "ind-sort":
        table: Any = family_for(tournament.game).table
    else:
        table = GroupStandingsTable
    return {name for name, column in table.base_columns.items() if column.orderable is not False}


def standings_tables(
    *,
    tournament: Tournament,
    snapshot: StandingsSnapshot,
    request: Any,
    per_page: int | None = STANDINGS_PAGE_SIZE,
    page: int | None = None,
    highlight: int | None = None,
    withdrawn: dict[int, int] | None = None,
) -> dict[str, Any]:
    """The standings tables from the snapshot's stored rows: the individual one a page
    at a time (``per_page``; None for every row, as printed), sorted by the database;
    the pairs and teams whole. ``page`` overrides the request's page (a jump to a
    player); ``highlight``: the start number whose row is marked; ``withdrawn``: start
    number -> the round after which that player withdrew (marked by his name)."""
    table_cls = family_for(tournament.game).table
    individual = table_cls(
        StandingsRowsData(standings_rows(snapshot=snapshot, kind="individual")), prefix="ind-"
    )
    individual.tournament_slug = tournament.slug
    individual.highlight = highlight
    individual.withdrawn = withdrawn or {}
    RequestConfig(request, paginate=False).configure(individual)
    if per_page:
        asked = request.GET.get(individual.prefixed_page_field, "")
        number = page or (int(asked) if asked.isdigit() and len(asked) < 7 else 1)
        try:
            individual.paginate(per_page=per_page, page=number)
        except EmptyPage:
            individual.paginate(per_page=per_page, page=individual.paginator.num_pages)
    out: dict[str, Any] = {"individual_table": individual}
    groups: dict[str, list[Any]] = {}
    for kind, data in (
        StandingsRow.objects.filter(snapshot_id=snapshot.pk, kind__in=("pairs", "teams"))
        .order_by("kind", "position")
        .values_list("kind", "data")
    ):
        groups.setdefault(kind, []).append(data)
    extra = competition_parts(snapshot=snapshot)
    counted_of = extra.pop("counted")
    counted = [n for numbers in counted_of.values() for n in numbers]
    names = (
        dict(tournament.entries.filter(number__in=counted).values_list("number", "player__name"))
        if counted
        else {}
    )
    for kind, rows in groups.items():
        if kind == "teams" and names:
            rows = [
                {
                    **row,
                    "counted_names": ", ".join(
                        names.get(n, "?") for n in counted_of.get(row.get("group"), [])
                    ),
                }
                for row in rows
            ]
        exclude = () if kind == "teams" and names else ("counted_names",)
        table = GroupStandingsTable(rows, prefix=f"{kind}-", exclude=exclude)
        RequestConfig(request, paginate=False).configure(table)
        out[f"{kind}_table"] = table
    out.update(extra)
    return out


def competition_parts(*, snapshot: StandingsSnapshot) -> dict[str, Any]:
    """The parts of the snapshot's document beside its rows, in one read of those keys
    alone: each class's standings, the teams left out (their size breaks the limits), the
    adjustments with their reasons, and the teams' counted members."""
    found = (
        StandingsSnapshot.objects.filter(pk=snapshot.pk)
        .order_by()
        .values_list(
            "data__classes",
            "data__teams_left_out",
            "data__adjustments",
            "data__competition__team_size_min",
            "data__competition__team_size_max",
            "data__competition__team_counting",
            "data__teams",
        )
        .first()
    )
    classes, left_out, adjustments, size_min, size_max, counting, teams = found or (None,) * 7
    return {
        # Each team's counted members (start numbers), by the team's name; none when
        # every member counts (nothing to mark).
        "counted": {
            t["group"]: t["counted"] for t in teams or [] if "counted" in t and counting != "all"
        },
        "team_sizes": (size_min, size_max),
        "class_tables": classes or [],
        "teams_left_out": left_out or [],
        "adjustments": adjustments or [],
    }


ROUND_COLUMNS = ("table", "small_points", "big_points", "place")


def standings_csv_rows(*, tournament: Tournament, data: Any) -> list[list[Any]]:
    """The individual standings, one row a player: the snapshot's plain values, then per
    round (when the game has rounds of tables) the table, small and big points and place.

    A shared place is written "3=" (the page shows "=3"): a cell starting with "=" is a
    formula to a spreadsheet, and "3=" is how a results list in print writes a tie."""
    if not data or not data["individual"]:
        return [[_("No standings yet.")]]
    rows = data["individual"]
    keys = [k for k, v in rows[0].items() if not isinstance(v, list | dict)]
    rounds = sorted({e["round"] for r in rows for e in r.get("by_round", [])})
    header = [
        *[heading(k) for k in keys],
        *[
            heading(
                f"round {n} {c}",
                phrase=_("Round %(n)s: %(what)s"),
                n=n,
                what="table_place" if c == "place" else c,
            )
            for n in rounds
            for c in ROUND_COLUMNS
        ],
    ]
    out: list[list[Any]] = [header]
    for row in rows:
        by_round = {e["round"]: e for e in row.get("by_round", [])}
        cells = [csv_rank(row[k]) if k == "rank" else row[k] for k in keys]
        for n in rounds:
            entry = by_round.get(n, {})
            cells += ["" if entry.get(c) is None else entry[c] for c in ROUND_COLUMNS]
        out.append(cells)
    return out


def csv_rank(label: Any) -> Any:
    """A rank label for a CSV cell: "=3" (tied third) becomes "3="."""
    text = str(label)
    return f"{text[1:]}=" if text.startswith("=") else label


def round_results_table(
    *, tournament: Tournament, data: Any, round_number: int, request: Any
) -> Any:
    """The round's accepted results from the standings snapshot, as a sortable table, in
    the order of the tables and the places at each (table 2 before table 10; a player
    without a table, "–", after them). None when the game's standings have no
    round-by-round entries (Vint sessions)."""
    individual = (data or {}).get("individual", [])
    if not any("by_round" in row for row in individual):
        return None
    found = [
        (entry, row)
        for row in individual
        for entry in row.get("by_round", [])
        if entry["round"] == round_number
    ]
    found.sort(
        key=lambda pair: tuple((pair[0][k] is None, pair[0][k] or 0) for k in ("table", "place"))
    )
    rows = [
        {
            **entry,
            "number": row["number"],
            "name": row["name"],
            "table": entry["table"] or "–",
            "place": entry["place"] or "–",
        }
        for entry, row in found
    ]
    table = RoundResultsTable(rows, prefix="round-")
    table.tournament_slug = tournament.slug
    RequestConfig(request, paginate=False).configure(table)
    return table
