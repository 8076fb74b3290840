# Clubs own their things (issue 26). Every table session, tournament, series and custom
# rule profile gets the club whose directors manage it, and today's roles, which were
# site-wide groups, become roles in every existing club: an installation keeps working
# as it did (every director still directs everything there is), and from now on each
# new club's directors are named for that club alone.

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import OuterRef, Subquery

DIRECTOR, SCORER = "director", "scorer"
GROUPS = {"directors": DIRECTOR, "scorers": SCORER}


def _first_club(apps, db, needed):
    Club = apps.get_model("clubs", "Club")
    club = Club.objects.using(db).order_by("pk").first()
    if club is None and needed:
        club = Club.objects.using(db).create(name="Club")
    return club


def owners(apps, schema_editor):
    db = schema_editor.connection.alias
    Tournament = apps.get_model("tournaments", "Tournament")
    Series = apps.get_model("tournaments", "Series")
    SeriesTournament = apps.get_model("tournaments", "SeriesTournament")
    RoundTable = apps.get_model("tournaments", "RoundTable")
    TableSession = apps.get_model("scoring", "TableSession")
    TableSeat = apps.get_model("scoring", "TableSeat")
    RuleProfile = apps.get_model("scoring", "RuleProfile")
    Membership = apps.get_model("clubs", "Membership")
    Group = apps.get_model("auth", "Group")

    needed = (
        Tournament.objects.using(db).filter(club__isnull=True).exists()
        or TableSession.objects.using(db).exists()
        or Series.objects.using(db).exists()
        or RuleProfile.objects.using(db).filter(builtin=False).exists()
    )
    first = _first_club(apps, db, needed)
    if first is not None:
        Tournament.objects.using(db).filter(club__isnull=True).update(club=first)
        # A tournament's table belongs to its tournament's club; a club session to its
        # seated players' club (seat 1's); anything else to the first club.
        TableSession.objects.using(db).filter(club__isnull=True).update(
            club=Subquery(
                RoundTable.objects.using(db)
                .filter(session=OuterRef("pk"))
                .values("round__tournament__club")[:1]
            )
        )
        TableSession.objects.using(db).filter(club__isnull=True).update(
            club=Subquery(
                TableSeat.objects.using(db)
                .filter(session=OuterRef("pk"))
                .order_by("seat")
                .values("player__club")[:1]
            )
        )
        TableSession.objects.using(db).filter(club__isnull=True).update(club=first)
        Series.objects.using(db).filter(club__isnull=True).update(
            club=Subquery(
                SeriesTournament.objects.using(db)
                .filter(series=OuterRef("pk"))
                .order_by("pk")
                .values("tournament__club")[:1]
            )
        )
        Series.objects.using(db).filter(club__isnull=True).update(club=first)
        RuleProfile.objects.using(db).filter(builtin=False, club__isnull=True).update(club=first)

    clubs = list(apps.get_model("clubs", "Club").objects.using(db).values_list("pk", flat=True))
    rows = []
    for group in Group.objects.using(db).filter(name__in=GROUPS):
        for user_id in group.user_set.values_list("pk", flat=True):
            rows += [Membership(user_id=user_id, club_id=c, role=GROUPS[group.name]) for c in clubs]
    Membership.objects.using(db).bulk_create(rows, ignore_conflicts=True)


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("clubs", "0003_memberships"),
        ("scoring", "0013_club_owners"),
        ("tournaments", "0021_event_files"),
    ]

    operations = [
        migrations.AddField(
            model_name="series",
            name="club",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="clubs.club",
            ),
        ),
        migrations.RunPython(owners, migrations.RunPython.noop),
    ]
