"""The compiled kernel (blackjack/maths/kernel.c) against numpy's reference (blackjack/maths/
batch.py): the kernel does numpy's sums in numpy's order, so its dealer vectors, stand rows and
hand values are the same to the last bit; whole analyses agree to 1e-12 (where a shoe comes
outside a batch, numpy grows it from its parent's, the kernel sums it afresh).  And the engine
without the kernel: numpy computes, and nothing else changes."""

import json
import os
import random
import subprocess
import sys

import numpy as np
import pytest

from blackjack import (
    PRESETS,
    Peek,
    Rules,
    analyze,
    can_deal,
    clear_caches,
    full_composition,
    remove_cards,
)
from blackjack.maths import backend, batch

KERNEL = backend.KERNEL


def needs_kernel() -> None:
    """`make test` builds the kernel in place (`pip install -e .` runs setup.py's build_ext).
    Where it is not built (no C compiler, or a checkout another install serves) the engine
    computes in numpy and these tests are skipped; on CI they fail instead."""
    if KERNEL is None:
        message = "blackjack/maths/kernel.c is not built here: pip install -e ."
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(autouse=True)
def _kernel_built():
    needs_kernel()


def test_the_kernel_is_built():
    assert KERNEL is not None


def shoes(decks: int, up: int, rng: random.Random) -> np.ndarray:
    """A full-shoe batch (the shoe less every hand of at most 21 points), a split's shoes, 200
    shoes with up to 30 random cards out, and 50 of one to twelve cards (the dealer may run
    out)."""
    base = remove_cards(full_composition(decks), [up])
    out = [batch.shoes_less(base, 21), batch.shoes_less(remove_cards(base, [7, 7, 7]), 14)]
    for _ in range(200):
        seen = [rng.randint(1, 10) for _ in range(rng.randint(0, 30))]
        if can_deal(Rules(decks=decks), [up, *seen]):
            out.append(np.array([remove_cards(base, seen)]))
    for _ in range(50):
        out.append(np.array([[rng.randint(0, 2) for _ in range(10)]]))
    comps = np.concatenate(out)
    return comps[comps.sum(axis=1) > 0]


@pytest.mark.parametrize("h17", [False, True])
@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_the_dealer_vectors_are_numpys_to_the_last_bit(decks, h17):
    rng = random.Random(10 * decks + h17)
    for up in range(1, 11):
        comps = shoes(decks, up, rng)
        got = np.array(KERNEL.contract(up, h17, batch.encode_rows(comps).tolist()))
        assert np.array_equal(got, batch.contract(up, h17, comps))


@pytest.mark.parametrize(("decks", "up"), [(1, 1), (6, 10), (2, 6)])
def test_the_stand_rows_are_numpys_to_the_last_bit(decks, up):
    comps = shoes(decks, up, random.Random(up))
    codes = batch.encode_rows(comps)
    store = KERNEL.Dealer(up, False)
    store.fill(codes.tolist())
    vectors = batch.contract(up, False, comps)
    for peek in (False, True):
        want = batch.stand_rows(vectors, peek=peek)
        got = np.array([store.stand_row(code, peek) for code in codes.tolist()])
        assert np.array_equal(got, want)


def test_a_shoe_less_its_hands_is_the_batch_numpy_lists():
    base = remove_cards(full_composition(1), [5, 5, 6])
    store = KERNEL.Dealer(6, True)
    store.fill_less([(base, 21), (remove_cards(base, [8, 8]), 13)])
    want = {
        int(c)
        for limit, comp in ((21, base), (13, remove_cards(base, [8, 8])))
        for c in batch.encode_rows(batch.shoes_less(comp, limit))
    }
    assert len(store) == len(want)
    assert all(store.known(code) for code in want)


