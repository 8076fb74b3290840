"""Kop and Baśka tallies computed again for the sessions with a struck-out deal: an
imported scoresheet's struck-out deals were counted in its tally (the pad's totals) until
the fix of this migration's commit. As in 0006, it asks the game for the tally computed
from the stored rows, reading the current models (a later change to these tables squashes
it)."""

from django.db import migrations


def tally_refill(apps, schema_editor):
    deals = apps.get_model("scoring", "KopDeal").objects
    sessions = set(deals.filter(voided=True).values_list("session_id", flat=True))
    if not sessions:
        return  # nothing struck out anywhere (and the current models are not read)
    from scoring.games import game_for
    from scoring.models import TableSession

    for session in TableSession.objects.filter(pk__in=sorted(sessions)):
        tally = dict(game_for(session.game).ledger.tally_compute(session))
        TableSession.objects.filter(pk=session.pk).update(tally=tally)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0008_session_revision"),
    ]

    operations = [
        migrations.RunPython(tally_refill, migrations.RunPython.noop, elidable=True),
    ]
