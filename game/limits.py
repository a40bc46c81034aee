"""What a table allows: its boxes, its rules, and when a learner's wallet is topped up."""

from __future__ import annotations

from decimal import Decimal
from typing import Final

from blackjack import PRESETS, Rules
from game.models import Seat, Table
from game.stakes import HOUSE_TABLES

BOXES: Final = 5


def rules_of(seat: Seat) -> Rules:
    return Rules.from_dict(seat.rules)


def table_rules(table: Table) -> Rules:
    return PRESETS[table.preset]


def top_up_threshold() -> Decimal:
    """The minimum bet of the house's cheapest table (the Scribes', 100): a learner with less
    cannot sit at any house table, even if a variant table takes smaller bets.

    >>> top_up_threshold()
    Decimal('100')
    """
    return Decimal(min(stakes.min_bet for stakes in HOUSE_TABLES))


def top_up_due(*, balance: Decimal) -> bool:
    """
    >>> top_up_due(balance=Decimal("99.50")), top_up_due(balance=Decimal(100))
    (True, False)
    """
    return balance < top_up_threshold()
