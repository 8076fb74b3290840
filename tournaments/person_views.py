"""A director's pages for one person in several registers (issue 26): from a register
row's page, "same person as…" searches the other rows, a confirmation page shows both
rows with what each has played, and only its POST merges (``clubs.services.player_merge``,
recorded on each club). A merged row can be split off again (``player_split``). Editing a
row's federation id never links it to the person holding that id: the page says so and
offers the merge.

Here, not in ``clubs``: the pages count table sessions and tournament entries, which
clubs never imports.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache

from clubs.models import Person, Player
from clubs.roles import director_required, require_director_of
from clubs.selectors import (
    club_number_label,
    person_rows,
    same_person_candidates,
    several_clubs,
)
from clubs.services import MergeError, player_merge, player_split
from tournaments.ratings import row_counts


class SearchForm(forms.Form):
    q = forms.CharField(label=gettext_lazy("Name or federation id"), max_length=120, required=False)


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Why (goes into the clubs' records)"),
        max_length=300,
        widget=forms.TextInput,
    )


class RowForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=120)
    federation_id = forms.CharField(
        label=gettext_lazy("Federation id"),
        max_length=40,
        required=False,
        help_text=gettext_lazy(
            "A federation id another person holds does not link the two register rows: merge them with “Same person as…”."  # noqa: E501
        ),
    )


def _row(pk: int) -> Player:
    return get_object_or_404(Player.objects.select_related("club"), pk=pk)


def _shown(player: Player) -> dict[str, Any]:
    """A row as the merge pages show it: its label, what it played, its person's other rows."""
    several = several_clubs()
    others = [p for p in person_rows([player.person_id]).get(player.person_id, []) if p != player]
    return {
        "player": player,
        "label": club_number_label(player, several=several),
        "counts": row_counts(player=player),
        "others": [{"player": p, "label": club_number_label(p, several=several)} for p in others],
    }


@director_required
def player_merge_search(request: HttpRequest, pk: int) -> HttpResponse:
    """Rows of other registers that may be this row's person (by name or federation id)."""
    player = _row(pk)
    require_director_of(request.user, player.club_id)
    form = SearchForm(request.GET or None)
    query = form.cleaned_data["q"] if form.is_valid() else ""
    several = several_clubs()
    found = [
        {"player": p, "label": club_number_label(p, several=several)}
        for p in same_person_candidates(player=player, query=query)
    ]
    context = {"player": player, "form": form, "found": found, "query": query}
    return render(request, "tournaments/player_merge_search.html", context)


@never_cache
@director_required
def player_merge_confirm(request: HttpRequest, pk: int, other: int) -> HttpResponse:
    """Both rows and their histories' counts; the POST (with a reason) merges ``other``'s
    person into ``pk``'s. A director of both rows' clubs only (403, nothing written)."""
    keep, merged = _row(pk), _row(other)
    require_director_of(request.user, keep.club_id)
    require_director_of(request.user, merged.club_id)
    form = ReasonForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                player_merge(
                    keep=keep, other=merged, by=request.user, reason=form.cleaned_data["reason"]
                )
            except MergeError as error:
                form.add_error(None, str(error))
            else:
                messages.success(
                    request,
                    _("%(a)s and %(b)s are one person now.") % {"a": keep.name, "b": merged.name},
                )
                return redirect("tournaments:player_page", keep.pk)
        status = 400
    context = {"keep": _shown(keep), "other": _shown(merged), "form": form}
    return render(request, "tournaments/player_merge_confirm.html", context, status=status)


@never_cache
@director_required
def player_split_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Split a register row off its person (a merge taken back): confirm, then POST."""
    player = _row(pk)
    require_director_of(request.user, player.club_id)
    form = ReasonForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                player_split(player=player, by=request.user, reason=form.cleaned_data["reason"])
            except MergeError as error:
                form.add_error(None, str(error))
            else:
                messages.success(
                    request, _("%(name)s is a person of their own now.") % {"name": player.name}
                )
                return redirect("tournaments:player_page", player.pk)
        status = 400
    context = {"row": _shown(player), "form": form}
    return render(request, "tournaments/player_split.html", context, status=status)


@never_cache
@director_required
def player_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """A register row's name and federation id. A federation id held by another person
    is kept on the row, and the page offers the merge instead of linking them."""
    player = _row(pk)
    require_director_of(request.user, player.club_id)
    initial = {"name": player.name, "federation_id": player.federation_id}
    form = RowForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        player.name = " ".join(form.cleaned_data["name"].split())
        player.federation_id = form.cleaned_data["federation_id"].strip()
        player.save(update_fields=["name", "federation_id"])
        messages.success(request, _("The register row is saved."))
        held = (
            Person.objects.filter(federation_id=player.federation_id)
            .exclude(pk=player.person_id)
            .first()
            if player.federation_id
            else None
        )
        holder = person_rows([held.pk]).get(held.pk) if held is not None else None
        if holder:
            messages.warning(
                request,
                _(
                    "The federation id %(id)s belongs to %(name)s (%(row)s): the two rows stay two persons until you merge them (“Same person as…”)."  # noqa: E501
                )
                % {
                    "id": player.federation_id,
                    "name": holder[0].name,
                    "row": club_number_label(holder[0], several=several_clubs()),
                },
            )
            search = reverse("tournaments:player_merge_search", args=[player.pk])
            return redirect(f"{search}?{urlencode({'q': player.federation_id})}")
        return redirect("tournaments:player_page", player.pk)
    status = 400 if request.method == "POST" else 200
    context = {"player": player, "form": form}
    return render(request, "tournaments/player_edit.html", context, status=status)
