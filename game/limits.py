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


def top_up_due(*, balance: Decimal, at_stake: Decimal = Decimal(0)) -> bool:
    """Due only when the balance plus the chips still on tables (open rounds) is below the
    smallest house minimum: chips at stake come back to a winner (issue 15, finding 8).

    >>> top_up_due(balance=Decimal("99.50")), top_up_due(balance=Decimal(100))
    (True, False)
    >>> top_up_due(balance=Decimal(0), at_stake=Decimal(1000))
    False
    """
    return balance + at_stake < top_up_threshold()
