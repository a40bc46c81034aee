"""The stakes of the house's tables: bet limits, chips and how many boxes one player may bet on.

The tables deal the rules of :data:`blackjack.PRESETS`; their money is the house's business,
not the engine's.

>>> stakes_for_preset("sixdeck").box_counts, stakes_for_preset("thoth").slug
((1, 5), 'scribes')
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TableStakes:
    """Bet limits and chip denominations of one table, and how many boxes one player may bet
    on in a round (empty: any number)."""

    slug: str
    min_bet: int
    max_bet: int
    chips: tuple[int, ...]
    box_counts: tuple[int, ...] = ()


# The house's three tables (RULES.md) all deal the thoth rules.
HOUSE_TABLES: tuple[TableStakes, ...] = (
    TableStakes("scribes", 100, 5_000, (100, 500, 1_000, 5_000)),
    TableStakes("priests", 1_000, 50_000, (1_000, 5_000, 10_000, 50_000)),
    TableStakes("pharaohs", 10_000, 500_000, (10_000, 50_000, 100_000, 500_000)),
)

# Stakes that a source gives for its own preset; others play at the Scribes' limits.
PRESET_STAKES: dict[str, TableStakes] = {
    "sixdeck": TableStakes("sixdeck", 1, 200, (1, 5, 25, 100), box_counts=(1, 5)),
    "free": TableStakes("free", 5, 500, (5, 25, 100, 500)),
}


def stakes_for_preset(name: str) -> TableStakes:
    return PRESET_STAKES.get(name, HOUSE_TABLES[0])
