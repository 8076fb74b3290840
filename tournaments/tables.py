"""django-tables2 tables for standings and results (rendered by templates/tables/htmx.html)."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

import django_tables2 as tables
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


class FastTable(tables.Table):
    """Renders its body in Python: a 400-row standings table in milliseconds instead of
    django-tables2's per-cell machinery (templates/tables/htmx.html uses ``tbody_html``).
    Its rows are plain dicts keyed by column name; a column may offer ``html(record)``."""

    def tbody_html(self) -> SafeString:
        columns = [
            (c.name, getattr(c.column, "html", None), c.attrs["td"].as_html()) for c in self.columns
        ]
        # ``highlight``: the start number whose row is marked (a standings search's find).
        highlight = getattr(self, "highlight", None)
        out = []
        for row in self.paginated_rows:
            record = row.record
            cells = []
            for name, html, attrs in columns:
                value = html(record, self) if html else _cell(record.get(name, ""))
                cells.append(f"<td {attrs}>{value}</td>" if attrs else f"<td>{value}</td>")
            mark = highlight is not None and record.get("number") == highlight
            tr = '<tr class="found" id="standings-found">' if mark else "<tr>"
            out.append(tr + "".join(cells) + "</tr>")
        return SafeString("".join(out))

    # Only the sorting links in the head are boosted; links in the rows lead to other pages.
    attrs = {"class": "grid", "tbody": {"hx-boost": "false"}}


def _cell(value: Any) -> str:
    """A plain cell's text: a fraction written the reader's way ("2,5" in Polish, Russian
    and Estonian), the rest as it is."""
    if isinstance(value, float | Decimal):
        return number_format(value)
    return conditional_escape(value)


class PlayerLinkColumn(tables.Column):
    """The player's name linking to their results; the URL prefix is built once per table."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(verbose_name=_("Player"), order_by=("name",), **kwargs)

    def html(self, record: dict[str, object], table: tables.Table) -> str:
        prefix = getattr(table, "_player_url", None)
        if prefix is None:
            prefix = reverse("tournaments:player_results", args=[table.tournament_slug, 0])[:-2]
            table._player_url = prefix
        link = format_html('<a href="{}{}/">{}</a>', prefix, record["number"], record["name"])
        if record.get("walkouts"):
            link = format_html(
                '{} <small class="walked-out">({})</small>', link, walkout_label(record["walkouts"])
            )
        after = getattr(table, "withdrawn", {}).get(record["number"])
        if after is None:
            return link
        return format_html('{} <small class="withdrawn">({})</small>', link, withdrawn_label(after))

    def render(self, value: str, record: dict[str, object], table: tables.Table) -> str:
        return self.html(record, table)


def walkout_label(count: Any) -> str:
    """A mark by the name of a player who walked out of a table (how often, if more than once)."""
    if count == 1:
        return gettext("walked out")
    return gettext("walked out %(n)s times") % {"n": count}


def withdrawn_label(after: int) -> str:
    """A withdrawn player's mark: after which round he withdrew."""
    if after == 0:
        return gettext("withdrew before round 1")
    return gettext("withdrew after round %(round)s") % {"round": after}


def num_column(label: StrOrPromise, *, wide_only: bool = False, **kwargs: Any) -> tables.Column:
    """A right-aligned number column; ``wide_only``: hidden on a phone (static/css/app.css),
    so the columns that decide the places fit without a sideways scroll."""
    kind = "num wide-only" if wide_only else "num"
    return tables.Column(
        verbose_name=label, attrs={"td": {"class": kind}, "th": {"class": kind}}, **kwargs
    )


class PlayerStandingsTable(FastTable):
    """What every game's individual standings show first: place, start number, player.
    Each family's table adds its own point columns (``tournaments.families``: its
    ``Family.table``)."""

    rank = num_column(_("Place"), order_by=("place",))
    number = num_column(_("No."), wide_only=True)
    name = PlayerLinkColumn()

    class Meta:
        orderable = True
        attrs = {"class": "grid standings", "tbody": {"hx-boost": "false"}}


# Names wrap between their words only ("Kościan A", never "Kości" over "an A").
_WORDS = {"td": {"class": "words"}}


class GroupStandingsTable(FastTable):
    rank = num_column(_("Place"), order_by=("place",))
    group = tables.Column(verbose_name=_("Name"), attrs=_WORDS)
    members = tables.Column(verbose_name=_("Players"), orderable=False, attrs=_WORDS)
    big_points = num_column(_("Big points"))
    small_points = num_column(_("Small points"))
    # A team's counted members (its best N), when its players do not all count.
    counted_names = tables.Column(verbose_name=_("Counted"), orderable=False, attrs=_WORDS)

    class Meta:
        orderable = True
        attrs = {"class": "grid standings", "tbody": {"hx-boost": "false"}}


class RoundResultsTable(FastTable):
    """One round's results: every player's table, place, small and big points. On a phone
    without the place at the table and the start number: the rows come in that order
    within each table, and the big points say the place."""

    table = num_column(_("Table"))
    place = num_column(_("Place at the table"), wide_only=True)
    number = num_column(_("No."), wide_only=True)
    name = PlayerLinkColumn()
    small_points = num_column(_("Small points"))
    big_points = num_column(_("Big points"))

    class Meta:
        orderable = True
        attrs = {"class": "grid", "tbody": {"hx-boost": "false"}}


