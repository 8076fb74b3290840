"""Kop and Baśka tallies computed again for the sessions with a struck-out deal: an
imported scoresheet's struck-out deals were counted in its tally (the pad's totals) until
the fix of this migration's commit. As in 0006, it asks the game for the tally computed
from the stored rows, reading the current models (a later change to these tables squashes
it).

Its filling moved to ``0014_tallies_on_the_current_schema`` (it read the current models,
which name columns a database migrated from an old release does not have yet at this
step: issue 28's upgrade test).
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0008_session_revision"),
    ]

    operations: list[migrations.operations.base.Operation] = []
