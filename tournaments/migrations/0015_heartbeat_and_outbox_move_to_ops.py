# The worker heartbeat and the task outbox now belong to the ``ops`` app, which took them
# over with their tables and rows (``ops`` 0001): this drops them from this app's state
# only; no table is dropped.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0014_ratings_redundant_indexes'),
        ('ops', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name='TaskOutbox'),
                migrations.DeleteModel(name='WorkerHeartbeat'),
            ],
            database_operations=[],
        ),
    ]
