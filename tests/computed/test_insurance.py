import pytest

from blackjack import PRESETS, Move
from computed.insurance import insurance_ev

THOTH = PRESETS["thoth"]


def test_insurance_ev_formula():
    # 6 decks less 9, 7 and the ace: 96 tens among 309 cards.
    assert insurance_ev(THOTH, [9, 7])[Move.INSURE] == pytest.approx(0.5 * (3 * 96 / 309 - 1))
