"""Tournament tables are named at display time, in the reader's language: drop the
English titles stored by earlier versions (only those that are exactly the old pattern)."""

from django.db import migrations


def forwards(apps, schema_editor):
    RoundTable = apps.get_model("tournaments", "RoundTable")
    TableSession = apps.get_model("scoring", "TableSession")
    for table in RoundTable.objects.select_related("round__tournament", "session"):
        old = f"{table.round.tournament.name}: round {table.round.number}, table {table.number}"
        if table.session.title == old:
            TableSession.objects.filter(pk=table.session_id).update(title="")


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0008_rating_sources_by_session")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
