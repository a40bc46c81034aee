"""Where computed tables (charts, house edges) are kept, so no request recomputes them.

A store maps a string key to bytes.  :class:`FileStore` writes each table to its own file with
a temporary file and an atomic rename, so several processes (app servers, workers) can share a
directory without ever reading half a file; Django plugs in a database-backed store with the
same two methods.  Keys name the table kind, the format version and ``Rules.key()``.

>>> store = MemoryStore()
>>> store.put("chart-v1-abc", b"{}")
>>> store.get("chart-v1-abc"), store.get("missing")
(b'{}', None)
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any, Protocol

from blackjack.rules import Rules

# Bump when the stored layout or the mathematics behind it changes: old entries are ignored.
# 2: splits with resplit decisions and the card removal of blackjack.splits (issue 11).
FORMAT_VERSION = 2
CACHE_DIR_ENV = "BLACKJACK_CACHE_DIR"
DEFAULT_CACHE_DIR = Path("var") / "blackjack-cache"

_SAFE_KEY = re.compile(r"^[A-Za-z0-9._-]+$")


class TableStore(Protocol):
    def get(self, key: str) -> bytes | None: ...

    def put(self, key: str, data: bytes) -> None: ...


class MemoryStore:
    """A dict: for tests and for one-process use."""

    def __init__(self) -> None:
        self.data: dict[str, bytes] = {}

    def get(self, key: str) -> bytes | None:
        return self.data.get(key)

    def put(self, key: str, data: bytes) -> None:
        self.data[key] = data


class FileStore:
    """One file per key in ``directory`` (created on first write)."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)

    def _path(self, key: str) -> Path:
        if not _SAFE_KEY.match(key):
            raise ValueError(f"unsafe store key: {key!r}")
        return self.directory / f"{key}.json"

    def get(self, key: str) -> bytes | None:
        try:
            return self._path(key).read_bytes()
        except FileNotFoundError:
            return None

    def put(self, key: str, data: bytes) -> None:
        path = self._path(key)
        self.directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=f".{key}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)  # atomic: readers see the old file or the new one
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


def default_store() -> FileStore:
    """The directory named by ``BLACKJACK_CACHE_DIR``, else ``var/blackjack-cache`` here."""
    return FileStore(os.environ.get(CACHE_DIR_ENV) or DEFAULT_CACHE_DIR)


def table_key(kind: str, rules: Rules) -> str:
    """``kind``, the format version and the rule set's digest.

    >>> table_key("chart", Rules()).startswith("chart-v2-")
    True
    """
    return f"{kind}-v{FORMAT_VERSION}-{rules.key()}"


def load_json(store: TableStore | None, key: str) -> Any:
    """The stored JSON value, or ``None`` when absent or unreadable (then it is recomputed)."""
    if store is None:
        return None
    data = store.get(key)
    if data is None:
        return None
    try:
        return json.loads(data)
    except ValueError:
        return None


def save_json(store: TableStore | None, key: str, value: Any) -> None:
    if store is not None:
        store.put(key, json.dumps(value, sort_keys=True).encode())
