"""Tests: production-like behaviour (DEBUG off) with a fast password hasher.

``DATABASE_URL`` is respected, so the same suite runs on SQLite and on PostgreSQL.
"""

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
STATIC_ROOT = None
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
