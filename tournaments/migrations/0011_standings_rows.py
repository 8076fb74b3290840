"""A snapshot's standings rows in their own table, so a page reads one page of them.
Each tournament's newest snapshot gets its rows here; older ones are never shown."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import Max

from clubs.selectors import fold_name

KINDS = ("individual", "pairs", "teams")


def fill(apps, schema_editor):
    Snapshot = apps.get_model("tournaments", "StandingsSnapshot")
    Row = apps.get_model("tournaments", "StandingsRow")
    newest = Snapshot.objects.values("tournament_id").annotate(v=Max("results_version"))
    for n in newest:
        snapshot = Snapshot.objects.get(tournament_id=n["tournament_id"], results_version=n["v"])
        rows = [
            Row(
                snapshot=snapshot,
                kind=kind,
                position=position,
                number=row.get("number"),
                folded=fold_name(str(row.get("name") or row.get("group") or ""))[:300],
                data={k: v for k, v in row.items() if not isinstance(v, list | dict)},
            )
            for kind in KINDS
            for position, row in enumerate((snapshot.data or {}).get(kind) or [])
        ]
        Row.objects.bulk_create(rows, batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0010_snapshot_json_lz4"),
    ]

    operations = [
        migrations.CreateModel(
            name="StandingsRow",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("kind", models.CharField(max_length=12)),
                ("position", models.PositiveIntegerField()),
                ("number", models.PositiveIntegerField(null=True)),
                ("folded", models.CharField(max_length=300)),
                ("data", models.JSONField()),
                (
                    "snapshot",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="rows",
                        to="tournaments.standingssnapshot",
                    ),
                ),
            ],
            options={
                "indexes": [
                    models.Index(fields=["snapshot", "kind", "number"], name="standings_row_number")
                ],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("snapshot", "kind", "position"),
                        name="standings_row_position_unique",
                    )
                ],
            },
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
