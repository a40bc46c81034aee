"""The solve of a pair's hands (Engine._solve: the compiled kernel's, and numpy's) against the
engine's own recursion."""

import pytest

from blackjack import PRESETS, Engine, Peek, Rules, clear_caches, decision_shoe
from blackjack.maths import backend, decode


@pytest.fixture(params=["kernel", "numpy"])
def computing(request, monkeypatch):
    """Each test twice: the kernel's solve and numpy's."""
    if request.param == "numpy":
        monkeypatch.setattr(backend, "KERNEL", None)
    else:
        from tests.blackjack.test_kernel import needs_kernel

        needs_kernel()
    clear_caches()
    yield request.param
    clear_caches()


def solved_states(engine: Engine) -> dict[tuple[int, int, bool], float]:
    """(shoe code, hard, ace) -> value of every hand the solve valued: numpy's fill the play
    memos, the kernel keeps its own."""
    out = {
        (code, key // 2, bool(key % 2)): value
        for key, memo in enumerate(engine._play)
        for code, value in memo.items()
    }
    if engine._hands is not None:
        out.update({(code, key // 2, bool(key % 2)): v for code, key, v in engine._hands.items()})
    return out


@pytest.mark.parametrize(
    ("rules", "pair", "up"),
    [
        (Rules(), 2, 2),
        (Rules(), 3, 10),
        (Rules(decks=1), 8, 1),
        (Rules(decks=2, peek=Peek.NONE), 4, 1),
        (Rules(peek=Peek.ACE_ONLY, max_hands=3), 6, 10),
        (Rules(decks=8, resplit_aces=True, hit_split_aces=True), 1, 10),
    ],
)
def test_solved_hands_equal_the_recursion(rules, pair, up, computing):
    solved = Engine(rules, up)
    assert (solved._hands is not None) == (computing == "kernel")
    comp = decision_shoe(rules, [pair, pair], up)
    solved.prepare(comp, (pair, pair))
    states = solved_states(solved)
    # The solve ran (nothing else has been asked yet): the pair hand's own hands, and the
    # split hands' values for each second card on each shoe of the resplits.
    assert states
    assert len(solved._split_hand) >= 20
    recursive = Engine(rules, up)  # shares the dealer vectors, not the memos
    recursive._hands = None  # walks every hand in Python
    for (code, hard, ace), value in states.items():
        want = recursive._play_code(code, sum(decode(code)), hard, ace)
        assert value == pytest.approx(want, rel=0, abs=1e-12)
    for (code, split_pair, second), value in solved._split_hand.items():
        want = recursive.split_hand(decode(code), split_pair, second)
        assert value == pytest.approx(want, rel=0, abs=1e-12)
    assert recursive._split_hand.keys() == solved._split_hand.keys()


def test_a_second_rule_set_on_the_same_shoes_reuses_the_dealer_rows(computing):
    """The dealer's rows are kept by shoe: another rule set with the same decks and soft-17
    rule (the calculator's single options) computes none again, and gets the same values."""
    from blackjack import analyze, prepare_full_shoe
    from blackjack.maths.engine import dealer_cache

    clear_caches()
    prepare_full_shoe(Rules(), ups=(5,))
    cache = dealer_cache(5, False)
    size = len(cache)
    surrender = Rules(surrender="late")
    prepare_full_shoe(surrender, ups=(5,))
    assert len(cache) == size
    reused = analyze(surrender, [8, 8], 5).ev
    clear_caches()
    assert analyze(surrender, [8, 8], 5).ev == pytest.approx(reused, rel=0, abs=1e-12)


def test_shared_engines_survive_threads_that_evict_and_clear():
    """Request threads and the background chart job share the engines; one thread's eviction
    or clear_caches() between another's lookup and its bookkeeping raised KeyError."""
    import sys
    import threading

    from blackjack import engine_for

    rules = PRESETS["thoth"]
    errors: list[BaseException] = []

    def work(offset: int) -> None:
        try:
            for n in range(5_000):
                engine_for(rules, 1 + (n + offset) % 10)
                if n % 50 == 0:
                    clear_caches()
        except BaseException as exc:  # reported by the assertion below
            errors.append(exc)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
        clear_caches()
    assert errors == []
