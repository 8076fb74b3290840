# Ratings follow the person, not the register row (issue 26): a rating event and a
# rating state are a person's. Each stored one passes to its register row's person
# (clubs 0004_persons). Where one person now stands for rows rated apart (rows sharing a
# federation id), that game's stored ratings are dropped and its run marked never
# computed: the next update (after any acceptance, or `manage.py rebuild_ratings`) rates
# the game from scratch with the rows' games together.

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import Count, OuterRef, Subquery


def to_persons(apps, schema_editor):
    db = schema_editor.connection.alias
    Player = apps.get_model("clubs", "Player")
    RatingEvent = apps.get_model("tournaments", "RatingEvent")
    RatingState = apps.get_model("tournaments", "RatingState")
    RatingSource = apps.get_model("tournaments", "RatingSource")
    RatingRun = apps.get_model("tournaments", "RatingRun")
    person_of = Subquery(Player.objects.filter(pk=OuterRef("player_id")).values("person_id")[:1])
    RatingEvent.objects.using(db).update(person_id=person_of)
    RatingState.objects.using(db).update(person_id=person_of)
    joined = set(
        RatingState.objects.using(db)
        .values("game", "person_id")
        .annotate(rows=Count("pk"))
        .filter(rows__gt=1)
        .values_list("game", flat=True)
    )
    for game in joined:
        RatingState.objects.using(db).filter(game=game).delete()
        RatingSource.objects.using(db).filter(game=game).delete()  # its events go with it
        RatingRun.objects.using(db).filter(game=game).update(computed_at=None, sources=0)


class Migration(migrations.Migration):

    dependencies = [
        ("clubs", "0004_persons"),
        ("tournaments", "0022_club_owners"),
    ]

    operations = [
        migrations.AddField(
            model_name="ratingevent",
            name="person",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="rating_events",
                to="clubs.person",
            ),
        ),
        migrations.AddField(
            model_name="ratingstate",
            name="person",
            field=models.ForeignKey(
                null=True,
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="ratings",
                to="clubs.person",
            ),
        ),
        migrations.RunPython(to_persons, migrations.RunPython.noop),
        migrations.RemoveConstraint(model_name="ratingevent", name="rating_event_unique"),
        migrations.RemoveIndex(model_name="ratingevent", name="rating_event_player"),
        migrations.RemoveConstraint(model_name="ratingstate", name="rating_state_unique"),
        migrations.RemoveField(model_name="ratingevent", name="player"),
        migrations.RemoveField(model_name="ratingstate", name="player"),
        migrations.AlterField(
            model_name="ratingevent",
            name="person",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="rating_events",
                to="clubs.person",
            ),
        ),
        migrations.AlterField(
            model_name="ratingstate",
            name="person",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="ratings",
                to="clubs.person",
            ),
        ),
        migrations.AlterModelOptions(
            name="ratingevent",
            options={"ordering": ["person", "game", "at", "source__session_id"]},
        ),
        migrations.AlterModelOptions(
            name="ratingstate",
            options={"ordering": ["game", "person"]},
        ),
        migrations.AddConstraint(
            model_name="ratingevent",
            constraint=models.UniqueConstraint(
                fields=("source", "person"), name="rating_event_unique"
            ),
        ),
        migrations.AddIndex(
            model_name="ratingevent",
            index=models.Index(fields=["game", "person", "at"], name="rating_event_person"),
        ),
        migrations.AddConstraint(
            model_name="ratingstate",
            constraint=models.UniqueConstraint(fields=("person", "game"), name="rating_state_unique"),
        ),
    ]
