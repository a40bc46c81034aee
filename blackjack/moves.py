"""The moves a player can make, shared by the round, the mathematics and the AI players."""

from enum import StrEnum


class Move(StrEnum):
    HIT = "hit"
    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"
    SURRENDER = "surrender"
    # The answer to an insurance (or, for a box holding a blackjack, even-money) offer.
    INSURE = "insure"
    DECLINE = "decline"


# The order moves are listed in, and the tie rule of every EV comparison: of two moves with
# the same EV the earlier here is taken (see :func:`blackjack.maths.ev.best_by_ev`).
MOVE_ORDER: tuple[Move, ...] = (Move.STAND, Move.HIT, Move.DOUBLE, Move.SPLIT, Move.SURRENDER)

PLAY_MOVES = (Move.HIT, Move.STAND, Move.DOUBLE, Move.SPLIT, Move.SURRENDER)
INSURANCE_MOVES = (Move.INSURE, Move.DECLINE)

# Keyboard letters of RULES.md (R for surrender, from the trainer issue).
KEYS: dict[Move, str] = {
    Move.HIT: "h", Move.STAND: "s", Move.DOUBLE: "d", Move.SPLIT: "p", Move.SURRENDER: "r",
    Move.INSURE: "y", Move.DECLINE: "n",
}  # fmt: skip
