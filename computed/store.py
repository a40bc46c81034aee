r"""Where the computed tables live: ``ComputedTable`` rows, shared by every app server.

Both classes are :class:`blackjack.store.TableStore`\ s (they speak bytes); play mode reads
the charts through :data:`STORE`, which keeps what it read in the process.
"""

from __future__ import annotations

import json
import threading
from typing import Final

from blackjack import TableStore
from computed.models import ComputedTable


class DatabaseTableStore:
    """Keys and JSON documents in ``ComputedTable``; ``blackjack.store`` speaks bytes.

    >>> store = DatabaseTableStore()
    >>> store.put("example-v1-doc", b'{"ev": [0.5, -1]}')
    >>> store.get("example-v1-doc"), store.get("example-v1-missing")
    (b'{"ev": [0.5, -1]}', None)
    """

    def get(self, key: str) -> bytes | None:
        data = ComputedTable.objects.filter(key=key).values_list("data", flat=True).first()
        return None if data is None else json.dumps(data).encode()

    def put(self, key: str, data: bytes) -> None:
        ComputedTable.objects.update_or_create(key=key, defaults={"data": json.loads(data)})


class ProcessTableStore:
    """The database store with every document kept in this process once read, so
    that ``basic_chart(rules, store=...)`` costs a query only the first time per process.

    >>> from blackjack import MemoryStore
    >>> store = ProcessTableStore(MemoryStore())
    >>> store.put("chart-v1-x", b"{}")
    >>> store.backend.data.clear()
    >>> store.get("chart-v1-x"), store.get("missing")
    (b'{}', None)
    """

    def __init__(self, backend: TableStore | None = None) -> None:
        self.backend: TableStore = backend if backend is not None else DatabaseTableStore()
        self._kept: dict[str, bytes] = {}
        self._lock = threading.Lock()

    def get(self, key: str) -> bytes | None:
        data = self._kept.get(key)
        if data is None:
            data = self.backend.get(key)
            if data is not None:  # an absent table may be stored later: ask again then
                with self._lock:
                    self._kept[key] = data
        return data

    def put(self, key: str, data: bytes) -> None:
        self.backend.put(key, data)
        with self._lock:
            self._kept[key] = data


STORE: Final = ProcessTableStore()
