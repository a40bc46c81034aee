"""The Redis cache: Django's own, keeping one redis-py client per connection pool.

Django's ``RedisCacheClient.get_client`` makes a new ``redis.Redis`` for every call, and each
copies redis-py's table of some 170 reply handlers: in a signed-in request (its session, its
user) that cost more than the GETs it sent (issue 17). A client is safe to share between
threads, as its connections come from the pool, which stays Django's; after a fork the pool
drops the parent's connections itself.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends import redis


class RedisCacheClient(redis.RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        django: Any = self  # Django's private helpers, which its type stubs leave out
        pool = django._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = django._client(connection_pool=pool)
        return client


class RedisCache(redis.RedisCache):
    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
