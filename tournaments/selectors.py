"""Read-only queries for tournaments: rounds, progress, standings, meetings."""

from __future__ import annotations

import functools
from datetime import timedelta
from typing import Any

from django.core.paginator import EmptyPage
from django.db import connection
from django.db.models import F
from django.db.models.fields.json import KeyTransform
from django.utils import timezone
from django.utils.translation import gettext
from django_tables2 import RequestConfig
from django_tables2.data import TableData

from clubs.selectors import fold_name, names_alike
from ops.models import TaskOutbox
from scoring.games import game_for
from scoring.rows import prepared_cursor, reader, rows_with
from scoring.selectors import round_table_of
from tournaments.adapters import played_schedule
from tournaments.models import (
    Registration,
    Round,
    RoundTable,
    StandingsRow,
    StandingsSnapshot,
    Tournament,
)
from tournaments.seating import meetings_matrix
from tournaments.tables import (
    STANDINGS_TABLES,
    GroupStandingsTable,
    PlayerStandingsTable,
    RoundResultsTable,
)

# ----------------------------------------------------------------------------- tournaments


def next_round_ready(*, tournament: Tournament) -> bool:
    """The next round may be seated when every table of the last one is accepted."""
    last = tournament.rounds.order_by("-number").first()
    if last is None:
        return tournament.entries.exists()
    if last.number >= tournament.rounds_planned:
        return False
    return not last.tables.filter(accepted_at__isnull=True).exists()


def round_time_up(*, rnd: Round) -> bool:
    """The round had a time limit and it has passed."""
    minutes = rnd.tournament.round_minutes
    return bool(minutes) and timezone.now() >= rnd.created_at + timedelta(minutes=minutes or 0)


def table_ready(*, table: RoundTable, finished: bool) -> bool:
    """A table may be accepted by its players once it has played its planned deals
    (``finished`` from the game's progress) or its round's time is up (the profile's rule
    then closes an unfinished rubber); before that only a director accepts, with a reason."""
    return finished or round_time_up(rnd=table.round)


def round_tables(*, rnd: Round) -> list[dict[str, Any]]:
    tables = list(rnd.tables.select_related("session").prefetch_related("session__seats__player"))
    numbers = dict(rnd.tournament.entries.values_list("player_id", "number"))
    progress = game_for(rnd.tournament.game).results.progress([t.session for t in tables])
    out = []
    for t in tables:
        seats = sorted(t.session.seats.all(), key=lambda s: s.seat)
        out.append(
            {
                "table": t,
                "seats": [(s.seat, numbers.get(s.player_id), s.player) for s in seats],
                "deals": progress[t.session_id].deals,
                "planned": progress[t.session_id].planned,
                "finished": progress[t.session_id].finished,
            }
        )
    return out


def round_byes(*, rnd: Round) -> list[Registration]:
    return list(rnd.tournament.entries.filter(number__in=rnd.byes).select_related("player"))


def progress(*, tournament: Tournament) -> dict[str, Any]:
    rnd = tournament.rounds.order_by("-number").first()
    tables = round_tables(rnd=rnd) if rnd else []
    accepted = sum(1 for t in tables if t["table"].accepted_at)
    ends = None
    if rnd is not None and tournament.round_minutes:
        ends = rnd.created_at + timedelta(minutes=tournament.round_minutes)
    return {
        "round": rnd,
        "round_ends": ends,
        "tables": tables,
        "accepted": accepted,
        "all_accepted": bool(tables) and accepted == len(tables),
        "can_start_next": next_round_ready(tournament=tournament),
    }


def latest_snapshot(*, tournament: Tournament, with_data: bool = True) -> StandingsSnapshot | None:
    """The newest snapshot; without ``with_data`` its JSON is neither read nor decoded
    (2.4 MB at 4,000 players), only its version and time."""
    snapshots = tournament.snapshots.order_by("-results_version")
    return (snapshots if with_data else snapshots.defer("data")).first()


def tournament_finished(*, tournament: Tournament) -> bool:
    """The last planned round is seated and every table of the tournament accepted."""
    return tournament.rounds.filter(number__gte=tournament.rounds_planned).exists() and not (
        RoundTable.objects.filter(round__tournament=tournament, accepted_at__isnull=True).exists()
    )


