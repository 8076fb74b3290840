"""Rule profiles: named, versioned sets of options for a game, as data.

Vocabulary
----------
profile
    What a club or a tournament plays by: a ``slug`` ("kop-koscian"), a
    display ``name``, the ``game`` ("kop", "baska" or "vint"), a ``version``
    (bumped whenever the options or tournament settings change, so a stored
    session can say which version scored it), the game's rule ``options``
    (the snake_case names of ``rules/kop.md`` §7 or ``rules/vint.md`` §7, the
    same object a scoresheet's ``rules`` holds) and ``tournament`` settings.
big points
    What a place at a table earns in a round, first place first
    (``big_points``, e.g. [5, 3, 1, 0]); tied places share their points.
small points
    A player's net of the deal payments over the round (``rules/kop.md`` §8.2).
tie-breaks
    The order in which standings separate players level on big points
    (``tie_breaks``): ``small_points``, ``round_wins``, ``second_places``,
    ``third_places``.

The built-in profiles and where each setting comes from:

``kop-pagat``
    Kop as pagat describes it: the main-text 12-trump order T12 (§1.3, A1),
    the official auction end after three successive passes (§2.1, A8), and
    every other §7 default (cap 4 = słup, alternating doublings only, wesele
    bidder may not double). Pagat has no tournament rules, so the tournament
    settings are the app's §8.2 defaults: 5/3/1/0, Kościan's tie-breaks.
``kop-koscian``
    The Kościan tournament regulations as written (S7, §5.5, §8.1, §7.1):
    three-tens order T14; caps normal 5, wesele 5, cicha 3, zolo 3, zolo du 3
    (A9, A15); the wesele bidder may double (R6 variant, A6); wesele only in
    the first call (R9); the auction ends after four passes (§2.1); the
    levels are named kontra, rej, bok, skok, zub; the soloist may not double
    at all (``soloist_doubling: never``: "the cicha player may not say
    kontra"); big points 5/3/1/0; tie-breaks small points, round wins, second
    places, third places (§8.1).
``kop-wolsztyn``
    The Wolsztyn rules (S4, S6; §2.1, §8.1): T14; the auction ends when all
    have passed; a higher bid cancels doublings and only doublings against the
    other side count (the defaults). §8.1 prints no Wolsztyn big points; the
    4/3/2/1 scale is the one ``shared/product.md`` names for Wolsztyn, and
    the numbers S6 does not print (the cap of four, bez wyjścia at 25) are
    club practice and the pagat defaults; the description says so.
``baska``
    Baśka with the §7 defaults for that game: T12 ("czerwona baśka"), loss
    factor L, names kontra, rekontra, bok, hirsz, baśka played (A10).
``baska-puck``
    The Puck Baśka league (S9): T12 with the grand order, each kontra +100 %,
    "du" said as a suffix (ZOLO-DU, GRAN-DU: the same values); the rest as
    ``baska``.
``baska-no-grand``
    Baśka as a Gorzów cup plays it (§7.1): no grand and no grand du
    (``contracts``); the rest as ``baska``.
``vint``
    Estonian Vint with the defaults of ``rules/vint.md`` §7 (no options).
    Rubber play has no table places of four, so the big points and tie-breaks
    apply only when a director ranks sessions.
"""

from __future__ import annotations

from collections.abc import Mapping
from copy import deepcopy
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Final

from scoring.engines import kop
from scoring.engines.errors import RuleError, show_value

PROFILE_GAMES: Final = ("kop", "baska", "vint")

#: Every problem code this module raises itself; validating a profile's
#: options also raises the codes of the game's engine (``kop.CODES``,
#: ``vint.CODES``).
CODES: Final = frozenset(
    {
        "rules.game_unknown",
        "rules.tournament_setting_unknown",
        "rules.big_points_invalid",
        "rules.tie_breaks_invalid",
        "rules.version_invalid",
        "rules.profile_unknown",
    }
)
TIE_BREAKS: Final = ("small_points", "round_wins", "second_places", "third_places")
KOSCIAN_BIG_POINTS: Final = (5, 3, 1, 0)
WOLSZTYN_BIG_POINTS: Final = (4, 3, 2, 1)


@dataclass(frozen=True)
class Profile:
    """A named, versioned set of rule options and tournament settings.

    ``options`` and ``tournament`` are plain JSON-ready dicts (deep-copied on
    construction, so the caller's dicts are not shared). Treat them as
    read-only: ``get_profile`` hands out a private copy of a built-in one.
    """

    slug: str
    name: str
    game: str
    version: int
    options: dict[str, object] = field(default_factory=dict, hash=False)
    tournament: dict[str, object] = field(default_factory=dict, hash=False)
    #: Where the settings come from, in English; the Django layer shows a
    #: translated text keyed by ``slug`` (``scoring.profiles.BUILTIN_TEXTS``).
    description: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", _plain(self.options))
        object.__setattr__(self, "tournament", _plain(self.tournament))

    def rules(self) -> object:
        """The game engine's validated rules for these options."""
        return validate_profile_options(self.game, self.options)


