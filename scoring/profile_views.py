"""Rule profiles: the list every club reads, and a club's own profile made or given a new
version by its directors (a copy of any listed one to start from). The built-in profiles
follow the rules documents: nobody edits them here."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.validators import slug_re
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from clubs.roles import directed_clubs, director_required, directs, require_director_of
from scoring.models import RuleProfile
from scoring.profile_forms import ProfileForm
from scoring.profile_services import profile_save


def profile_index(request: HttpRequest) -> HttpResponse:
    profiles = list(RuleProfile.objects.select_related("club").prefetch_related("versions"))
    # Edited by the directors of its club only; a built-in is copied, never edited.
    editable = {p.pk for p in profiles if not p.builtin and directs(request.user, p.club_id)}
    return render(request, "scoring/profiles.html", {"profiles": profiles, "editable": editable})


@director_required
def profile_edit(request: HttpRequest, slug: str | None = None) -> HttpResponse:
    profile = get_object_or_404(RuleProfile, slug=slug) if slug else None
    if profile and profile.builtin:
        raise PermissionDenied(_("Built-in profiles follow the rules documents; copy one instead."))
    if profile:
        require_director_of(request.user, profile.club_id)
    initial: dict[str, Any] = {}
    if profile:
        current = profile.current
        initial = {
            "name": profile.name,
            "game": profile.game,
            "options": current.options,
            "tournament": current.tournament,
        }
    elif copy := request.GET.get("copy"):
        if not slug_re.match(copy):  # a NUL or worse never reaches the database
            raise Http404(_("No such rule profile."))
        source = get_object_or_404(RuleProfile, slug=copy)
        initial = {
            "name": f"{source.display_name} ({_('copy')})",
            "game": source.game,
            "options": source.current.options,
            "tournament": source.current.tournament,
        }
    form = ProfileForm(
        request.POST or None,
        initial=initial,
        clubs=None if profile else directed_clubs(request.user),
    )
    if profile:
        form.fields["game"].disabled = True
    if request.method == "POST" and form.is_valid():
        version = profile_save(
            profile=profile,
            name=form.cleaned_data["name"],
            game=form.cleaned_data["game"],
            options=form.cleaned_data["options"],
            tournament=form.cleaned_data["tournament"],
            club=form.cleaned_data.get("club"),
        )
        messages.success(
            request,
            _("Saved as version %(v)s. Sessions already started keep their version.")
            % {"v": version.version},
        )
        return redirect("scoring:profiles")
    return render(request, "scoring/profile_edit.html", {"form": form, "profile": profile})
