"""The tournament's history of mends (``TournamentAction``) told in plain words, in the
reader's language: who (the account's name), when, what (with players by name and start
number, looked up now from the ids kept), and why."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from scoring.models import RuleProfileVersion
from tournaments.models import Tournament, TournamentAction

HISTORY_MAX = 200  # the newest mends shown on the tournament page


def _yes_no(value: Any) -> str:
    return _("yes") if value else _("no")


def _edited(details: dict[str, Any], profiles: dict[int, str]) -> str:
    labels = {
        "name": _("name"),
        "rounds_planned": _("rounds"),
        "deals_per_round": _("deals per round"),
        "hide_standings": _("standings hidden until the last round"),
        "profile_version": _("rule profile"),
    }
    parts = []
    for field, (old, new) in (details.get("changed") or {}).items():
        if field == "hide_standings":
            old, new = _yes_no(old), _yes_no(new)
        elif field == "profile_version":
            old, new = profiles.get(old, "?"), profiles.get(new, "?")
        parts.append(
            _("%(what)s: %(old)s → %(new)s")
            % {"what": labels.get(field, field), "old": old, "new": new}
        )
    text = _("Tournament edited: %(changes)s.") % {"changes": "; ".join(parts)}
    if details.get("recomputed"):
        text += " " + _("The standings were recomputed.")
    return text


def _describe(action: TournamentAction, names: dict[int, str], profiles: dict[int, str]) -> str:
    d = action.details or {}

    def who(number: Any) -> str:
        return _("%(name)s (no. %(n)s)") % {"name": names.get(number, "?"), "n": number}

    if action.action == "edited":
        return _edited(d, profiles)
    if action.action == "withdrawn" and not d.get("after"):
        return _("%(player)s withdrawn before the first round.") % {"player": who(d.get("number"))}
    if action.action == "withdrawn":
        return _("%(player)s withdrawn after round %(round)s.") % {
            "player": who(d.get("number")),
            "round": d.get("after"),
        }
    if action.action == "reinstated":
        return _("%(player)s reinstated: seated again from the next round.") % {
            "player": who(d.get("number"))
        }
    if action.action == "reseated":
        return _("Round %(round)s seated again.") % {"round": d.get("round")}
    if action.action == "swapped":
        (a, b), (ta, tb) = d.get("players", [0, 0]), d.get("tables", [0, 0])
        return _(
            "Round %(round)s: %(first)s moved from table %(ta)s to table %(tb)s and %(second)s from table %(tb)s to table %(ta)s."  # noqa: E501
        ) % {"round": d.get("round"), "first": who(a), "second": who(b), "ta": ta, "tb": tb}
    if action.action == "substituted":
        return _(
            "Round %(round)s, table %(table)s: %(in)s plays instead of %(out)s, who is absent this round."  # noqa: E501
        ) % {
            "round": d.get("round"),
            "table": d.get("table"),
            "in": who(d.get("in")),
            "out": who(d.get("out")),
        }
    if action.action == "imported":
        return _(
            "Imported from an event file: %(players)s players (%(created)s new in the register), %(rounds)s rounds."  # noqa: E501
        ) % {
            "players": d.get("players"),
            "created": len(d.get("created") or ()),
            "rounds": d.get("rounds"),
        }
    text = _competition(action.action, d, who)
    return text or _("Changed by the director.")


def _points(d: dict[str, Any]) -> str:
    """An adjustment's points as the history keeps them ("big -1, small 10")."""
    labels = {"big": _("big points"), "small": _("small points"), "net": _("net")}
    return ", ".join(f"{labels[k]} {d[k]}" for k in ("big", "small", "net") if d.get(k))


def _competition(kind: str, d: dict[str, Any], who: Any) -> str:
    """The sentences of the competition tools (``tournaments.services.competition``)."""
    if kind == "competition":
        return _("Competition rules changed.")
    if kind == "walkout":
        return _(
            "Round %(round)s, table %(table)s: %(player)s walked out after deal %(after)s."
        ) % {
            "round": d.get("round"),
            "table": d.get("table"),
            "player": who(d.get("player")),
            "after": d.get("after"),
        }
    if kind == "short":
        return _("Round %(round)s, table %(table)s: short table, %(player)s never came.") % {
            "round": d.get("round"),
            "table": d.get("table"),
            "player": who(d.get("player")),
        }
    if kind == "table_normal":
        return _("Round %(round)s, table %(table)s: counted as played in full again.") % {
            "round": d.get("round"),
            "table": d.get("table"),
        }
    if kind == "adjusted":
        return _("%(player)s: %(points)s.") % {"player": who(d.get("player")), "points": _points(d)}
    if kind == "unadjusted":
        return _("%(player)s: adjustment removed (%(points)s).") % {
            "player": who(d.get("player")),
            "points": _points(d),
        }
    if kind == "classes":
        after = ", ".join(d.get("after") or []) or _("none")
        return _("%(player)s: classes %(classes)s.") % {
            "player": who(d.get("player")),
            "classes": after,
        }
    return ""


def tournament_history(*, tournament: Tournament) -> list[dict[str, Any]]:
    """The newest mends first: when, who, the sentence and the reason."""
    actions = list(
        TournamentAction.objects.filter(tournament=tournament)
        .select_related("user")
        .order_by("-at", "-id")[:HISTORY_MAX]
    )
    if not actions:
        return []
    names = dict(tournament.entries.values_list("number", "player__name"))
    profile_ids = {
        pk
        for a in actions
        if a.action == "edited"
        for pk in (a.details.get("changed") or {}).get("profile_version", [])
    }
    profiles = {
        v.pk: str(v)
        for v in RuleProfileVersion.objects.select_related("profile").filter(pk__in=profile_ids)
    }
    return [
        {
            "at": a.at,
            "who": (a.user.get_full_name() or a.user.get_username()) if a.user else "",
            "text": _describe(a, names, profiles),
            "reason": a.reason,
        }
        for a in actions
    ]
