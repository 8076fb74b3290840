"""A Redis cache that fails soft, on django-redis.

django-redis (``django_redis.cache.RedisCache``) keeps one Redis client per server in each
cache object (one a thread), on connection pools shared by the whole process; Django's own
Redis cache makes a client for every call, which costs more than a shared standings
page's GET.

The cache only ever holds what the database can answer again (the role sets of
``clubs.roles``, pages drawn for every reader), so with Redis unreachable a read is a
miss and a write is dropped: the hall goes on at database speed instead of answering 500.
After a failure the cache stays quiet for ``RETRY_AFTER`` seconds, so each request does
not pay a connection timeout; the failure is logged once per quiet period. (django-redis's
own ``IGNORE_EXCEPTIONS`` would ask Redis again on every call and log every failure, so it
stays off: its errors come here.)

Pages drawn once for every reader are also kept in each process's memory
(``page_copy``), in front of the shared cache.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

from django.core.cache import cache, caches
from django_redis.cache import RedisCache
from django_redis.exceptions import ConnectionInterrupted
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

RETRY_AFTER = 5.0


class FailSoftRedisCache(RedisCache):
    """django-redis's cache whose operations answer a miss (or drop the write) while Redis
    is unreachable, and then leave it alone for ``RETRY_AFTER`` seconds."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self.down_until = 0.0

    def fail_soft(self, default: Any, call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if time.monotonic() < self.down_until:
            return default
        try:
            return call(*args, **kwargs)
        except (RedisError, ConnectionInterrupted, OSError) as exc:
            self.down_until = time.monotonic() + RETRY_AFTER
            log.warning("cache unreachable, working without it for %ss: %s", RETRY_AFTER, exc)
            return default

    def add(self, *args: Any, **kwargs: Any) -> Any:
        return self.fail_soft(False, super().add, *args, **kwargs)

    def get(self, key: Any, default: Any = None, *args: Any, **kwargs: Any) -> Any:
        return self.fail_soft(default, super().get, key, default, *args, **kwargs)

    def set(self, *args: Any, **kwargs: Any) -> Any:
        return self.fail_soft(False, super().set, *args, **kwargs)

    def touch(self, *args: Any, **kwargs: Any) -> Any:
        return self.fail_soft(False, super().touch, *args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        return self.fail_soft(False, super().delete, *args, **kwargs)

    def get_many(self, *args: Any, **kwargs: Any) -> Any:
        return self.fail_soft({}, super().get_many, *args, **kwargs)

    def has_key(self, *args: Any, **kwargs: Any) -> Any:
        return self.fail_soft(False, super().has_key, *args, **kwargs)

    def set_many(self, data: Any, *args: Any, **kwargs: Any) -> Any:
        return self.fail_soft(list(data), super().set_many, data, *args, **kwargs)

    def delete_many(self, *args: Any, **kwargs: Any) -> Any:
        return self.fail_soft(None, super().delete_many, *args, **kwargs)

    def clear(self) -> Any:
        return self.fail_soft(False, super().clear)


# A page drawn once for every reader (the public standings) is kept in this process's
# memory as well as in the shared cache: its key names what it shows (a new results
# version is a new key), so a copy held here is never older than the shared one, and a
# reader's request then costs no round trip to Redis. Pages larger than this are kept
# in the shared cache only (a 4,000-player print page), so the memory held stays small.
PAGE_COPY_LOCAL_MAX = 512 * 1024


def digest(parts: Sequence[str]) -> str:
    """A short digest of what a page shows (its key in ``page_copy``, an ETag)."""
    return hashlib.blake2b("|".join(parts).encode(), digest_size=12).hexdigest()


def page_copy(key: str) -> bytes | None:
    """The shared page stored under ``key`` (its bytes as sent: no encoding per answer):
    this process's copy, else the shared cache's (then kept here too); None if neither
    has it."""
    local = caches["pages"]
    html = local.get(key)
    if html is None:
        html = cache.get(key)
        if html is not None:
            _keep_local(key, html, local.default_timeout)
    return html


def keep_page_copy(key: str, html: bytes, seconds: int) -> None:
    """Store a page drawn for every reader under ``key``, here and in the shared cache."""
    cache.set(key, html, seconds)
    _keep_local(key, html, seconds)


def _keep_local(key: str, html: bytes, seconds: Any) -> None:
    if len(html) <= PAGE_COPY_LOCAL_MAX:
        caches["pages"].set(key, html, seconds)
