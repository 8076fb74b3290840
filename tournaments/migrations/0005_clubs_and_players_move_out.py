# Club and Player moved to the clubs app (clubs 0001, same tables). The foreign keys
# that pointed at them here now point at clubs.Club / clubs.Player, and the old models
# leave the tournaments state. State only: the database keeps its tables and keys.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0001_initial'),
        # TableSeat.player must stop pointing at tournaments.Player before it goes.
        ('scoring', '0003_tableseat_player_clubs'),
        ('tournaments', '0004_ratings_series'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='tournament',
                    name='club',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to='clubs.club'),
                ),
                migrations.AlterField(
                    model_name='registration',
                    name='player',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='entries', to='clubs.player'),
                ),
                migrations.AlterField(
                    model_name='ratingevent',
                    name='player',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_events', to='clubs.player'),
                ),
                migrations.AlterField(
                    model_name='ratingstate',
                    name='player',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ratings', to='clubs.player'),
                ),
                migrations.DeleteModel(
                    name='Player',
                ),
                migrations.DeleteModel(
                    name='Club',
                ),
            ],
            database_operations=[],
        ),
    ]
