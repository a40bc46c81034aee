"""Development: the embedded default that ``make run`` starts (SQLite, DEBUG on)."""

from config.settings.base import *  # noqa: F403
from config.settings.env import env

DEBUG = env.debug(default=True)

# runserver serves the unhashed files; no collectstatic needed on a fresh checkout.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# No collectstatic here: WhiteNoise finds the files where they live.
STATIC_ROOT = None  # type: ignore[assignment]  # base sets a Path for collectstatic
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
