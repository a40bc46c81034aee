import pytest

from blackjack import PRESETS, Move, analyze, insurance_options

THOTH = PRESETS["thoth"]


def test_insurance_options_formula():
    # 6 decks less 9, 7 and the ace: 96 tens among 309 cards.
    assert insurance_options(THOTH, [9, 7])[Move.INSURE] == pytest.approx(0.5 * (3 * 96 / 309 - 1))


@pytest.mark.parametrize("hand", [[9, 7], [1, 10], [10, 10], [1, 1]])
def test_insurance_options_equal_the_analysis(hand):
    # The table's and the drill's insurance question agree with analyze's own figure.
    assert insurance_options(THOTH, hand)[Move.INSURE] == pytest.approx(
        analyze(THOTH, hand, 1).insurance, abs=1e-12
    )
