"""Tests: production-like behaviour (DEBUG off) with a fast password hasher.

``DATABASE_URL`` is respected, so the same suite runs on SQLite and on PostgreSQL.
"""

import os

from config.settings.base import *  # noqa: F403

DEBUG = False
ALLOWED_HOSTS = ["testserver", "localhost", "127.0.0.1"]
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# The live server of the browser tests serves the unhashed files through staticfiles.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# No collectstatic here: WhiteNoise finds the files where they live.
STATIC_ROOT = None  # type: ignore[assignment]  # base sets a Path for collectstatic
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

# Each test run gets a database and cache namespace of its own, so that two runs at once on one
# PostgreSQL or Redis server (a developer's and a CI's) never drop each other's test database.
_RUN = os.getpid()
if DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3":  # noqa: F405
    _name = DATABASES["default"]["NAME"]  # noqa: F405
    DATABASES["default"]["TEST"] = {"NAME": f"test_{_name}_{_RUN}"}  # noqa: F405
for _cache in CACHES.values():  # noqa: F405
    _cache["KEY_PREFIX"] = f"test{_RUN}"

# The bootstrap's counting job would run here at once, for minutes (tests/articles store
# their own small simulation).
ARTICLES_COUNT_AT_START = False

# Tasks run at once in the test's own thread (one test drives the database backend and its
# worker for real: tests/computed/test_queue_db.py).
TASKS = {
    "default": {
        "BACKEND": "django_tasks.backends.immediate.ImmediateBackend",
        "QUEUES": ["tables"],
    },
    "db": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["tables"]},
}
