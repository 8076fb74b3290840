"""A Redis cache that fails soft.

The cache only ever holds what the database can answer again (the role sets of
``clubs.roles``), so with Redis unreachable a read is a miss and a write is dropped:
the hall goes on at database speed instead of answering 500. After a failure the
cache stays quiet for ``RETRY_AFTER`` seconds, so each request does not pay a
connection timeout; the failure is logged once per quiet period.

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
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

RETRY_AFTER = 5.0


class _OneClientPerPool(RedisCacheClient):
    """Django's client makes a new ``redis.Redis`` for every call, and making one costs
    more than a shared standings page's GET; one per connection pool serves every call (a
    client is safe across threads: its pool hands each command a connection)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        django: Any = self  # Django's client's own helpers (its stubs leave them out)
        index = django._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._clients[index] = django._client(
                connection_pool=django._get_connection_pool(write)
            )
        return client


class FailSoftRedisCache(RedisCache):
    _down_until = 0.0

    def __init__(self, server: Any, params: Any) -> None:
        super().__init__(server, params)
        self._class = _OneClientPerPool

    def _soft(self, default: Any, call: Callable[[], Any]) -> Any:
        if time.monotonic() < self._down_until:
            return default
        try:
            return call()
        except (RedisError, OSError) as exc:
            self._down_until = time.monotonic() + RETRY_AFTER
            log.warning("cache unreachable, working without it for %ss: %s", RETRY_AFTER, exc)
            return default

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._soft(
            False, lambda: super(FailSoftRedisCache, self).add(key, value, timeout, version)
        )

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._soft(
            default, lambda: super(FailSoftRedisCache, self).get(key, default, version)
        )

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        self._soft(None, lambda: super(FailSoftRedisCache, self).set(key, value, timeout, version))

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._soft(
            False, lambda: super(FailSoftRedisCache, self).touch(key, timeout, version)
        )

    def delete(self, key: Any, version: Any = None) -> Any:
        return self._soft(False, lambda: super(FailSoftRedisCache, self).delete(key, version))

    def get_many(self, keys: Any, version: Any = None) -> Any:
        return self._soft({}, lambda: super(FailSoftRedisCache, self).get_many(keys, version))

    def has_key(self, key: Any, version: Any = None) -> Any:
        return self._soft(False, lambda: super(FailSoftRedisCache, self).has_key(key, version))

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._soft(
            list(data), lambda: super(FailSoftRedisCache, self).set_many(data, timeout, version)
        )

    def delete_many(self, keys: Any, version: Any = None) -> Any:
        return self._soft(None, lambda: super(FailSoftRedisCache, self).delete_many(keys, version))

    def clear(self) -> Any:
        return self._soft(False, lambda: super(FailSoftRedisCache, self).clear())


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
