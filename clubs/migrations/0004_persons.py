# One person, one identity across clubs (issue 26): every register row stands for a
# person. Rows that share a federation id (the licence number the federation issued)
# share one person; every other row gets a person of its own. Nothing else links rows:
# two rows of one name stay two persons until a director merges them.

import django.db.models.deletion
from django.db import migrations, models


def persons(apps, schema_editor):
    db = schema_editor.connection.alias
    Person = apps.get_model("clubs", "Person")
    Player = apps.get_model("clubs", "Player")
    by_licence = {}
    for player in Player.objects.using(db).order_by("pk"):
        licence = player.federation_id.strip()
        person = by_licence.get(licence) if licence else None
        if person is None:
            person = Person.objects.using(db).create(name=player.name, federation_id=licence)
            if licence:
                by_licence[licence] = person
        player.person = person
        player.save(update_fields=["person"])


class Migration(migrations.Migration):

    # After the tournaments' last migration that writes register rows' tables: a
    # database stepped back before it has no persons either.
    dependencies = [
        ("clubs", "0003_memberships"),
        ("tournaments", "0022_club_owners"),
    ]

    operations = [
        migrations.CreateModel(
            name="Person",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=120, verbose_name="name")),
                ("federation_id", models.CharField(blank=True, max_length=40, verbose_name="federation id")),
                ("created_at", models.DateTimeField(auto_now_add=True)),
            ],
            options={
                "verbose_name": "person",
                "verbose_name_plural": "persons",
                "ordering": ["name", "pk"],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("federation_id", ""), _negated=True),
                        fields=("federation_id",),
                        name="person_federation_id_unique",
                    )
                ],
            },
        ),
        migrations.AddField(
            model_name="player",
            name="person",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="players",
                to="clubs.person",
                verbose_name="person",
            ),
        ),
        migrations.RunPython(persons, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="player",
            name="person",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="players",
                to="clubs.person",
                verbose_name="person",
            ),
        ),
    ]
