"""Rule profiles: the list every club reads, and a director's own profile made or given a
new version (a copy of a built-in one to start from)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.validators import slug_re
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from clubs.roles import director_required
from scoring.models import RuleProfile
from scoring.profile_forms import ProfileForm
from scoring.profile_services import profile_save


def profile_index(request: HttpRequest) -> HttpResponse:
    profiles = RuleProfile.objects.prefetch_related("versions").all()
    return render(request, "scoring/profiles.html", {"profiles": profiles})


@director_required
def profile_edit(request: HttpRequest, slug: str | None = None) -> HttpResponse:
    profile = get_object_or_404(RuleProfile, slug=slug) if slug else None
    if profile and profile.builtin:
        raise PermissionDenied(_("Built-in profiles follow the rules documents; copy one instead."))
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
    form = ProfileForm(request.POST or None, initial=initial)
    if profile:
        form.fields["game"].disabled = True
    if request.method == "POST" and form.is_valid():
        version = profile_save(
            profile=profile,
            name=form.cleaned_data["name"],
            game=form.cleaned_data["game"],
            options=form.cleaned_data["options"],
            tournament=form.cleaned_data["tournament"],
        )
        messages.success(
            request,
            _("Saved as version %(v)s. Sessions already started keep their version.")
            % {"v": version.version},
        )
        return redirect("scoring:profiles")
    return render(request, "scoring/profile_edit.html", {"form": form, "profile": profile})
