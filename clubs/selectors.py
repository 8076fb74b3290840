"""Read-only queries for clubs and players."""

from __future__ import annotations

import unicodedata
from difflib import SequenceMatcher

from django.db.models import QuerySet

from clubs.models import Club, Player

# Two names at least this alike (after folding case and diacritics) are
# probably the same person typed twice: "Paweł Nowak" / "Pawel Nowak".
SIMILAR_NAME_RATIO = 0.85


def fold_name(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name.replace("ł", "l").replace("Ł", "L"))
    letters = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(letters.casefold().split())


def names_alike(a: str, b: str) -> bool:
    fa, fb = fold_name(a), fold_name(b)
    if fa == fb:
        return True
    if SequenceMatcher(None, fa, fb).ratio() >= SIMILAR_NAME_RATIO:
        return True
    # "Nowak Paweł" typed surname-first is the same person.
    return sorted(fa.split()) == sorted(fb.split())


def players_similar_to(*, club: Club, name: str) -> list[Player]:
    return [p for p in club.players.all() if names_alike(p.name, name)]


def player_list(*, club: Club | None = None) -> QuerySet[Player]:
    qs = Player.objects.select_related("club")
    return qs.filter(club=club) if club is not None else qs
