"""The batch dealer computation (the ranks summed out one at a time) against the direct formula.

The engine fills its dealer vectors with ``contract``; ``dealer_matrix`` evaluates the same
sums multiset by multiset, through logarithms: the reference the batch must equal to 1e-12.
"""

import numpy as np
import pytest

from blackjack import full_composition, remove_cards
from blackjack.maths.batch import DealerCache, contract, dealer_matrix, encode_rows, stand_rows
from blackjack.maths.batch import shoes_less as _shoes_less


def batch(decks: int, up: int, limit: int = 21) -> np.ndarray:
    """The shoes an analysis of every hand dealt from the full shoe asks for, plus those of a
    pair of fives split twice (the shoe less up to two more fives)."""
    base = remove_cards(full_composition(decks), [up])
    split = [remove_cards(base, [5] * k) for k in range(2, 5)]
    return np.concatenate([_shoes_less(base, limit), *(_shoes_less(s, 11) for s in split)])


@pytest.mark.parametrize("h17", [False, True])
@pytest.mark.parametrize(("decks", "up"), [(6, 2), (6, 1), (6, 10), (1, 6), (1, 1), (8, 7)])
def test_the_batch_equals_the_direct_formula(decks, up, h17):
    comps = batch(decks, up)
    got = contract(up, h17, comps)
    expected = dealer_matrix(up, h17, comps)
    assert got.shape == expected.shape == (len(comps), 7)
    assert np.abs(got - expected).max() <= 1e-12
    # Large shoes: the dealer never runs out, every row sums to 1.
    assert np.abs(got.sum(axis=1) - 1.0).max() <= 1e-12


def test_shoes_that_can_run_out_and_repeats():
    """A few-card shoe (the dealer may run out: the row sums to less than 1) and a shoe given
    twice come out as the formula has them."""
    short = [1, 0, 0, 0, 2, 0, 0, 0, 0, 1]
    comps = np.array([short, [0, 3, 1, 0, 0, 0, 0, 0, 0, 0], short])
    got = contract(6, False, comps)
    expected = dealer_matrix(6, False, comps)
    assert np.abs(got - expected).max() <= 1e-15
    assert got[1].sum() < 1.0
    assert (got[0] == got[2]).all()


def test_the_cache_keeps_the_rows_of_the_formula_and_finds_them_again():
    up = 10
    comps = batch(2, up)
    cache = DealerCache(up, False)
    cache.fill(comps)
    codes = encode_rows(comps)
    vectors = dealer_matrix(up, False, comps)
    for peek in (False, True):
        rows = cache.rows_for(codes, peek=peek)
        assert np.abs(rows - stand_rows(vectors, peek=peek)).max() <= 1e-12
    # One by one, as the Python side asks.
    one = cache.stand_row(int(codes[7]), peek=True)
    assert one == tuple(cache.rows_for(codes[7:8], peek=True)[0].tolist())
    assert len(cache) == len(set(codes.tolist()))
