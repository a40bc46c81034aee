"""The house rules' computed tables, computed once per test session, for every app's tests."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from blackjack import PRESETS, MemoryStore, load_json
from computed import selectors, services
from computed.tables import chart_key, compute_tables

THOTH = PRESETS["thoth"]
_DATA: dict[str, Any] = {}


def thoth_docs() -> dict[str, Any]:
    """``{"data": the drill document, "chart": the chart document}`` of the house rules."""
    if "thoth" not in _DATA:
        store = MemoryStore()
        data = compute_tables(THOTH, store=store)
        _DATA["thoth"] = {"data": data, "chart": load_json(store, chart_key(THOTH))}
    return copy.deepcopy(_DATA["thoth"])


def docs_for(rules) -> dict[str, Any]:
    """The thoth documents relabelled as another rule set's (for tests of the plumbing)."""
    docs = thoth_docs()
    docs["data"]["rules"] = docs["chart"]["rules"] = rules.to_dict()
    return docs


@pytest.fixture(autouse=True)
def _no_threads_and_fresh_cache(monkeypatch):
    selectors.tables_forget()
    yield
    selectors.tables_forget()


@pytest.fixture
def thoth_tables(db):
    """The thoth tables stored as ``make run``'s bootstrap stores them."""
    services.tables_store(rules=THOTH, **thoth_docs())
    tables = selectors.tables_get(THOTH)
    assert tables is not None
    return tables
