"""The number that chooses a plural form for an amount of debens.

Our Plural-Forms (uk, ru, be, cs) give fractions their own form ("44,78 дебена"), so a fractional
amount must reach ``ngettext`` as it is; a whole one goes as an ``int``, which is what gettext
expects (it warns on anything else).
"""

from __future__ import annotations

from decimal import Decimal
from typing import cast


def plural_count(amount: Decimal | int) -> int:
    """``1000.00`` → ``1000``; ``44.78`` stays ``Decimal("44.78")``; signs are dropped.

    Typed ``int`` for ``ngettext`` (whose stubs take only that): the fractional ``Decimal`` is
    returned on purpose, the one place where it passes for an int.

    >>> plural_count(Decimal("1000.00")), plural_count(Decimal("-44.78")), plural_count(7)
    (1000, Decimal('44.78'), 7)
    """
    value = abs(Decimal(amount))
    return int(value) if value == value.to_integral_value() else cast(int, value)
