"""Python's cyclic garbage collector held off for a block (standings and rating runs)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def without_cycle_collection() -> Iterator[None]:
    """The cyclic collector off for a block, then back as it was.

    A standings build or a rating run makes tens of thousands of small objects (rows,
    tuples, deals, matches) and no reference cycles, so each collection it triggers finds
    nothing yet walks the growing heap: an eighth of a 4,000-player standings build, a
    fifth of a ratings rebuild. Plain reference counting still frees everything dropped."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
