"""Built-in rule profiles as rows: made by a migration and after every ``migrate``.

A request never writes them (GET never writes); a built-in whose options changed in
``scoring.engines.rules`` gets a new version, so sessions already started keep theirs.
The models are passed in so that a data migration can use its historical models.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scoring.engines.rules import BUILTIN_PROFILES

#: What people read about a built-in profile, by slug: its name and where its settings
#: come from, translated (the engines keep the English in ``Profile.description``).
BUILTIN_TEXTS: Final[Mapping[str, tuple[Promise, Promise]]] = {
    "kop-pagat": (
        _("Kop (pagat)"),
        _(
            "Source: pagat.com, Kop (via the project's Japanese summary): the 12-trump order, three passes end the auction, every other rule the default of the Kop rules. Pagat has no tournament rules: the tournament settings are the app's (5/3/1/0, Kościan's tie-breaks)."  # noqa: E501
        ),
    ),
    "kop-koscian": (
        _("Kop, Kościan regulations"),
        _(
            "Source: the Kościan tournament regulations (koscian-kop.cba.pl/regulamin), as written: three tens, at most 3 doublings in cicha, zolo and zolo du and 5 in the others (kontra, rej, bok, skok, zub), the wesele bidder may double, wesele only in the first call, four passes end the auction, the soloist may not say kontra at all, big points 5/3/1/0 and the regulations' tie-breaks. The regulations name the bez wyjścia column without a number: 25, the usual threshold, is used."  # noqa: E501
        ),
    ),
    "kop-wolsztyn": (
        _("Kop, Wolsztyn rules"),
        _(
            "Source: the Wolsztyn rules (wolsztynski-kop.pl/zasady-gry): three tens, the auction ends when all have passed, a higher bid cancels doublings, only doublings against the other side count, the soloist may not double first. From practice, not from a published regulation: the big points 4/3/2/1, the cap of four doublings (słup) and bez wyjścia at 25 points (the published rules stop before the scoring), and the tie-breaks, taken from Kościan."  # noqa: E501
        ),
    ),
    "baska": (
        _("Baśka"),
        _(
            "Source: pagat.com, Baśka (via the project's Japanese summary) and the Baśka league rules (baska.kaszuby24.com): czerwona baśka order, grand and grand du, the declarers' loss doubled, baśka played; every other rule the default."  # noqa: E501
        ),
    ),
    "baska-puck": (
        _("Baśka, Puck league"),
        _(
            "Source: the Puck Baśka league rules (pucka-liga-baski.pl/przepisy-gry): czerwona baśka and grand orders, each kontra +100 %, DU said after ZOLO or GRAN and worth +100 % (the same values as zolo du and grand du). The league prints no cap and no threshold: four doublings (hirsz) and bez wyjścia at 25, as in every Baśka profile."  # noqa: E501
        ),
    ),
    "baska-no-grand": (
        _("Baśka without grand"),
        _(
            "Source: a Gorzów Baśka cup, which plays without grand: grand and grand du are not offered and not accepted; everything else as the Baśka profile."  # noqa: E501
        ),
    ),
    "vint": (
        _("Vint (Estonian)"),
        _(
            "Source: D. Parlett, The Penguin Book of Card Games, Vint (Estonian form), via the project's Japanese summary: the default rules, a session of three rubbers with a new partnership in each."  # noqa: E501
        ),
    ),
}


def builtin_name(slug: str, name: str) -> str:
    """A profile's name in the active language (a built-in's; others as the director typed)."""
    texts = BUILTIN_TEXTS.get(slug)
    return str(texts[0]) if texts else name


def builtin_description(slug: str, description: str) -> str:
    """A profile's description in the active language (see ``builtin_name``)."""
    texts = BUILTIN_TEXTS.get(slug)
    return str(texts[1]) if texts else description


def json_plain(value: Any) -> Any:
    """Mappings and sequences from the engines as plain JSON-ready dicts and lists."""
    if isinstance(value, Mapping):
        return {str(k): json_plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_plain(v) for v in value]
    return value


def profiles_sync(profile_model: Any, version_model: Any) -> None:
    """Create the built-in profiles; a changed built-in gets a new version."""
    for spec in BUILTIN_PROFILES.values():
        profile, _created = profile_model.objects.get_or_create(
            slug=spec.slug,
            defaults={
                "name": spec.name,
                "game": spec.game,
                "builtin": True,
                "description": spec.description,
            },
        )
        if profile.name != spec.name or profile.description != spec.description:
            # Names and descriptions are not versioned: they say where the rules come from.
            profile.name, profile.description = spec.name, spec.description
            profile.save(update_fields=["name", "description"])
        current = version_model.objects.filter(profile=profile).order_by("-version").first()
        options, tournament = json_plain(spec.options), json_plain(spec.tournament)
        if current is None or current.options != options or current.tournament != tournament:
            version_model.objects.create(
                profile=profile,
                version=(current.version + 1) if current else 1,
                options=options,
                tournament=tournament,
            )
