"""A standings snapshot of a 4,000-player event is 2.4 MB of JSON: PostgreSQL stores it
compressed with lz4 rather than pglz (a quarter of the write's time less). Left as it is
on SQLite, on PostgreSQL before 14 and on a server built without lz4."""

from django.db import migrations

LZ4 = """
DO $$ BEGIN
    ALTER TABLE tournaments_standingssnapshot ALTER COLUMN data SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN NULL;
END $$;
"""


def forwards(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor == "postgresql" and connection.pg_version >= 140000:
        schema_editor.execute(LZ4)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0009_table_titles_at_display")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