@pytest.mark.parametrize(
    ("rules", "up"),
    [
        (Rules(), 2),
        (Rules(decks=1, dealer_hits_soft_17=True), 1),
        (Rules(decks=2, peek=Peek.NONE), 10),
        (Rules(peek=Peek.ACE_ONLY, max_hands=3), 10),
        (Rules(decks=8, resplit_aces=True, hit_split_aces=True), 7),
    ],
)
def test_the_hand_values_are_numpys_to_the_last_bit(rules, up):
    """A full shoe's hands and a pair's split shoes (what Engine.prepare_full_shoe solves)."""
    from blackjack.maths.engine import Engine

    base = remove_cards(full_composition(rules.decks), [up])
    engine = Engine(rules, up)
    families = [(base, 0, False)]
    for p in (1, 2, 8):
        families += [(b, p, p == 1) for b in engine._split_bases(remove_cards(base, [p, p]), p, 3)]
    pairs = [(comp, 21 - hard) for comp, hard, _ in families]
    numpy_dealer = batch.DealerCache(up, rules.dealer_hits_soft_17)
    numpy_dealer.fill_less(pairs)
    kept, nodes = batch.solve_hands(numpy_dealer, families, 1, engine.peek, engine.bj_index)
    kernel_dealer = KERNEL.Dealer(up, rules.dealer_hits_soft_17)
    kernel_dealer.fill_less(pairs)
    hands = KERNEL.Hands()
    assert hands.solve(kernel_dealer, families, 1, engine.peek, engine.bj_index) == nodes
    want = {
        (code, key): v for key, codes, values in kept for code, v in zip(codes, values, strict=True)
    }
    assert {(code, key): v for code, key, v in hands.items()} == want


def analyses(rules: Rules, removed: list[int]) -> dict[str, float]:
    out = {}
    for up in range(1, 11):
        for a in range(1, 11):
            for b in range(a, 11):
                if not can_deal(rules, [up, a, b, *removed]):
                    continue
                found = analyze(rules, [a, b], up, removed=removed)
                for move, ev in found.ev.items():
                    out[f"{a},{b} v {up} {move}"] = ev
                out[f"{a},{b} v {up} dealer bust"] = found.dealer.bust
    return out


@pytest.mark.parametrize(
    ("rules", "removed"),
    [
        (PRESETS["thoth"], []),
        (Rules(decks=1, dealer_hits_soft_17=True), []),
        (PRESETS["sixdeck"], []),
        (PRESETS["european"], [10, 10, 5]),
        (Rules(decks=1), [2, 3, 10]),
    ],
)
def test_every_analysis_agrees_with_numpys(rules, removed, monkeypatch):
    clear_caches()
    fast = analyses(rules, removed)
    monkeypatch.setattr(backend, "KERNEL", None)
    clear_caches()
    slow = analyses(rules, removed)
    clear_caches()
    assert fast.keys() == slow.keys()
    assert max(abs(fast[k] - slow[k]) for k in fast) <= 1e-12


RUN = """
import json, sys
{block}
import blackjack
from blackjack.maths import backend
a = blackjack.analyze(blackjack.Rules(decks=2), [8, 8], 10, removed=[5])
print(json.dumps([backend.KERNEL is None, "numpy" in sys.modules,
                  {{str(m): v for m, v in a.ev.items()}}]))
"""


def run(block: str, env: dict[str, str] | None = None) -> list:
    out = subprocess.run(
        [sys.executable, "-c", RUN.format(block=block)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **(env or {})},
    )
    return json.loads(out.stdout)


def test_without_the_kernel_numpy_computes_the_same():
    """Not built (the import fails) or turned off (BLACKJACK_PURE): numpy computes; with it,
    the engine does not even load numpy (a good part of a cold start)."""
    compiled, numpy_loaded, fast = run("")
    assert (compiled, numpy_loaded) == (False, False)
    missing, numpy_loaded, slow = run("sys.modules['blackjack.maths.kernel'] = None")
    assert (missing, numpy_loaded) == (True, True)
    off, _, same = run("", env={backend.PURE_ENV: "1"})
    assert off
    assert slow == same
    assert fast.keys() == slow.keys()
    assert all(abs(fast[m] - slow[m]) <= 1e-12 for m in fast)
