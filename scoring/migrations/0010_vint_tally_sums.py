"""Vint tallies computed again from the stored rows where they lack the rubber's side sums
and seats (kept since this migration's commit, so that a save's answer scores from the
tally alone) or the earlier rubbers' seat totals. As in 0009, it asks the game for the
tally computed from the rows, reading the current models (a later change to these tables
squashes it).

Its filling moved to ``0014_tallies_on_the_current_schema`` (it read the current models,
which name columns a database migrated from an old release does not have yet at this
step: issue 28's upgrade test).
"""

from django.db import migrations

class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0009_kop_tally_refill"),
    ]

    operations: list[migrations.operations.base.Operation] = []
