"""Vint: one package for the Estonian rubber game.

Vocabulary (``scoring/engines/vint/`` has the game's own terms): a Vint **session** is
one ``TableSession`` with game "vint": four players A..D (``TableSeat`` 1..4) and up to
three **rubbers**, each with its own seating (``VintRubber``). A rubber is **started** once
it has a row, i.e. a deal was saved in it or it came from an imported sheet. The **current
rubber** is the one the next deal goes to: the last started rubber while it is not
finished, then the next one; when rubber 3 is finished the session is **complete**. A
session's **tally** (``VintTally``) is the current rubber's state, its side sums and seats,
and the seat totals of the rubbers before it: a save scores its deal on it without
reading any deal.

Modules, by who calls them: ``entry`` (the pad, with ``forms``), ``ledger`` (the writes),
``sheet`` (the sheet, history, exports, import), ``results`` (what tournaments read);
``board`` builds the rubbers as the pad and the sheet show them, ``deals`` turns facts,
engine deals and rows into one another, ``labels`` says them in words; ``game`` puts the
parts together and registers Vint.
"""