def _plain(mapping: Mapping[str, object]) -> dict[str, object]:
    return {k: _plain_value(v) for k, v in mapping.items()}


def _plain_value(value: object) -> object:
    if isinstance(value, Mapping):
        return _plain(value)
    if isinstance(value, list | tuple):
        return [_plain_value(v) for v in value]
    return deepcopy(value)


def validate_profile_options(game: str, options: Mapping[str, object]) -> object:
    """Validate a profile's options by the game's engine; returns its rules object.

    kop / baska -> ``kop.KopRules``; vint -> ``vint.VintRules``. A bad option
    raises ``RuleError`` naming it.
    """
    if game in kop.GAMES:
        return kop.parse_rules(game, options)
    if game == "vint":
        # Imported here so Kop users never pay for (or depend on) the Vint engine.
        from scoring.engines import vint

        return vint.parse_rules(options)
    raise _unknown_game(game)


def _unknown_game(game: object) -> RuleError:
    return RuleError(
        f"{game!r} is not a game (kop, baska, vint)",
        field="game",
        code="rules.game_unknown",
        params={"value": show_value(game), "games": list(PROFILE_GAMES)},
    )


def validate_tournament(tournament: Mapping[str, object]) -> None:
    """Check ``big_points`` (four non-increasing integers >= 0) and ``tie_breaks``."""
    known = {"big_points", "tie_breaks"}
    for key in tournament:
        if key not in known:
            raise RuleError(
                f"{key}: not a tournament setting ({', '.join(sorted(known))})",
                field=key,
                code="rules.tournament_setting_unknown",
                params={"setting": key, "known": sorted(known)},
            )
    points = tournament.get("big_points")
    if (
        not isinstance(points, list | tuple)
        or len(points) != 4
        or not all(isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in points)
        or any(a < b for a, b in zip(points, points[1:], strict=False))
    ):
        raise RuleError(
            f"big_points: {points!r} is not four non-increasing whole numbers, first place first",
            field="big_points",
            code="rules.big_points_invalid",
            params={"value": show_value(points)},
        )
    breaks = tournament.get("tie_breaks")
    if (
        not isinstance(breaks, list | tuple)
        or not all(isinstance(b, str) and b in TIE_BREAKS for b in breaks)
        or len(set(breaks)) != len(breaks)
    ):
        raise RuleError(
            f"tie_breaks: {breaks!r} is not a list of distinct tie-breaks "
            f"({', '.join(TIE_BREAKS)})",
            field="tie_breaks",
            code="rules.tie_breaks_invalid",
            params={"value": show_value(breaks), "allowed": list(TIE_BREAKS)},
        )


def validate_profile(profile: Profile) -> object:
    """Validate a whole profile; returns the game's rules object."""
    if profile.game not in PROFILE_GAMES:
        raise _unknown_game(profile.game)
    if (
        not isinstance(profile.version, int)
        or isinstance(profile.version, bool)
        or profile.version < 1
    ):
        raise RuleError(
            f"version: {profile.version!r} is not a version (1, 2, ...)",
            field="version",
            code="rules.version_invalid",
            params={"value": show_value(profile.version)},
        )
    validate_tournament(profile.tournament)
    return validate_profile_options(profile.game, profile.options)


_DEFAULT_TOURNAMENT: Final[dict[str, object]] = {
    "big_points": list(KOSCIAN_BIG_POINTS),
    "tie_breaks": list(TIE_BREAKS),
}

