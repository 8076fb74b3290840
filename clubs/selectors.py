"""Read-only queries for clubs and players."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from difflib import SequenceMatcher

from clubs.models import ApiToken, Club, Player

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


# The Polish alphabet: each letter with a diacritic sorts after its base letter
# ("Ł" after "L", "Ś" after "S"), not after "Z" as code points would put it.
POLISH_ALPHABET = "aąbcćdeęfghijklłmnńoópqrsśtuvwxyzźż"
_LETTER_RANK = {ch: i for i, ch in enumerate(POLISH_ALPHABET)}
_LETTERS_FROM = 0x110000  # letters after every other character (space, digits, "-")


def _letter_rank(ch: str) -> int:
    rank = _LETTER_RANK.get(ch)
    if rank is None:
        # Another accented letter (é, ü, ö) sorts as its base letter.
        base = unicodedata.normalize("NFKD", ch)[:1]
        rank = _LETTER_RANK.get(base)
    return ord(ch) if rank is None else _LETTERS_FROM + rank


def collation_key(text: str) -> tuple[tuple[int, ...], str]:
    """A sort key for names in Polish alphabetical order, whatever the server's locale:
    case-insensitive first ("ala" beside "Ala"), then the exact text to settle ties."""
    return tuple(_letter_rank(ch) for ch in text.casefold()), text


def sorted_by_name(players: Iterable[Player]) -> list[Player]:
    """Players in Polish alphabetical order of their names (then club and number)."""
    return sorted(players, key=lambda p: (collation_key(p.name), p.club_id, p.number))


def several_clubs() -> bool:
    """Whether club numbers need their club's name to tell players apart."""
    return Club.objects.count() > 1


def club_number_label(player: Player, *, several: bool) -> str:
    """ "#1", or "Kościan #1" where more than one club keeps a register."""
    return f"{player.club.name} #{player.number}" if several else f"#{player.number}"


def player_label(player: Player, *, several: bool) -> str:
    """A player as a select lists them: "Anna Nowak (#1)" or "Anna Nowak (Kościan #1)"."""
    return f"{player.name} ({club_number_label(player, several=several)})"


def player_list(*, club: Club | None = None) -> list[Player]:
    """Every player (or a club's), in Polish alphabetical order: the players page."""
    qs = Player.objects.select_related("club")
    return sorted_by_name(qs.filter(club=club) if club is not None else qs)


def person_rows(person_ids: Iterable[int]) -> dict[int, list[Player]]:
    """Each person's register rows (with their clubs), oldest first: a page about the
    person names them all and links to the first."""
    rows: dict[int, list[Player]] = {}
    for player in Player.objects.filter(person_id__in=set(person_ids)).select_related("club"):
        rows.setdefault(player.person_id, []).append(player)
    for found in rows.values():
        found.sort(key=lambda p: p.pk)
    return rows


def clubs_of(rows: Iterable[Player]) -> str:
    """The clubs of a person's register rows, each once: "Kościan, Leszno"."""
    return ", ".join(dict.fromkeys(p.club.name for p in rows))


# Rows a search for the same person shows at most.
SAME_PERSON_LIMIT = 50


def same_person_candidates(*, player: Player, query: str) -> list[Player]:
    """Register rows (any club's) that may be ``player``'s person under another row: the
    federation id ``query``, or names containing it or alike it (case and diacritics
    folded); without a query, rows alike ``player``'s name or holding its federation id.
    Never the rows of ``player``'s own person. Polish alphabetical order."""
    query = " ".join(query.split())
    wanted = fold_name(query or player.name)
    licence = query or player.federation_id.strip()
    found = []
    for other in Player.objects.exclude(person_id=player.person_id).select_related("club"):
        name = fold_name(other.name)
        if (licence and other.federation_id.strip() == licence) or (
            (query and wanted in name) or names_alike(other.name, query or player.name)
        ):
            found.append(other)
    return sorted_by_name(found)[:SAME_PERSON_LIMIT]


def api_token_find(*, digest: str) -> ApiToken | None:
    """The read-API token whose secret has this SHA-256 ``digest``, with its account."""
    return ApiToken.objects.select_related("user").filter(digest=digest).first()
