"""Signals the scoring app sends; other apps listen (tournaments: standings, ratings).

``deal_changed`` is sent by the write path (``scoring.services``) inside the
transaction of the change, on every create, correction and void of a deal and on
every lock and unlock of a session, with keyword arguments ``session`` (the
``TableSession``), ``action`` ("created", "edited", "voided", "locked",
"unlocked") and ``slot`` (the deal's ``scoring.games.Slot``, None for a lock or
unlock). Scoring never imports its listeners.
"""

from __future__ import annotations

from django.dispatch import Signal

deal_changed = Signal()
