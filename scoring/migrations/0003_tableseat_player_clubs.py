# TableSeat.player now points at clubs.Player, the same table (tournaments_player) as
# before: state only, the database keeps its foreign key.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0001_initial'),
        ('scoring', '0002_vint_rubbers_and_deals'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='tableseat',
                    name='player',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='clubs.player'),
                ),
            ],
            database_operations=[],
        ),
    ]
