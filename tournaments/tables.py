"""django-tables2 tables for standings and results (rendered by templates/tables/htmx.html)."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _


class StandingsTable(tables.Table):
    rank = tables.Column(verbose_name=_("Place"), attrs={"td": {"class": "num"}})
    number = tables.Column(verbose_name=_("No."), attrs={"td": {"class": "num"}})
    name = tables.TemplateColumn(
        "<a href=\"{% url 'tournaments:player_results' tournament.slug record.number %}\">"
        "{{ record.name }}</a>",
        verbose_name=_("Player"),
        order_by=("name",),
    )
    big_points = tables.Column(verbose_name=_("Big points"), attrs={"td": {"class": "num"}})
    small_points = tables.Column(verbose_name=_("Small points"), attrs={"td": {"class": "num"}})
    firsts = tables.Column(verbose_name=_("1st"), attrs={"td": {"class": "num"}})
    seconds = tables.Column(verbose_name=_("2nd"), attrs={"td": {"class": "num"}})
    rounds = tables.Column(verbose_name=_("Rounds"), attrs={"td": {"class": "num"}})

    class Meta:
        orderable = True
        attrs = {"class": "grid standings"}


class VintStandingsTable(tables.Table):
    rank = tables.Column(verbose_name=_("Place"), attrs={"td": {"class": "num"}})
    number = tables.Column(verbose_name=_("No."), attrs={"td": {"class": "num"}})
    name = tables.TemplateColumn(
        "<a href=\"{% url 'tournaments:player_results' tournament.slug record.number %}\">"
        "{{ record.name }}</a>",
        verbose_name=_("Player"),
        order_by=("name",),
    )
    net = tables.Column(verbose_name=_("Net"), attrs={"td": {"class": "num"}})
    rubbers_won = tables.Column(verbose_name=_("Rubbers won"), attrs={"td": {"class": "num"}})
    total_points = tables.Column(verbose_name=_("Points"), attrs={"td": {"class": "num"}})
    rounds = tables.Column(verbose_name=_("Rounds"), attrs={"td": {"class": "num"}})

    class Meta:
        orderable = True
        attrs = {"class": "grid standings"}


class GroupStandingsTable(tables.Table):
    rank = tables.Column(verbose_name=_("Place"), attrs={"td": {"class": "num"}})
    group = tables.Column(verbose_name=_("Name"))
    members = tables.Column(verbose_name=_("Players"), orderable=False)
    big_points = tables.Column(verbose_name=_("Big points"), attrs={"td": {"class": "num"}})
    small_points = tables.Column(verbose_name=_("Small points"), attrs={"td": {"class": "num"}})

    class Meta:
        orderable = True
        attrs = {"class": "grid standings"}


class RoundResultsTable(tables.Table):
    table = tables.Column(verbose_name=_("Table"), attrs={"td": {"class": "num"}})
    seat = tables.Column(verbose_name=_("Seat"), attrs={"td": {"class": "num"}})
    number = tables.Column(verbose_name=_("No."), attrs={"td": {"class": "num"}})
    name = tables.Column(verbose_name=_("Player"))
    small_points = tables.Column(verbose_name=_("Small points"), attrs={"td": {"class": "num"}})
    big_points = tables.Column(verbose_name=_("Big points"), attrs={"td": {"class": "num"}})

    class Meta:
        orderable = True
        attrs = {"class": "grid"}
