"""The worked example round of the house rules (source 000), replayed from a fixed order."""

from blackjack import EventKind, Move, Outcome, Phase, legal_moves, replay
from tests.blackjack.helpers import deal, deal_order, play, results


def example():
    # AI box 0 bets 200 on 8♠ 8♥; the player's box 1 bets 500 on 9♣ 2♦; the dealer shows 6♥
    # over 10♣.  Then: 3♣ to the first eight, 9♥ on its double, 10♦ to the second eight,
    # K♠ on the player's double, 7♦ to the dealer.
    return deal(["8s 8h", "9c 2d"], "6h 10c", "3c 9h 10d Ks 7d", bets=[200, 500])


def test_worked_example_pays_every_hand_double():
    state = example()
    assert state.turn == (0, 0)
    assert legal_moves(state) == {Move.HIT, Move.STAND, Move.DOUBLE, Move.SPLIT}
    state = play(state, "split")
    assert [h.display for h in state.box(0).hands] == ["11", "8"]
    state = play(state, "double")
    assert state.box(0).hands[0].display == "20"
    assert state.turn == (0, 1)
    assert state.box(0).hands[1].display == "18"
    state = play(state, "stand")
    assert state.turn == (1, 0)
    state = play(state, "double")
    assert state.phase is Phase.SETTLED
    assert [str(c) for c in state.dealer] == ["6♥", "10♣", "7♦"]
    assert results(state) == [(0, 0, "win", 800), (0, 1, "win", 400), (1, 0, "win", 2000)]
    assert (state.staked(0), state.paid(0)) == (600, 1200)
    assert (state.staked(1), state.paid(1)) == (1000, 2000)


def test_worked_example_event_log_is_the_ledger():
    state = play(example(), "split", "double", "stand", "double")
    ledger = [(e.kind.value, e.seat, e.move, e.staked, e.paid) for e in state.events
              if e.staked or e.kind in (EventKind.SETTLE, EventKind.INSURANCE)]  # fmt: skip
    assert ledger == [
        ("bet", 0, None, 200, 0),
        ("bet", 1, None, 500, 0),
        ("move", 0, Move.SPLIT, 200, 0),
        ("move", 0, Move.DOUBLE, 200, 0),
        ("move", 1, Move.DOUBLE, 500, 0),
        ("settle", 0, None, 0, 800),
        ("settle", 0, None, 0, 400),
        ("settle", 1, None, 0, 2000),
    ]
    assert [str(c) for c in state.dealt_cards()] == [
        "8♠", "9♣", "6♥", "8♥", "2♦", "10♣", "3♣", "9♥", "10♦", "K♠", "7♦",
    ]  # fmt: skip


def test_worked_example_with_a_five_instead():
    # "Had the last card been a five": the dealer makes 21, the player's 21 pushes and the
    # AI loses both hands.
    state = deal(["8s 8h", "9c 2d"], "6h 10c", "3c 9h 10d Ks 5d", bets=[200, 500])
    state = play(state, "split", "double", "stand", "double")
    assert results(state) == [(0, 0, "lose", 0), (0, 1, "lose", 0), (1, 0, "push", 1000)]


def test_worked_example_replays_to_the_same_state():
    state = play(example(), "split", "double", "stand", "double")
    again = replay(state.rules, {0: 200, 1: 500}, state.dealt_cards(), state.moves())
    assert again.boxes == state.boxes
    assert again.events == state.events
    assert again.box(1).hands[0].outcome is Outcome.WIN
    order = deal_order(["8s 8h", "9c 2d"], "6h 10c", "3c 9h 10d Ks 7d")
    assert replay(state.rules, {0: 200, 1: 500}, order, ["split", "double", "stand", "double"]
                  ).events == state.events  # fmt: skip
