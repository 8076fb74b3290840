"""The outbox sends a task by its Celery name, keeps it in the database while the broker
is down, and sends what it kept once the broker answers (ops knows no app: the tasks
here are its own)."""

from __future__ import annotations

import pytest

from ops import outbox
from ops.models import TaskOutbox, WorkerHeartbeat

pytestmark = pytest.mark.django_db

TASK = "ops.tasks.heartbeat_record"


def test_without_a_broker_the_named_task_runs_in_process(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        outbox.enqueue_on_commit(TASK, "in-process")
    assert WorkerHeartbeat.objects.filter(token="in-process").exists()
    assert not TaskOutbox.objects.exists()


def test_a_task_is_sent_only_after_the_commit(broker, django_capture_on_commit_callbacks):
    broker.up = True
    with django_capture_on_commit_callbacks() as callbacks:
        outbox.enqueue_on_commit(TASK, "later", tournament_id=7)
    assert broker.sent == []
    callbacks[0]()
    assert broker.sent == [(TASK, ["later"])]


def test_a_task_the_broker_refuses_waits_in_the_outbox_until_it_answers(broker):
    assert outbox.enqueue(TASK, "a", tournament_id=7) is False
    # The quiet period after a failure: stored at once, the broker is not asked.
    assert outbox.enqueue(TASK, "a", tournament_id=7) is False
    assert outbox.enqueue(TASK, "b") is False
    assert broker.tried == 1
    assert list(TaskOutbox.objects.values_list("task", "args", "tournament_id")) == [
        (TASK, ["a"], 7),
        (TASK, ["a"], 7),
        (TASK, ["b"], None),
    ]
    assert outbox.outbox_pending(tournament_id=7)
    assert not outbox.outbox_pending(tournament_id=8)

    broker.up = True
    assert outbox.outbox_drain() == 3
    assert broker.sent == [(TASK, ["a"]), (TASK, ["b"])]  # the same task once
    assert not TaskOutbox.objects.exists()
    assert not outbox.outbox_pending(tournament_id=7)


def test_the_worker_heartbeat_sends_what_waited(broker):
    from ops.tasks import worker_heartbeat

    outbox.enqueue(TASK, "kept")
    broker.up = True
    worker_heartbeat()
    assert broker.sent == [(TASK, ["kept"])]
    assert not TaskOutbox.objects.exists()
    assert WorkerHeartbeat.objects.filter(token__startswith="beat:").count() == 1
