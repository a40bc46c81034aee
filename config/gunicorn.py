"""gunicorn settings of the web process: ``gunicorn -c config/gunicorn.py config.wsgi``.

The app is loaded once in the master (``preload_app``) and warmed there (:mod:`config.warm`)
before any worker is forked, so a new worker (at start, after a deploy, or replacing one that
reached ``max_requests``) serves its first request as fast as its thousandth.  Bind address and
worker count stay on the command line (Procfile).
"""

from __future__ import annotations

import gc
from typing import Any

preload_app = True
max_requests = 2000
max_requests_jitter = 200


def when_ready(server: Any) -> None:
    from config.warm import warm

    for line in warm():
        server.log.info("warm: %s", line)
    # What the master holds now (the app, templates, stored tables, the engine's dealer work)
    # lives as long as every worker: move it out of the collector's sight, so that a full
    # collection in a worker scans only what requests made (Python's advice for pre-fork
    # servers; it also keeps those pages shared after the fork).
    gc.collect()
    gc.freeze()
    server.log.info("warm: %d objects frozen out of the garbage collector", gc.get_freeze_count())


def post_fork(server: Any, worker: Any) -> None:
    # The master closed its database connections after warming; drop any cache client's
    # sockets too, so that no two processes share one.
    from django.core.cache import caches

    for cache in caches.all(initialized_only=True):
        cache.close()
