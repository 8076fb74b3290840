"""The director's mends, from forms: the tournament edited, a player withdrawn or
reinstated (after a confirmation page), and the newest round re-seated, two of its
players swapped or a substitute put in for a no-show. Each calls a service of
``tournaments.services.mend`` (kept in the tournament's history); a refusal shows the
form again with what was typed and the reason, nothing written."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from clubs.roles import director_required
from scoring.models import TableSeat, TableSession
from tournaments import services
from tournaments.forms import (
    ReseatForm,
    SubstituteForm,
    SwapForm,
    TournamentEditForm,
    WithdrawalForm,
)
from tournaments.models import Registration, Round
from tournaments.views.pages import directed_tournament


@director_required
def tournament_edit(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = directed_tournament(request, slug)
    form = TournamentEditForm(request.POST or None, tournament=tournament, user=request.user)
    started = tournament.rounds.exists()
    has_deals = TableSession.objects.filter(
        round_table__round__tournament=tournament, revision__gt=0
    ).exists()
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.tournament_edit(
                tournament=tournament,
                user=request.user,
                name=data["name"],
                rounds=data["rounds"],
                deals_per_round=data["deals_per_round"],
                hide_standings=data["hide_standings"],
                profile_version=data["profile"].current,
                reason=data["reason"],
                recompute=data["recompute"],
            )
        except services.TournamentError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("The tournament is changed."))
            return redirect("tournaments:detail", slug=slug)
    context = {"tournament": tournament, "form": form, "started": started, "has_deals": has_deals}
    return render(request, "tournaments/edit.html", context)


@director_required
def entry_withdrawal(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The confirmation page of a withdrawal (or of a reinstatement, for a player who has
    withdrawn), with a reason; the POST does it."""
    tournament = directed_tournament(request, slug)
    entry = get_object_or_404(
        Registration.objects.select_related("player"), tournament=tournament, number=number
    )
    action = "reinstate" if entry.withdrawn_after is not None else "withdraw"
    form = WithdrawalForm(request.POST or None, initial={"action": action})
    if request.method == "POST" and form.is_valid():
        do = (
            services.registration_withdraw
            if form.cleaned_data["action"] == "withdraw"
            else services.registration_reinstate
        )
        try:
            do(registration=entry, user=request.user, reason=form.cleaned_data["reason"])
        except services.TournamentError as exc:
            form.add_error(None, str(exc))
        else:
            name = entry.player.name
            messages.success(
                request,
                _("%(name)s withdrawn: they sit out the remaining rounds.") % {"name": name}
                if do is services.registration_withdraw
                else _("%(name)s reinstated: seated again from the next round.") % {"name": name},
            )
            return redirect("tournaments:detail", slug=slug)
    seated = tournament.rounds.order_by("-number").values_list("number", flat=True).first() or 0
    context = {"tournament": tournament, "entry": entry, "form": form, "action": action}
    context["seated"] = seated
    return render(request, "tournaments/entry_withdrawal.html", context)


def _seated(rnd: Round) -> tuple[list[tuple[int, str, int]], list[int]]:
    """The round's seated players as (start number, name, table), by table and seat,
    and their player ids."""
    numbers = dict(rnd.tournament.entries.values_list("player_id", "number"))
    seats = list(
        TableSeat.objects.filter(session__round_table__round=rnd)
        .order_by("session__round_table__number", "seat")
        .values_list("player_id", "player__name", "session__round_table__number")
    )
    return [(numbers[p], name, t) for p, name, t in seats], [p for p, _n, _t in seats]


MEND_FORMS: dict[str, Any] = {"reseat": ReseatForm, "swap": SwapForm, "substitute": SubstituteForm}


@director_required
def round_mend(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The newest round's mends: re-seat it, swap two players, put in a substitute. The
    POST's ``action`` names the form sent; the others are shown empty."""
    tournament = directed_tournament(request, slug)
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    seated, seated_players = _seated(rnd)
    action = request.POST.get("action") if request.method == "POST" else None
    extra: dict[str, dict[str, Any]] = {
        "reseat": {},
        "swap": {"seated": seated},
        "substitute": {"seated": seated, "seated_players": seated_players},
    }
    forms = {
        name: MEND_FORMS[name](request.POST if name == action else None, prefix=name, **extra[name])
        for name in MEND_FORMS
    }
    if action in forms and forms[action].is_valid():
        data = forms[action].cleaned_data
        try:
            if action == "reseat":
                services.round_reseat(rnd=rnd, user=request.user, reason=data["reason"])
                done = _("Round %(n)s seated again: print the new table cards.")
            elif action == "swap":
                services.seats_swap(
                    rnd=rnd,
                    user=request.user,
                    first=data["first"],
                    second=data["second"],
                    reason=data["reason"],
                )
                done = _("The two players changed tables.")
            else:
                services.seat_substitute(
                    rnd=rnd,
                    user=request.user,
                    absent=data["absent"],
                    player=data["player"],
                    new_name=data["new_name"],
                    reason=data["reason"],
                )
                done = _("The substitute is seated; the missing player is marked absent.")
        except services.TournamentError as exc:
            forms[action].add_error(None, str(exc))
        else:
            messages.success(request, done % {"n": rnd.number})
            return redirect("tournaments:round", slug=slug, number=rnd.number)
    newest = tournament.rounds.order_by("-number").values_list("number", flat=True).first()
    context = {
        "tournament": tournament,
        "round": rnd,
        "newest": newest == rnd.number,
        "forms": forms,
        "action": action,
    }
    return render(request, "tournaments/round_mend.html", context)
