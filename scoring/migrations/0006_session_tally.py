"""``TableSession.tally``: the running state a deal save scores against, filled for the
sessions that already have deals.

The filling asks each game for its tally computed from the stored rows
(``Game.tally_compute``), the same function the write path's tests compare with: a
Vint tally needs the engine to replay each rubber, which no historical model can do.
It reads the current models, so it runs as part of this migration only while they are
as here (a later change to these tables squashes it).
"""

from django.db import migrations, models


def tally_fill(apps, schema_editor):
    if not apps.get_model("scoring", "TableSession").objects.exists():
        return  # a fresh database: nothing to fill (and the current models are not read)
    from scoring.games import game_for
    from scoring.models import TableSession

    for session in TableSession.objects.select_related("profile_version").iterator():
        tally = dict(game_for(session.game).ledger.tally_compute(session))
        TableSession.objects.filter(pk=session.pk).update(tally=tally)


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
        migrations.RunPython(tally_fill, migrations.RunPython.noop, elidable=True),
    ]
