"""Fixtures of the trainer tests: the house rules' tables, computed once per test session."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from blackjack.rules import PRESETS
from trainer import selectors, services
from trainer.charts import compute_tables

THOTH = PRESETS["thoth"]
_DATA: dict[str, Any] = {}


def thoth_data() -> dict[str, Any]:
    if "thoth" not in _DATA:
        _DATA["thoth"] = compute_tables(THOTH)
    return copy.deepcopy(_DATA["thoth"])


@pytest.fixture(autouse=True)
def _no_threads_and_fresh_cache(monkeypatch):
    monkeypatch.setattr(services, "RUN_JOBS_IN_THREADS", False)
    selectors.tables_forget()
    yield
    selectors.tables_forget()


@pytest.fixture
def thoth_tables(db):
    """The thoth tables stored as ``make run``'s bootstrap stores them."""
    services.tables_store(rules=THOTH, data=thoth_data())
    tables = selectors.tables_get(THOTH)
    assert tables is not None
    return tables
