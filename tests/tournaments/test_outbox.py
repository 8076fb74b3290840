"""Tasks that cannot be queued (broker down) wait in the database outbox; none is lost."""

from __future__ import annotations

import pytest

from ops import outbox
from ops.models import TaskOutbox

pytestmark = pytest.mark.django_db


def test_a_task_that_cannot_be_queued_waits_in_the_outbox_and_goes_when_the_broker_is_back(
    broker, django_capture_on_commit_callbacks, client, kop_tournament
):
    from ops.tasks import worker_heartbeat
    from tournaments.services import results_changed

    tournament = kop_tournament
    with django_capture_on_commit_callbacks(execute=True):
        results_changed(tournament=tournament)  # no exception: the deal save goes through
    rows = list(TaskOutbox.objects.values_list("task", "args"))
    assert rows == [
        ("tournaments.tasks.standings_recompute", [tournament.pk, tournament.results_version]),
        ("tournaments.tasks.ratings_update", [tournament.pk]),
    ]
    page = client.get(f"/tournaments/{tournament.slug}/standings/")
    assert b"standings will update later" in page.content

    broker.up = True
    worker_heartbeat()  # the worker's periodic beat drains the outbox
    assert TaskOutbox.objects.count() == 0
    assert [name for name, _ in broker.sent] == [
        "tournaments.tasks.standings_recompute",
        "tournaments.tasks.ratings_update",
    ]
    assert (
        b"standings will update later"
        not in client.get(f"/tournaments/{tournament.slug}/standings/").content
    )


def test_the_next_successful_enqueue_sends_what_waited(
    broker, django_capture_on_commit_callbacks, kop_tournament
):
    from tournaments.services import results_changed

    tournament = kop_tournament
    with django_capture_on_commit_callbacks(execute=True):
        results_changed(tournament=tournament)
    assert TaskOutbox.objects.count() == 2
    broker.up = True
    outbox._state["down_until"] = 0.0  # the quiet period after the failure is over
    with django_capture_on_commit_callbacks(execute=True):
        results_changed(tournament=tournament)
    assert TaskOutbox.objects.count() == 0
    # Two from this change, then the two that waited.
    assert len(broker.sent) == 4
