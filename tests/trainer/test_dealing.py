from collections import Counter
from random import Random

import pytest

from blackjack import PRESETS, points_total
from trainer.dealing import (
    DrillCell,
    cards_for,
    insurance_points,
    pick_cell,
    points_for,
)


def _trivial(cell: DrillCell) -> bool:
    return (
        (cell.kind == "hard" and (cell.row >= 17 or cell.row <= 8))
        or (cell.kind == "soft" and cell.row >= 20)
        or (cell.kind == "pair" and cell.row == 10)
    )


def test_all_hands_dealing_keeps_trivial_hands_rare():
    rng = Random(7)
    cells = [pick_cell(rng) for _ in range(5000)]
    trivial = sum(_trivial(c) for c in cells) / len(cells)
    assert 0.04 < trivial < 0.12
    kinds = Counter(c.kind for c in cells)
    assert 0.50 < kinds["hard"] / 5000 < 0.60
    assert 0.17 < kinds["pair"] / 5000 < 0.23
    assert {c.up for c in cells} == set(range(1, 11))


@pytest.mark.parametrize("kind", ["hard", "soft", "pair"])
def test_cells_of_a_kind_give_hands_of_that_kind(kind):
    rng = Random(3)
    for _ in range(300):
        cell = pick_cell(rng, kind=kind, up=4)
        assert cell.kind == kind and cell.up == 4
        points = points_for(cell, rng, multi=rng.random() < 0.5)
        total, soft = points_total(points)
        if kind == "pair":
            assert points == [cell.row, cell.row]
        else:
            assert (total, soft) == (cell.row, kind == "soft")
            assert len(points) == 2 or (kind == "hard" and 12 <= cell.row <= 16)
            assert len(points) > 2 or points[0] != points[1]


@pytest.mark.parametrize(
    ("preset", "pair", "same_rank"), [("live", True, True), ("live", False, False)]
)
def test_ten_value_pairs_under_rank_pairing(preset, pair, same_rank):
    rng = Random(5)
    for _ in range(50):
        a, b = cards_for([10, 10], rng, PRESETS[preset], pair=pair)
        assert (a.rank == b.rank) is same_rank


def test_insurance_hands_are_never_blackjacks():
    rng = Random(11)
    for _ in range(500):
        points = insurance_points(rng)
        assert sorted(points) != [1, 10]
