"""A database-backed :class:`blackjack.store.TableStore`: every app server shares the tables."""

from __future__ import annotations

import json

from trainer.models import ComputedTable


class DatabaseTableStore:
    """Keys and JSON documents in ``ComputedTable``; ``blackjack.store`` speaks bytes.

    >>> DatabaseTableStore().__class__.__name__
    'DatabaseTableStore'
    """

    def get(self, key: str) -> bytes | None:
        data = ComputedTable.objects.filter(key=key).values_list("data", flat=True).first()
        return None if data is None else json.dumps(data).encode()

    def put(self, key: str, data: bytes) -> None:
        ComputedTable.objects.update_or_create(key=key, defaults={"data": json.loads(data)})

    def has(self, key: str) -> bool:
        return ComputedTable.objects.filter(key=key).exists()
