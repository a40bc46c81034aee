"""The EV of insuring a hand that is not a blackjack, for play mode's review and the drill.

An app-side wrapper in one place until the engine exposes its own formula (see
:func:`blackjack.ev.analyze`, which uses the same one): both apps call this, never re-state it.
"""

from __future__ import annotations

from collections.abc import Sequence

from blackjack import Move, Rules, decision_shoe


def insurance_ev(rules: Rules, points: Sequence[int]) -> dict[Move, float]:
    """What insuring adds to the hand's EV per unit of the initial bet, against declining (0):
    the side bet of half the bet wins 2:1 when the hole card is a ten.  The same formula as
    :func:`blackjack.ev.analyze` uses for a hand that is not a blackjack."""
    comp = decision_shoe(rules, points, 1)
    p_ten = comp[9] / sum(comp)
    return {Move.INSURE: 0.5 * (3.0 * p_ten - 1.0), Move.DECLINE: 0.0}
