"""Signals the scoring app sends; other apps listen (tournaments: standings, ratings).

``table_changed`` says that something changed at a table session: the write path
(``scoring.services``) sends it inside the transaction of the change, once per change,
with keyword arguments ``session`` (the ``TableSession``, as read under its row lock:
with its ``round_table`` fetched along where the change is a deal's), ``slot`` (the
deal's ``scoring.games.interface.Slot``; None for a change of the whole table, or of many
deals at once) and ``action``, one of:

* ``"created"``: a deal was entered (one at the pad, or many at once: an imported
  scoresheet, demo data, a simulation; then ``slot`` is None);
* ``"edited"``: a deal was corrected;
* ``"voided"``: a deal was struck out;
* ``"locked"``: the table was locked (nobody changes it until a director unlocks it);
* ``"unlocked"``: the table was unlocked, which takes an acceptance back;
* ``"accepted"``: a club session's result was accepted (already locked: else ``"locked"``
  follows);
* ``"excluded"``: a director left a club session out of the ratings;
* ``"included"``: a director rated it again;
* ``"planned"``: a director changed how many deals the table plays.

Scoring never imports its listeners.
"""

from __future__ import annotations

from django.dispatch import Signal

table_changed = Signal()

#: Every ``action`` ``table_changed`` carries.
ACTIONS = (
    "created",
    "edited",
    "voided",
    "locked",
    "unlocked",
    "accepted",
    "excluded",
    "included",
    "planned",
)