def session_results_hidden(session: Any) -> bool:
    """``scoring.visibility`` checker: a table of a tournament that hides its standings
    hides its sheet, history and exports too until the tournament is finished."""
    table = round_table_of(session)
    if table is None:
        return False
    tournament = table.round.tournament
    return tournament.hide_standings and not tournament_finished(tournament=tournament)


def session_title(session: Any) -> str | None:
    """``scoring.models.title_register`` maker: a tournament table's title, built when shown
    (so it is in the reader's language; none is stored)."""
    table = round_table_of(session)
    if table is None:
        return None
    return gettext("%(tournament)s: round %(round)s, table %(table)s") % {
        "tournament": table.round.tournament.name,
        "round": table.round.number,
        "table": table.number,
    }


def standings_status(*, slug: str) -> dict[str, Any] | None:
    """What the standings page's status line shows, for its poll, in one small indexed
    read whatever the state: the tournament's results version, the newest snapshot's
    version and time (never its JSON) and whether a recompute waits in the outbox for
    the broker. None for an unknown tournament.

    Written as SQL: it answers every open standings page every few seconds, and building
    the same statement through the ORM's subqueries cost more than running it."""
    with prepared_cursor() as cursor:  # every open standings page asks every few seconds
        cursor.execute(_standings_status_sql(), [slug])
        row = cursor.fetchone()
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
            snapshot={"results_version": shown, "computed_at": _from_db(computed_at)},
            current=current,
            pending=not current,
        )
    # A recompute waiting for the broker is said only while the standings are behind.
    status["deferred"] = bool(deferred) and status["pending"]
    return status


@functools.cache
def _standings_status_sql() -> str:
    """``standings_status``' statement, written once."""
    q = connection.ops.quote_name
    tournaments, snapshots, outbox = (
        q(m._meta.db_table) for m in (Tournament, StandingsSnapshot, TaskOutbox)
    )
    return (
        f"SELECT t.id, t.results_version, s.results_version, s.computed_at, "  # noqa: S608
        f"EXISTS (SELECT 1 FROM {outbox} o WHERE o.tournament_id = t.id) "
        f"FROM {tournaments} t LEFT JOIN {snapshots} s ON s.tournament_id = t.id "
        f"AND s.results_version = (SELECT MAX(n.results_version) FROM {snapshots} n "
        "WHERE n.tournament_id = t.id) WHERE t.slug = %s"
    )


def _from_db(computed_at: Any) -> Any:
    """A snapshot's ``computed_at`` read by SQL as the ORM would give it (SQLite hands
    over text, PostgreSQL a datetime)."""
    return reader(StandingsSnapshot._meta.get_field("computed_at"))(computed_at)


