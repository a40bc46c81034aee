"""The engine's EVs against a stored reference, to 1e-12.

``ev_reference.json`` was written by the engine before its speed-up (integer-coded shoes,
grouped dealer batches); any later change to how the numbers are computed must keep them.
Regenerate only for a change that is meant to move the numbers:
``python tests/blackjack/test_ev_reference.py``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import pytest

import blackjack as ev
from blackjack import PRESETS, Move, Rules

REFERENCE = Path(__file__).with_name("ev_reference.json")

RULE_SETS: dict[str, Rules] = {
    **{f"{name}-{decks}": replace(PRESETS[name], decks=decks)
       for name in sorted(PRESETS) for decks in (6, 8)},
    "one-deck": Rules(decks=1),
    "two-deck-h17-rsa-hsa": Rules(decks=2, dealer_hits_soft_17=True, resplit_aces=True,
                                  hit_split_aces=True),
}  # fmt: skip

# (hand, up, keyword arguments of analyze)
SITUATIONS: list[tuple[tuple[int, ...], int, dict[str, object]]] = [
    ((2, 2), 2, {}),
    ((3, 3), 1, {}),
    ((8, 8), 10, {}),
    ((1, 1), 6, {}),
    ((9, 9), 1, {}),
    ((10, 10), 5, {}),
    ((10, 6), 10, {}),
    ((1, 7), 9, {}),
    ((5, 6), 1, {}),
    ((2, 3), 6, {}),
    ((1, 10), 1, {}),
    ((4, 4), 5, {"removed": (10, 10, 5, 3)}),
    ((7, 4), 7, {"removed": (1, 1, 2)}),
    ((6, 6), 4, {"split_hands": 2, "from_split": True}),
    ((1, 5), 3, {"split_hands": 2, "from_split": True}),
    ((2, 5, 4), 10, {}),
]


class HitBelowSeventeen:
    """A simple chart: split eights and aces, double 11, hit below 17."""

    def move_for(self, hand: Sequence[int], up: int, legal: frozenset[Move]) -> Move:
        if Move.SPLIT in legal and hand[0] in (1, 8):
            return Move.SPLIT
        if Move.DOUBLE in legal and sum(hand) == 11:
            return Move.DOUBLE
        total, soft = ev.points_total(hand)
        return self.move_for_total(total, soft, up, legal)

    def move_for_total(self, total: int, soft: bool, up: int, legal: frozenset[Move]) -> Move:
        return Move.HIT if total < 17 and Move.HIT in legal else Move.STAND


CHART_HANDS: list[tuple[tuple[int, ...], int]] = [((8, 8), 6), ((1, 1), 10), ((5, 6), 9),
                                                  ((10, 3), 2)]  # fmt: skip


def compute(name: str) -> Iterator[tuple[str, float]]:
    """(label, value) of every figure the reference holds for one rule set, from cold."""
    rules = RULE_SETS[name]
    ev.clear_caches()
    for hand, up, kw in SITUATIONS:
        a = ev.analyze(rules, hand, up, **kw)  # type: ignore[arg-type]
        label = f"{hand} vs {up} {sorted(kw.items())}"
        for move, value in a.ev.items():
            yield f"{label} {move}", value
        if a.insurance is not None:
            yield f"{label} insurance", a.insurance
    chart = HitBelowSeventeen()
    for hand, up in CHART_HANDS:
        yield f"round_ev {hand} vs {up}", ev.round_ev(rules, hand, up)
        yield f"round_ev {hand} vs {up} chart", ev.round_ev(rules, hand, up, chart)


@pytest.fixture(scope="module")
def reference() -> dict[str, dict[str, float]]:
    data: dict[str, dict[str, float]] = json.loads(REFERENCE.read_text())
    return data


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_evs_match_the_reference(name, reference):
    got = dict(compute(name))
    expected = reference[name]
    assert got.keys() == expected.keys()
    for label, value in expected.items():
        assert got[label] == pytest.approx(value, rel=0, abs=1e-12), label


if __name__ == "__main__":
    REFERENCE.write_text(
        json.dumps({name: dict(compute(name)) for name in sorted(RULE_SETS)}, indent=1) + "\n"
    )
