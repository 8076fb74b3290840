"""A standings snapshot of a 4,000-player event is 2.4 MB of JSON, written once and read
whole: on PostgreSQL it is kept as ``json`` (the text) rather than ``jsonb`` (parsed into a
binary tree on every write), compressed with lz4 rather than pglz. The compression is left
as it is on PostgreSQL before 14 and on a server built without lz4; SQLite keeps its
JSON text column."""

from django.db import migrations

import tournaments.models

LZ4 = """
DO $$ BEGIN
    ALTER TABLE tournaments_standingssnapshot ALTER COLUMN data SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN NULL;
END $$;
"""


def lz4(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor == "postgresql" and connection.pg_version >= 140000:
        schema_editor.execute(LZ4)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0009_table_titles_at_display")]

    operations = [
        migrations.AlterField(
            model_name="standingssnapshot",
            name="data",
            field=tournaments.models.WrittenJSONField(),
        ),
        migrations.RunPython(lz4, migrations.RunPython.noop),
    ]
