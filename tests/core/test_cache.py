"""The Redis cache keeps one redis-py client per pool (core/cache.py)."""

import os
import threading

import pytest

from core.cache import RedisCache

URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:1/0")


def test_one_client_per_pool():
    backend = RedisCache(URL, {})
    client = backend._cache
    assert client.get_client(write=True) is client.get_client(write=False)


@pytest.mark.postgres  # the PostgreSQL phase is the one with Redis (.ci/run)
def test_the_shared_client_serves_threads_at_once():
    assert "REDIS_URL" in os.environ, "the PostgreSQL phase runs with Redis"
    backend = RedisCache(URL, {"KEY_PREFIX": f"test-cache-{os.getpid()}"})
    failures = []

    def work(n):
        try:
            for i in range(50):
                backend.set(f"k{n}-{i}", {"n": n, "i": i}, 30)
                assert backend.get(f"k{n}-{i}") == {"n": n, "i": i}
                backend.delete(f"k{n}-{i}")
        except Exception as error:  # reported below, in the test's own thread
            failures.append(error)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