BUILTIN_PROFILES: Final[Mapping[str, Profile]] = MappingProxyType(
    {
        p.slug: p
        for p in (
            Profile(
                slug="kop-pagat",
                name="Kop (pagat)",
                game="kop",
                version=1,
                options={"trump_order": "T12", "auction_end": "three_passes"},
                tournament=_DEFAULT_TOURNAMENT,
                description=(
                    "Source: pagat.com, Kop (via the project's Japanese summary): the 12-trump "
                    "order, three passes end the auction, every other rule the default of "
                    "rules/kop.md §7. Pagat has no tournament rules: the tournament settings "
                    "are the app's (5/3/1/0, Kościan's tie-breaks)."
                ),
            ),
            Profile(
                slug="kop-koscian",
                name="Kop, Kościan regulations",
                game="kop",
                version=1,
                options={
                    "trump_order": "T14",
                    "doubling_cap": {
                        "normal": 5,
                        "wesele": 5,
                        "cicha": 3,
                        "zolo": 3,
                        "zolo_du": 3,
                    },
                    "wesele_bidder_may_double": True,
                    "wesele_first_call_only": True,
                    "auction_end": "four_passes",
                    "doubling_names": list(kop.DOUBLING_NAMES_KOSCIAN),
                    "soloist_doubling": "never",
                },
                tournament=_DEFAULT_TOURNAMENT,
                description=(
                    "Source: the Kościan tournament regulations (koscian-kop.cba.pl/regulamin), "
                    "as written: three tens, at most 3 doublings in cicha, zolo and zolo du and "
                    "5 in the others (kontra, rej, bok, skok, zub), the wesele bidder may "
                    "double, wesele only in the first call, four passes end the auction, the "
                    "soloist may not say kontra at all, big points 5/3/1/0 and the "
                    "regulations' tie-breaks. The regulations name the bez wyjścia column "
                    "without a number: 25, the usual threshold, is used."
                ),
            ),
            Profile(
                slug="kop-wolsztyn",
                name="Kop, Wolsztyn rules",
                game="kop",
                version=1,
                options={"trump_order": "T14", "auction_end": "all_pass"},
                tournament={
                    "big_points": list(WOLSZTYN_BIG_POINTS),
                    "tie_breaks": list(TIE_BREAKS),
                },
                description=(
                    "Source: the Wolsztyn rules (wolsztynski-kop.pl/zasady-gry): three tens, "
                    "the auction ends when all have passed, a higher bid cancels doublings, "
                    "only doublings against the other side count, the soloist may not double "
                    "first. From practice, not from a published regulation: the big points "
                    "4/3/2/1, the cap of four doublings (słup) and bez wyjścia at 25 points "
                    "(the published rules stop before the scoring), and the tie-breaks, "
                    "taken from Kościan."
                ),
            ),
            Profile(
                slug="baska",
                name="Baśka",
                game="baska",
                version=1,
                options={},
                tournament=_DEFAULT_TOURNAMENT,
                description=(
                    "Source: pagat.com, Baśka (via the project's Japanese summary) and the "
                    "Baśka league rules (baska.kaszuby24.com): czerwona baśka order, grand and "
                    "grand du, the declarers' loss doubled, baśka played; every other rule the "
                    "default of rules/kop.md §7."
                ),
            ),
            Profile(
                slug="baska-puck",
                name="Baśka, Puck league",
                game="baska",
                version=1,
                options={"trump_order": "T12", "du_as_suffix": True},
                tournament=_DEFAULT_TOURNAMENT,
                description=(
                    "Source: the Puck Baśka league rules (pucka-liga-baski.pl/przepisy-gry): "
                    "czerwona baśka and grand orders, each kontra +100 %, DU said after ZOLO "
                    "or GRAN and worth +100 % (the same values as zolo du and grand du). The "
                    "league prints no cap and no threshold: four doublings (hirsz) and bez "
                    "wyjścia at 25, as in every Baśka profile."
                ),
            ),
            Profile(
                slug="baska-no-grand",
                name="Baśka without grand",
                game="baska",
                version=1,
                options={"contracts": ["normal", "cicha", "wesele", "zolo", "zolo_du", "baska"]},
                tournament=_DEFAULT_TOURNAMENT,
                description=(
                    "Source: a Gorzów Baśka cup, which plays without grand (rules/kop.md §7.1): "
                    "grand and grand du are not offered and not accepted; everything else as "
                    "the Baśka profile."
                ),
            ),
            Profile(
                slug="vint",
                name="Vint (Estonian)",
                game="vint",
                version=1,
                options={},
                tournament=_DEFAULT_TOURNAMENT,
                description=(
                    "Source: D. Parlett, The Penguin Book of Card Games, Vint (Estonian form), "
                    "via the project's Japanese summary: the defaults of rules/vint.md §7, a "
                    "session of three rubbers with a new partnership in each."
                ),
            ),
        )
    }
)


def get_profile(slug: str) -> Profile:
    """The built-in profile ``slug``; ``RuleError`` if there is none."""
    try:
        profile = BUILTIN_PROFILES[slug]
    except KeyError:
        known = ", ".join(BUILTIN_PROFILES)
        raise RuleError(
            f"{slug!r} is not a rule profile ({known})",
            field="profile",
            code="rules.profile_unknown",
            params={"value": show_value(slug), "profiles": list(BUILTIN_PROFILES)},
        ) from None
    # A fresh copy: a caller that edits its options must not edit them for all.
    return replace(profile)


def profiles_for(game: str) -> tuple[Profile, ...]:
    """The built-in profiles of one game, in listing order."""
    return tuple(p for p in BUILTIN_PROFILES.values() if p.game == game)
