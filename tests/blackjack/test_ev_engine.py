"""The numpy solve of a pair's hands (Engine._solve) against the engine's own recursion."""

import pytest

from blackjack.dealer import decode
from blackjack.ev import decision_shoe
from blackjack.ev_engine import Engine, clear_caches
from blackjack.rules import Peek, Rules


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
def test_solved_hands_equal_the_recursion(rules, pair, up):
    clear_caches()
    solved = Engine(rules, up)
    comp = decision_shoe(rules, [pair, pair], up)
    solved.prepare(comp, (pair, pair))
    states = [
        (code, key // 2, bool(key % 2)) for key, memo in enumerate(solved._play) for code in memo
    ]
    assert len(states) > 500  # the solve ran: nothing else has been asked yet
    recursive = Engine(rules, up)  # shares the dealer vectors, not the memos
    for code, hard, ace in states:
        want = recursive._play_code(code, sum(decode(code)), hard, ace)
        assert solved._play[2 * hard + ace][code] == pytest.approx(want, rel=0, abs=1e-12)
