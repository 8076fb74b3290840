"""Score any scoresheet (``shared/formats/scoresheet-json.md``) by its ``game``.

``score_sheet(data)`` returns the output document or raises ``SheetError``
with one line per problem; it touches nothing outside its arguments.
"""

from __future__ import annotations

from typing import Any

from scoring.engines.errors import SheetError

GAMES = ("kop", "baska", "vint")


def score_sheet(data: object) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise SheetError(["sheet: expected a JSON object"])
    game = data.get("game")
    if game in ("kop", "baska"):
        from scoring.engines.kop_sheet import score_kop_sheet

        return score_kop_sheet(data)
    if game == "vint":
        from scoring.engines.vint_sheet import score_vint_sheet

        return score_vint_sheet(data)
    raise SheetError([f"game: {game!r} is not one of {', '.join(GAMES)}"])
