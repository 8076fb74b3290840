"""Vint's deals and sheet entries in words: contracts, doublings, what each entry is for,
and a deal's facts in one line."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.engines import vint

SUIT_SYMBOL = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}


def contract_label(contract: str) -> str:
    """ "4H" -> "4♥", "5G" -> "5 grand", "4M" -> "4 misère", "pass" -> "all pass"."""
    if contract == "pass":
        return _("all pass")
    level, denom = contract[0], contract[1]
    if denom in SUIT_SYMBOL:
        return f"{level}{SUIT_SYMBOL[denom]}"
    if denom == "G":
        return _("%(level)s grand") % {"level": level}
    return _("%(level)s misère") % {"level": level}


def doubling_label(doubling: int) -> str:
    return {1: _("doubled"), 2: _("redoubled")}.get(doubling, "")


def item_label(item: Mapping[str, Any]) -> str:
    """What one sheet entry is for, in words ("honours 5", "ace dumped at trick 6")."""
    kind = item["kind"]
    n = item.get("count", 0)
    seat = item.get("seat", "")
    suit = SUIT_SYMBOL.get(item.get("suit", ""), "")
    if kind == "trick_points":
        return ngettext("trick points for %(n)s trick", "trick points for %(n)s tricks", n) % {
            "n": n
        }
    if kind == "made":
        return _("contract made")
    if kind == "overtricks":
        return ngettext("%(n)s overtrick", "%(n)s overtricks", n) % {"n": n}
    if kind == "undertricks":
        return ngettext("%(n)s undertrick", "%(n)s undertricks", n) % {"n": n}
    if kind == "special":
        return _("special bonus (slam bid beaten)")
    if kind == "honours":
        return _("honours: %(n)s units") % {"n": n}
    if kind == "grand_aces":
        return _("grand aces: %(n)s") % {"n": n}
    if kind == "aces_in_hand":
        return _("%(n)s aces in %(seat)s's hand") % {"n": n, "seat": seat}
    if kind == "sequence":
        return _("%(suit)sA run of %(n)s (%(seat)s)") % {"suit": suit, "n": n, "seat": seat}
    if kind == "ace_dump":
        return _("%(seat)s's ace dumped at trick %(n)s") % {"seat": seat, "n": n}
    if kind == "all_pass_penalty":
        return _("fewer tricks (by %(n)s)") % {"n": n}
    if kind == "rubber":
        return _("rubber bonus")
    if kind == "extra_game":
        return _("bonus for game %(n)s") % {"n": n}
    if kind == "unfinished_rubber":
        return _("unfinished rubber, %(n)s games ahead") % {"n": n}
    return str(kind)


def entry_label(entry: vint.Entry) -> str:
    """What an engine's sheet entry is for, in words (``item_label``)."""
    return item_label(
        {"kind": entry.kind, "count": entry.count, "seat": entry.seat, "suit": entry.suit}
    )


def facts_summary(facts: Mapping[str, Any]) -> str:
    """A deal's facts in one line: "4♥ N doubled, 10 tricks; honours NS 5"."""
    if not facts:
        return ""
    parts = [contract_label(facts["contract"])]
    if facts["contract"] == "pass":
        t = facts.get("tricks", {})
        parts.append(f"NS {t.get('NS')} · EW {t.get('EW')}")
    else:
        head = f"{facts.get('declarer')}"
        if facts.get("doubling"):
            head += f" {doubling_label(facts['doubling'])}"
        parts.append(
            head
            + ", "
            + ngettext("%(n)s trick", "%(n)s tricks", facts.get("declarer_tricks") or 0)
            % {"n": facts.get("declarer_tricks")}
        )
    if facts.get("honours"):
        h = facts["honours"]
        parts.append(_("honours %(side)s %(n)s") % {"side": h["side"], "n": h["count"]})
    if facts.get("grand_aces"):
        g = facts["grand_aces"]
        parts.append(_("aces %(side)s %(n)s") % {"side": g["side"], "n": g["count"]})
    for hand in facts.get("aces_in_hand", []):
        parts.append(
            _("%(n)s aces in %(seat)s's hand") % {"n": hand["count"], "seat": hand["seat"]}
        )
    for run in facts.get("sequences", []):
        parts.append(
            _("%(suit)sA run of %(n)s (%(seat)s)")
            % {"suit": SUIT_SYMBOL[run["suit"]], "n": run["length"], "seat": run["seat"]}
        )
    for dump in facts.get("ace_dumps", []):
        parts.append(
            _("%(seat)s's ace dumped at trick %(n)s") % {"seat": dump["seat"], "n": dump["trick"]}
        )
    return "; ".join(parts)


DENOMINATION_TITLES = {"S": "♠", "C": "♣", "D": "♦", "H": "♥", "G": "G", "M": "M"}


def denomination_title(denom: str) -> str:
    """The grid's short name of a denomination: a suit symbol, or the players' own letters
    for grand and misère (Polish players say "BA", bez atu, for no trumps)."""
    if denom == "G":
        # Translators: grand (no trumps) on a contract button, "4G"; Polish players say BA.
        return _("G")
    return DENOMINATION_TITLES[denom]
