"""Rounds stored by the code before the engine's re-lay (December 2026) still load and play on.

``fixtures/rounds-v1.json`` was written by that code (``fixtures/make_rounds_v1.py.txt``): each
case holds a round in mid-play, the moves that follow and the settled round they led to.
"""

import json
from pathlib import Path

import pytest

from blackjack import apply, from_json, to_json

CASES = json.loads((Path(__file__).parent / "fixtures" / "rounds-v1.json").read_text())


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_a_stored_round_loads_and_plays_on_as_before(case):
    state = from_json(case["round"])
    assert to_json(state) == case["round"]
    for move in case["moves"]:
        state = apply(state, move)
    assert to_json(state) == case["final"]
