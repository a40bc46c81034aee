"""The betting form's chips and the insurance offer: small choices of what a button shows."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from core.display import fmt


def chip_to_select(*, chips: Iterable[int], balance: Decimal, wanted: str = "") -> int | None:
    """The chip the learner chose (``wanted``, from a refused deal's form) while the balance
    covers it; else the largest chip it covers; ``None`` when it covers none.

    A chip worth more than the balance is shown greyed out; it must never stay selected, or a
    click on a box would bet it and the deal be refused.

    >>> chip_to_select(chips=[10_000, 50_000], balance=Decimal(1050))
    >>> chip_to_select(chips=[100, 500, 1000, 5000], balance=Decimal(1050))
    1000
    >>> chip_to_select(chips=[100, 500, 1000, 5000], balance=Decimal(1050), wanted="500")
    500
    >>> chip_to_select(chips=[100, 500, 1000, 5000], balance=Decimal(1050), wanted="5000")
    1000
    """
    affordable = [c for c in chips if c <= balance]
    if wanted.isdigit() and int(wanted) in affordable:
        return int(wanted)
    return max(affordable, default=None)


def offer_amount(view: Any) -> str:
    """What the insurance offer's "yes" is worth to the box whose turn it is: its cost, half
    the main bet (or, for even money, the bet paid at once), so that the button says it."""
    if view is None or not view.insurance or view.turn_box is None:
        return ""
    box = view.boxes[view.turn_box - 1]
    bet = Decimal(box.bet)
    return fmt(bet if view.even_money else bet / 2)
