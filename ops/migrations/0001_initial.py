# The worker heartbeat and the task outbox move here from ``tournaments`` with their
# tables and rows: their tables were made by tournaments' migrations 0002 and 0007 and
# keep their names (``Meta.db_table``), so this migration changes Django's state only.
# ``tournaments`` 0015 drops the two models from its own state after this one.

from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = []

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='TaskOutbox',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('task', models.CharField(max_length=200)),
                        ('args', models.JSONField(default=list)),
                        ('tournament_id', models.BigIntegerField(db_index=True, null=True)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                    ],
                    options={
                        'db_table': 'tournaments_taskoutbox',
                        'ordering': ['pk'],
                    },
                ),
                migrations.CreateModel(
                    name='WorkerHeartbeat',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('beat_at', models.DateTimeField()),
                        ('hostname', models.CharField(max_length=200)),
                        ('token', models.CharField(max_length=64, unique=True)),
                    ],
                    options={
                        'db_table': 'tournaments_workerheartbeat',
                        'ordering': ['-beat_at'],
                        'get_latest_by': 'beat_at',
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
