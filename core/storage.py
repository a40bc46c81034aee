"""Static files as WhiteNoise serves them, each file's URL worked out once per process.

``{% static %}`` asks the storage for a URL: the manifest's hashed name, joined to
``STATIC_URL`` and quoted, some fifteen microseconds, and every page asks for six of them (issue
17).  The manifest is written by ``collectstatic`` before a deployment's processes start and read
once when each does, so a name's URL cannot change while a process runs: it is kept.  Only names
the manifest holds are kept (any other raises, as before), so the kept URLs are bounded by the
files collected; with ``DEBUG`` on (no hashing) nothing is kept.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFilesStorage(CompressedManifestStaticFilesStorage):  # type: ignore[misc]  # untyped
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._urls: dict[tuple[str, bool], str] = {}

    def url(self, name: Any, force: bool = False) -> str:
        if settings.DEBUG or not isinstance(name, str):
            return str(super().url(name, force))
        found = self._urls.get((name, force))
        if found is None:
            found = self._urls[(name, force)] = str(super().url(name, force))
        return found