def standings_view(
    *,
    tournament: Tournament,
    viewer_is_director: bool,
    with_data: bool = True,
    state: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The newest snapshot and who may see it, and whether a recompute waits in the
    outbox (``deferred``): one read (``_standings_state``), and a second for the JSON with
    ``with_data``; without it ``data`` is None and the snapshot's JSON is neither read nor
    decoded (2.4 MB at 4,000 players): read it with ``snapshot_data`` when it is needed."""
    if state is None:  # not read with the tournament (``standings_page_state``)
        state = _standings_state(tournament)
    snapshot: StandingsSnapshot | None = None
    if state["snapshot_id"] is not None:
        if with_data:
            snapshot = StandingsSnapshot.objects.get(pk=state["snapshot_id"])
        else:
            snapshot = StandingsSnapshot.from_db(
                StandingsSnapshot.objects.db,
                ["id", "tournament_id", "results_version", "computed_at"],
                [state["snapshot_id"], tournament.pk, state["shown"], state["computed_at"]],
            )
    finished = state["finished"]
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
        "deferred": state["deferred"],
    }


def _standings_state(tournament: Tournament) -> dict[str, Any]:
    """``_standings_states`` of a tournament already read (nothing stored for it if it
    was deleted meanwhile)."""
    found = _standings_states("t.id = %s", tournament.pk)
    return found[0][1] if found else _state(None, None, None, False, False, False)


def standings_page_state(*, slug: str) -> tuple[Tournament, dict[str, Any]] | None:
    """The tournament by its slug and its standings state (``_standings_states``), in one
    read: what the public standings page reads on every request. None if unknown."""
    found = _standings_states("t.slug = %s", slug, prepared=True)
    return found[0] if found else None


def _standings_states(
    where: str, key: Any, *, prepared: bool = False
) -> list[tuple[Tournament, dict[str, Any]]]:
    """In one SQL read, the tournament's row and: the newest snapshot's id, version and
    time, whether the tournament is finished (``tournament_finished``) and whether a task
    for it waits in the outbox. What every standings page asks before anything else."""
    columns, join = _standings_state_sql()
    found = rows_with(
        Tournament,
        columns,
        where,
        [key],
        join=join,
        prepared=prepared,
        defer=("seating_plan",),  # an imported plan, every round's tables: no page shows it
    )
    return [(tournament, _state(*more)) for tournament, more in found]


@functools.cache
def _standings_state_sql() -> tuple[tuple[str, ...], str]:
    """``_standings_states``' columns beside the tournament's and its join, written once."""
    q = connection.ops.quote_name
    snapshots, rounds, tables, outbox = (
        q(m._meta.db_table) for m in (StandingsSnapshot, Round, RoundTable, TaskOutbox)
    )
    return (
        (
            "s.id",
            "s.results_version",
            "s.computed_at",
            f"EXISTS (SELECT 1 FROM {rounds} r WHERE r.tournament_id = t.id "  # noqa: S608
            "AND r.number >= t.rounds_planned)",
            f"EXISTS (SELECT 1 FROM {tables} rt JOIN {rounds} r ON r.id = rt.round_id "  # noqa: S608
            "WHERE r.tournament_id = t.id AND rt.accepted_at IS NULL)",
            f"EXISTS (SELECT 1 FROM {outbox} o WHERE o.tournament_id = t.id)",  # noqa: S608
        ),
        f"LEFT JOIN {snapshots} s ON s.tournament_id = t.id AND s.results_version = "
        f"(SELECT MAX(n.results_version) FROM {snapshots} n WHERE n.tournament_id = t.id)",
    )


def _state(
    snapshot_id: int | None,
    shown: int | None,
    computed_at: Any,
    last_seated: bool,
    open_tables: bool,
    deferred: bool,
) -> dict[str, Any]:
    """A standings state from ``_standings_states``' values (as the database sends them)."""
    return {
        "snapshot_id": snapshot_id,
        "shown": shown,
        "computed_at": _from_db(computed_at) if snapshot_id is not None else None,
        "finished": bool(last_seated) and not open_tables,
        "deferred": bool(deferred),
    }


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
    dicts, so a game family's table (``STANDINGS_TABLES``) renders them as before."""

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


def standings_rows(*, snapshot: StandingsSnapshot, kind: str) -> Any:
    return StandingsRow.objects.filter(snapshot_id=snapshot.pk, kind=kind)


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
        table: Any = STANDINGS_TABLES[game_for(tournament.game).results.family]
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
) -> dict[str, Any]:
    """The standings tables from the snapshot's stored rows: the individual one a page
    at a time (``per_page``; None for every row, as printed), sorted by the database;
    the pairs and teams whole. ``page`` overrides the request's page (a jump to a
    player); ``highlight``: the start number whose row is marked."""
    table_cls = STANDINGS_TABLES[game_for(tournament.game).results.family]
    individual = table_cls(
        StandingsRowsData(standings_rows(snapshot=snapshot, kind="individual")), prefix="ind-"
    )
    individual.tournament_slug = tournament.slug
    individual.highlight = highlight
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
    for kind, rows in groups.items():
        table = GroupStandingsTable(rows, prefix=f"{kind}-")
        RequestConfig(request, paginate=False).configure(table)
        out[f"{kind}_table"] = table
    return out


ROUND_COLUMNS = ("table", "small_points", "big_points", "place")


