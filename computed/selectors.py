"""Reads of the computed tables: a rule set's tables (parsed once per process), its job."""

from __future__ import annotations

import threading
from collections import OrderedDict

from blackjack import Rules
from computed.models import ChartJob
from computed.store import DatabaseTableStore
from computed.tables import Tables, drill_key

_TABLES: OrderedDict[str, Tables] = OrderedDict()
_TABLES_LOCK = threading.Lock()
TABLES_KEPT = 16


def tables_get(rules: Rules) -> Tables | None:
    """The stored tables of ``rules``, parsed once per process, or ``None`` if not computed."""
    key = drill_key(rules)
    with _TABLES_LOCK:
        tables = _TABLES.get(key)
        if tables is not None:
            _TABLES.move_to_end(key)
            return tables
    tables = Tables.load(DatabaseTableStore(), rules)
    if tables is None:
        return None
    with _TABLES_LOCK:
        _TABLES[key] = tables
        while len(_TABLES) > TABLES_KEPT:
            _TABLES.popitem(last=False)
    return tables


def tables_forget() -> None:
    """Drop the parsed tables kept in this process (tests, after deleting rows)."""
    with _TABLES_LOCK:
        _TABLES.clear()


def chart_job_get(rules: Rules) -> ChartJob | None:
    return ChartJob.objects.filter(rules_key=rules.key()).first()
