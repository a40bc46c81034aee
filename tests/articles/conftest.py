"""Fixtures of the articles tests: the house figures computed once per test session, stored as
``manage.py bootstrap`` stores them."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from articles import figures, selectors
from blackjack import MemoryStore
from computed import selectors as trainer_selectors
from computed.store import DatabaseTableStore
from computed.tables import chart_key
from tests.trainer.conftest import THOTH, thoth_docs

_DOC: dict[str, Any] = {}


def house_doc() -> dict[str, Any]:
    """The figures document of the house rules, computed by the engine once per session."""
    if "doc" not in _DOC:
        store = MemoryStore()
        _DOC["doc"] = figures.figures_compute(figures.HOUSE, store)
        _DOC["store"] = store
    return copy.deepcopy(_DOC["doc"])


@pytest.fixture(autouse=True)
def _fresh(monkeypatch):
    selectors.forget()
    trainer_selectors.tables_forget()
    yield
    selectors.forget()
    trainer_selectors.tables_forget()


@pytest.fixture
def house_figures(db) -> dict[str, Any]:
    """The house figures, chart and house edge stored (as after ``manage.py bootstrap``)."""
    doc = house_doc()
    figures.figures_store(doc=doc)
    DatabaseTableStore().put(chart_key(THOTH), json.dumps(thoth_docs()["chart"]).encode())
    f = doc["figures"]
    figures.edge_store(rules=figures.HOUSE, basic=f["edge.basic"], cd=f["edge.cd"])
    return f
