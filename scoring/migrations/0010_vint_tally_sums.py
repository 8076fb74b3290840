"""Vint tallies computed again from the stored rows where they lack the rubber's side sums
and seats (kept since this migration's commit, so that a save's answer scores from the
tally alone) or the earlier rubbers' seat totals. As in 0009, it asks the game for the
tally computed from the rows, reading the current models (a later change to these tables
squashes it)."""

from django.db import migrations

KEPT = ("sums", "seats", "done")


def tally_refill(apps, schema_editor):
    sessions = apps.get_model("scoring", "TableSession").objects.filter(game="vint")
    stale = [pk for pk, tally in sessions.values_list("pk", "tally") if not _whole(tally)]
    if not stale:
        return  # every Vint tally is whole (and the current models are not read)
    from scoring.games import game_for
    from scoring.models import TableSession

    for session in TableSession.objects.filter(pk__in=stale).select_related("profile_version"):
        tally = dict(game_for("vint").ledger.tally_compute(session))
        TableSession.objects.filter(pk=session.pk).update(tally=tally)


def _whole(tally) -> bool:
    # The session is over (rubber None) or the tally keeps all a save reads.
    return bool(tally) and (tally.get("rubber") is None or all(k in tally for k in KEPT))


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0009_kop_tally_refill"),
    ]

    operations = [
        migrations.RunPython(tally_refill, migrations.RunPython.noop, elidable=True),
    ]
