"""``TableSession.tally``: the running state a deal save scores against, filled for the
sessions that already have deals.

The filling asks each game for its tally computed from the stored rows
(``Game.tally_compute``), the same function the write path's tests compare with: a
Vint tally needs the engine to replay each rubber, which no historical model can do.
It reads the current models, so it runs as part of this migration only while they are
as here (a later change to these tables squashes it).

Its filling moved to ``0014_tallies_on_the_current_schema`` (it read the current models,
which name columns a database migrated from an old release does not have yet at this
step: issue 28's upgrade test).
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0005_history_actors_and_table_events"),
    ]

    operations = [
        migrations.AddField(
            model_name="tablesession",
            name="tally",
            field=models.JSONField(blank=True, default=dict, editable=False),
        ),
    ]
