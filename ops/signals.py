"""Signals ``ops`` sends; the apps listen (``ops`` imports none of them).

``heartbeat`` is sent by every heartbeat: the worker's (celery beat, and once when a worker
starts) and, without a worker, the in-process one (``ops.heartbeat``). A receiver redoes
work that a crash interrupted -- the tournaments re-queue every standings recompute that
never finished. It has no arguments; receivers must be idempotent and quick when there is
nothing to redo.
"""

from __future__ import annotations

from django.dispatch import Signal

heartbeat = Signal()