_OUT = '<a hx-boost="false" href="'
# Greek letters keep their case: the grid's headers are upper-cased (μ would read M).
_GREEK = {"td": {"class": "num"}, "th": {"class": "num", "style": "text-transform: none"}}
_GREEK_WIDE = {
    "td": {"class": "num wide-only"},
    "th": {"class": "num wide-only", "style": "text-transform: none"},
}
_WIDE = {"td": {"class": "wide-only"}, "th": {"class": "wide-only"}}


class RatingTable(tables.Table):
    """A leaderboard: rows from ``tournaments.ratings.leaderboards.rating_leaderboard``. On
    a phone: place, player, rating and games (club, μ, σ and the last change on wider
    screens)."""

    rank = num_column(_("Place"), order_by=("place",))
    name = tables.TemplateColumn(
        _OUT + "{% url 'tournaments:player_page' record.player_id %}\">{{ record.name }}</a>",
        verbose_name=_("Player"),
        order_by=("name",),
    )
    club = tables.Column(verbose_name=_("Club"), attrs=_WIDE)
    rating = tables.Column(verbose_name=_("Rating (μ − 3σ)"), attrs=_GREEK)
    mu = tables.Column(verbose_name="μ", attrs=_GREEK_WIDE)
    sigma = tables.Column(verbose_name="σ", attrs=_GREEK_WIDE)
    games = num_column(_("Games"))
    change = tables.TemplateColumn(
        "{{ record.change_text }}",
        verbose_name=_("Last change"),
        order_by=("change",),
        attrs=_WIDE,
    )

    class Meta:
        orderable = True
        attrs = {"class": "grid leaderboard"}

    def _decimals(self, value: float) -> str:
        return number_format(value, 2)

    def render_rating(self, value: float) -> str:
        return self._decimals(value)

    def render_mu(self, value: float) -> str:
        return self._decimals(value)

    def render_sigma(self, value: float) -> str:
        return self._decimals(value)


class PlayerSessionsTable(tables.Table):
    """A player's table sessions; on a phone without the game (the session's title and its
    result say it), so the result and the rating state have room."""

    aria_label = _("Table sessions")
    date = tables.DateColumn(short=True, verbose_name=_("Date"))
    title = tables.TemplateColumn(
        _OUT + "{% url 'scoring:sheet' record.session_id %}\">{{ record.title }}</a>",
        verbose_name=_("Table session"),
        order_by=("title",),
    )
    # Which register row played it (shown when the person stands in several).
    row = tables.Column(verbose_name=_("Register row"), attrs=_WIDE)
    game = tables.Column(verbose_name=_("Game"), attrs=_WIDE)
    result = tables.Column(verbose_name=_("Result"), orderable=False)
    # Rated, left out, waiting for acceptance (``tournaments.ratings.player``).
    evening = tables.Column(verbose_name=_("Ratings"), orderable=False)

    class Meta:
        orderable = True
        attrs = {"class": "grid compact"}


class PlayerTournamentsTable(tables.Table):
    aria_label = _("Tournaments")
    date = tables.DateColumn(short=True, verbose_name=_("Date"))
    name = tables.TemplateColumn(
        _OUT + "{% url 'tournaments:player_results' record.slug record.number %}\">"
        "{{ record.name }}</a>",
        verbose_name=_("Tournament"),
        order_by=("name",),
    )
    row = tables.Column(verbose_name=_("Register row"), attrs=_WIDE)
    game = tables.Column(verbose_name=_("Game"))
    rank = num_column(_("Place"), default="–")

    class Meta:
        orderable = True
        attrs = {"class": "grid compact"}


class SeriesStandingsTable(tables.Table):
    rank = tables.Column(
        verbose_name=_("Place"), default="–", attrs={"td": {"class": "num"}, "th": {"class": "num"}}
    )
    name = tables.TemplateColumn(
        _OUT + "{% url 'tournaments:player_page' record.player_id %}\">{{ record.name }}</a>"
        '{% if not record.qualified %} <small class="muted">({% load i18n %}'
        "{% translate 'too few tournaments' %})</small>{% endif %}",
        verbose_name=_("Player"),
        order_by=("name",),
    )
    club = tables.Column(verbose_name=_("Club"), attrs=_WIDE)
    played = tables.Column(
        verbose_name=_("Played"), attrs={"td": {"class": "num"}, "th": {"class": "num"}}
    )
    total = tables.TemplateColumn(
        "<strong>{{ record.total_label }}</strong>",
        verbose_name=_("Points"),
        attrs={"td": {"class": "num"}, "th": {"class": "num"}},
    )

    class Meta:
        orderable = False
        attrs = {"class": "grid standings", "tbody": {"hx-boost": "false"}}


def series_standings_table(rows: list[dict[str, object]], held: list[object]) -> tables.Table:
    """The series table with one column per tournament held (a dropped result in brackets)."""
    extra = [
        (
            f"t{i}",
            tables.Column(
                verbose_name=str(t), attrs={"td": {"class": "num"}, "th": {"class": "num"}}
            ),
        )
        for i, t in enumerate(held)
    ]
    sequence = ("rank", "name", "club", "played", *(name for name, _col in extra), "total")
    return SeriesStandingsTable(rows, extra_columns=extra, sequence=sequence)
