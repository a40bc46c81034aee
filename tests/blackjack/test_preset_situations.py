"""Tricky hands, preset by preset: the moves RULES.md's preset table allows, written out by
hand, and the round engine, the EV engine's legal moves and its analysis all giving them.

The round and the EV engine share one legality function (:mod:`blackjack.options`), so
``test_options`` only proves that they agree; this file pins what they agree *on* against
the table in RULES.md, where a wrong shared answer would pass unnoticed.
"""

import pytest

from blackjack import Move, Phase, RoundState, analyze, is_pair, legal_moves
from blackjack import legal_moves_for_points as ev_legal_moves
from tests.blackjack.helpers import deal, play

H, S, D, P, R = Move.HIT, Move.STAND, Move.DOUBLE, Move.SPLIT, Move.SURRENDER

# (name, the deal (box cards, dealer "up hole", later cards), moves first, expected per preset)
SITUATIONS = [
    # Any two ten-value cards are a pair, except where pairs go by rank (live).  Sixdeck has
    # late surrender against anything but an ace.
    (
        "king_ten_v6",
        ("Kh 10c", "6h 10d", ""),
        (),
        {
            "thoth": {H, S, D, P},
            "live": {H, S, D},
            "sixdeck": {H, S, D, P, R},
            "free": {H, S, D, P},
            "european": {H, S, D, P},
        },
    ),
    # Soft doubles: refused by sixdeck only.
    (
        "soft_18_v5",
        ("As 7d", "5h 10d", ""),
        (),
        {
            "thoth": {H, S, D},
            "live": {H, S, D},
            "sixdeck": {H, S, R},
            "free": {H, S, D},
            "european": {H, S, D},
        },
    ),
    # Against an ace (insurance declined where offered, no dealer blackjack): no surrender.
    (
        "eights_vA",
        ("8s 8h", "Ah 7c", ""),
        (),
        {
            "thoth": {H, S, D, P},
            "live": {H, S, D, P},
            "sixdeck": {H, S, D, P},
            "free": {H, S, D, P},
            "european": {H, S, D, P},
        },
    ),
    # Against a ten sixdeck does not peek, but still lets the hand surrender (settled later).
    (
        "hard_16_v10",
        ("10c 6d", "Kh 7c", ""),
        (),
        {
            "thoth": {H, S, D},
            "live": {H, S, D},
            "sixdeck": {H, S, D, R},
            "free": {H, S, D},
            "european": {H, S, D},
        },
    ),
    # After a split: double after split everywhere but live; no surrender after a move.
    (
        "split_seven_to_11",
        ("7s 7h", "6h 10d", "4c"),
        ("split",),
        {
            "thoth": {H, S, D},
            "live": {H, S},
            "sixdeck": {H, S, D},
            "free": {H, S, D},
            "european": {H, S, D},
        },
    ),
    # Resplit to the limit: live stops at two hands.
    (
        "split_eight_draws_eight",
        ("8s 8h", "6h 10d", "8c"),
        ("split",),
        {
            "thoth": {H, S, D, P},
            "live": {H, S},
            "sixdeck": {H, S, D, P},
            "free": {H, S, D, P},
            "european": {H, S, D, P},
        },
    ),
    # Split aces that draw an ace: only sixdeck resplits them, and never hits or doubles.
    (
        "split_ace_draws_ace",
        ("As Ah", "6h 10d", "Ac 9c 5d"),
        ("split",),
        {
            "thoth": set(),
            "live": set(),
            "sixdeck": {S, P},
            "free": set(),
            "european": set(),
        },
    ),
    # Four hands already: no fifth, whatever the pair.
    (
        "fourth_hand_pair",
        ("9s 9h", "6h 10d", "9c 9d 9s"),
        ("split", "split", "split"),
        {
            "thoth": {H, S, D},
            "sixdeck": {H, S, D},
            "free": {H, S, D},
            "european": {H, S, D},
        },
    ),
]


def situation_state(preset: str, cards: tuple[str, str, str], moves: tuple[str, ...]) -> RoundState:
    box, dealer, rest = cards
    state = deal([box], dealer, rest, rules=preset)
    if state.phase is Phase.INSURANCE:
        state = play(state, "decline")
    return play(state, *moves)


CASES = [
    pytest.param(preset, cards, moves, expected, id=f"{name}-{preset}")
    for name, cards, moves, per_preset in SITUATIONS
    for preset, expected in per_preset.items()
]


@pytest.mark.parametrize(("preset", "cards", "moves", "expected"), CASES)
def test_round_and_ev_engine_allow_what_the_preset_table_says(preset, cards, moves, expected):
    state = situation_state(preset, cards, moves)
    if not expected:
        # The hand is finished by the rules (split aces take one card): the turn moved on.
        assert state.turn != (0, 0) or state.phase is Phase.SETTLED
        return
    assert state.phase is Phase.PLAYERS and state.turn == (0, 0)
    assert legal_moves(state) == expected
    box = state.box(0)
    hand = box.hands[0]
    points = [c.points for c in hand.cards]
    kw = {
        "split_hands": len(box.hands),
        "from_split": hand.from_split,
        "pair": is_pair(hand.cards, state.rules),
    }
    up = state.dealer[0].points
    assert ev_legal_moves(state.rules, points, up, **kw) == expected
    assert set(analyze(state.rules, points, up, **kw).ev) == expected
