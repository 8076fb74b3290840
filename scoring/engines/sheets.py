"""Any game's scoresheet scored: the format's ``game`` says which engine reads it.

The ``score`` command and the tests score a sheet through here; ``scoresheet`` holds what
every game's sheet reader shares (the JSON reading within limits), so it imports none.
"""

from __future__ import annotations

from typing import Any

from scoring.engines.errors import SheetError
from scoring.engines.kop_sheet import score_kop_sheet
from scoring.engines.scoresheet import game_unknown, not_an_object
from scoring.engines.vint_sheet import score_vint_sheet


def score_sheet(data: object) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise SheetError([not_an_object()])
    game = data.get("game")
    if game in ("kop", "baska"):
        return score_kop_sheet(data)
    if game == "vint":
        return score_vint_sheet(data)
    raise SheetError([game_unknown(game)])
