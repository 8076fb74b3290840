"""Kop (Greater Poland) and Baśka (Kashubia): one package, one engine, two games.

Vocabulary (``scoring/engines/kop/`` has the game's own): a deal's **facts** are what
the scorer gave (contract, declarers by seat, doublings as a count or as the seats in
order, the declarers' card points), stored as in the scoresheet JSON format; the engine
computes the **value** and the four **payments** (seat 1..4), which sum to zero. A
player's **small points** at a table are their payments summed over the counted (not
voided) deals. A session's **tally** (``KopTally``) keeps those sums, how many deals
count and the last deal number, so no write sums the session's deals again.

Modules, by who calls them: ``entry`` (the pad and the paper pad, with ``forms``),
``ledger`` (the writes), ``sheet`` (the sheet, history, exports, import), ``results``
(what tournaments read); ``deals`` turns facts, engine deals and rows into one another;
``game`` puts the parts together and registers Kop and Baśka.
"""
