"""Fixtures of the articles tests: the house figures computed once per test session, stored as
``manage.py bootstrap`` stores them."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from articles import figures, selectors
from blackjack import Chart, MemoryStore, Move
from blackjack.counting import HI_LO, IndexPlay, IndexTable, study
from computed import selectors as trainer_selectors
from computed.store import DatabaseTableStore
from computed.tables import chart_key
from tests.trainer.conftest import THOTH, thoth_docs

_DOC: dict[str, Any] = {}


# The index plays the counting article quotes, as a stored Hi-Lo table holds them (the
# engine's own indices are checked against published ones in tests/blackjack/test_counting.py).
COUNT_PLAYS = (
    IndexPlay("hard", 16, 10, Move.HIT, Move.STAND, 0, True, 0.08, 0.00576, 0.0031),
    IndexPlay("hard", 15, 10, Move.HIT, Move.STAND, 4, True, 4.2, 0.0006, 0.0044),
    IndexPlay("hard", 12, 3, Move.HIT, Move.STAND, 3, True, 2.7, 0.0019, 0.0057),
    IndexPlay("insurance", 0, 1, Move.DECLINE, Move.INSURE, 3, True, 3.33, 0.00137, 0.002),
)
COUNT_ROUNDS = 3000


def count_table() -> IndexTable:
    return IndexTable(figures.HOUSE, HI_LO, 208, COUNT_PLAYS, {0: 1.0})


def count_doc() -> dict[str, Any]:
    """A small simulation of the house rules with the table above, stored as the worker
    stores it (``figures.count_compute``), once per session."""
    if "count" not in _DOC:
        chart = Chart.from_dict(thoth_docs()["chart"])
        doc = study(figures.HOUSE, chart, count_table(), rounds=COUNT_ROUNDS, seed=7)
        _DOC["count"] = {**doc, "figures": figures.count_figures(doc, count_table())}
    return copy.deepcopy(_DOC["count"])


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
    figures.count_store(rules=figures.HOUSE, doc=count_doc())
    return f
