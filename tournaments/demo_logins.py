"""The demo logins and their published password (README, ``make run``).

``demo_data`` creates them; the system check in ``tournaments.checks`` warns when a
production site still accepts one of these passwords.
"""

from __future__ import annotations

DEMO_DIRECTOR = ("director", "tablescore-demo")
DEMO_SCORER = ("scorer", "tablescore-demo")
DEMO_LOGINS = (DEMO_DIRECTOR, DEMO_SCORER)
