"""Session tallies computed from the stored rows, once every table they are computed from
has its current columns: what 0006 (fill), 0009 (Kop and Baśka sessions with a struck-out
deal) and 0010 (Vint tallies without the rubber's side sums and seats) did at their step.

Computing a tally asks the game (``Game.tally_compute``: a Vint tally replays each rubber
through the engine), which reads the current models; at those steps a database from an
older release lacked columns the current models name (``scoring_tablesession.club_id``,
``tournaments_player.person_id``) and the upgrade failed. Here, after the schema changes of
the tables a tally reads (scoring's and the players'), it runs on any database. On a
database that had run them already it finds no empty or partial tally, and computes the
struck-out sessions' again to the same values.
"""

from django.db import migrations

KEPT = ("sums", "seats", "done")


def tallies_compute(apps, schema_editor):
    sessions = apps.get_model("scoring", "TableSession").objects
    deals = apps.get_model("scoring", "KopDeal").objects
    stale = {
        pk
        for pk, game, tally in sessions.values_list("pk", "game", "tally")
        if not tally or (game == "vint" and not _whole(tally))
    }
    stale |= set(deals.filter(voided=True).values_list("session_id", flat=True))
    if not stale:
        return  # nothing to compute (and the current models are not read)
    from scoring.games import game_for
    from scoring.models import TableSession

    rows = TableSession.objects.filter(pk__in=sorted(stale)).select_related("profile_version")
    for session in rows:
        tally = dict(game_for(session.game).ledger.tally_compute(session))
        TableSession.objects.filter(pk=session.pk).update(tally=tally)


def _whole(tally) -> bool:
    # The session is over (rubber None) or the tally keeps all a save reads.
    return tally.get("rubber") is None or all(k in tally for k in KEPT)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0013_club_owners"),
        ("clubs", "0004_persons"),
    ]

    operations = [
        migrations.RunPython(tallies_compute, migrations.RunPython.noop, elidable=True),
    ]