def standings_csv_rows(*, tournament: Tournament, data: Any) -> list[list[Any]]:
    """The individual standings, one row a player: the snapshot's plain values, then per
    round (when the game has rounds of tables) the table, small and big points and place.

    A shared place is written "3=" (the page shows "=3"): a cell starting with "=" is a
    formula to a spreadsheet, and "3=" is how a results list in print writes a tie."""
    if not data:
        return [["no standings yet"]]
    rows = data["individual"]
    if not rows:
        return [["no standings yet"]]
    keys = [k for k, v in rows[0].items() if not isinstance(v, list | dict)]
    rounds = sorted({e["round"] for r in rows for e in r.get("by_round", [])})
    header = [*keys, *[f"round {n} {c}" for n in rounds for c in ROUND_COLUMNS]]
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


def player_rounds(*, tournament: Tournament, entry: Registration) -> list[dict[str, Any]]:
    """A player's tables, round by round, with their points there (by player id)."""
    rows = []
    tables = list(
        RoundTable.objects.filter(round__tournament=tournament, session__seats__player=entry.player)
        .select_related("round", "session")
        .prefetch_related("session__seats__player")
        .order_by("round__number")
    )
    results = game_for(tournament.game).results.seat_results([t.session_id for t in tables])
    for t in tables:
        mine = next(r for r in results.get(t.session_id, []) if r.player_id == entry.player_id)
        seat, small = mine.seat, mine.points
        others = [s.player.name for s in t.session.seats.all() if s.seat != seat]
        rows.append(
            {
                "round": t.round.number,
                "table": t.number,
                "seat": seat,
                "small_points": small,
                "opponents": others,
                "session": t.session,
                "accepted": t.accepted_at is not None,
            }
        )
    return rows


def meetings(*, tournament: Tournament) -> dict[str, Any]:
    """The who-met-whom matrix of every seated round (tournaments.seating.meetings_matrix)."""
    entries = {e.number: e for e in tournament.entries.select_related("player")}
    schedule = played_schedule(tournament)
    if schedule is None:
        return {"entries": list(entries.values()), "matrix": [], "repeats": 0}
    shown = [entries[n] for n in schedule.players if n in entries]
    return {
        "entries": shown,
        "matrix": list(zip(shown, meetings_matrix(schedule), strict=True)),
        "repeats": schedule.repeats,
    }


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


# ----------------------------------------------------------------------------- the hall

# Longest query the find page reads: a name or a start number, never a paragraph.
FIND_QUERY_MAX = 80
# With a field this small the find page lists every name to tap; a bigger one searches.
FIND_TAP_LIST_MAX = 80


def newest_round(*, tournament: Tournament) -> Round | None:
    return tournament.rounds.order_by("-number").first()


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
    and its accepted tables. One small read (SQL: the display polls it every few
    seconds), no snapshot JSON; None for an unknown tournament."""
    q = connection.ops.quote_name
    tournaments, snapshots, rounds, tables = (
        q(m._meta.db_table) for m in (Tournament, StandingsSnapshot, Round, RoundTable)
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT t.results_version, "  # noqa: S608
            f"(SELECT MAX(s.results_version) FROM {snapshots} s WHERE s.tournament_id = t.id), "
            f"r.number, (SELECT COUNT(*) FROM {tables} rt "
            "WHERE rt.round_id = r.id AND rt.accepted_at IS NOT NULL) "
            f"FROM {tournaments} t LEFT JOIN {rounds} r ON r.tournament_id = t.id "
            f"AND r.number = (SELECT MAX(m.number) FROM {rounds} m WHERE m.tournament_id = t.id) "
            "WHERE t.slug = %s",
            [slug],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    version, shown, newest, accepted = row
    return f"{version}-{shown}-{newest or 0}-{accepted}"


# How many accepted tables the display lists, newest first.
DISPLAY_ACCEPTED = 6


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
    if view["visible"] and view["data"]:
        table_cls = STANDINGS_TABLES[game_for(tournament.game).results.family]
        base = set(PlayerStandingsTable.base_columns)
        points = [k for k in table_cls.base_columns if k not in base][:2]
        columns = [(k, table_cls.base_columns[k].verbose_name) for k in points]
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
    }
