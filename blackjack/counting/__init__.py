"""Card counting: count systems as data, the running and true count, and index plays computed
from the engine's exact EVs for any rule set.

* :mod:`~blackjack.counting.systems`: Hi-Lo, KO, Hi-Opt I and Zen, the running count, the
  decks remaining (to the nearest half deck) and the true count (floored), conventions stated.
* :mod:`~blackjack.counting.indices`: for a rule set and a system, the true count at which
  each decision's best move changes, and what playing it gains.
* :mod:`~blackjack.counting.simulate`: what counting is worth at a table, by Monte Carlo: a
  flat player with the chart against a counter with the indices and a bet ramp.

Import from here, not from the modules::

    >>> from blackjack.counting import HI_LO, running_count, true_count
    >>> true_count(HI_LO, running=running_count(HI_LO, [2, 3, 4, 5, 6, 10]), cards_left=52,
    ...            decks=1)
    4
"""

from blackjack.counting.indices import (
    COUNTS,
    FORMAT_VERSION,
    IndexPlay,
    IndexTable,
    compute_indices,
    count_frequencies,
    count_shoe,
    index_key,
    smooth,
    typical_cards_left,
)
from blackjack.counting.simulate import Ramp, Table, Tally, simulate, study
from blackjack.counting.systems import (
    DEFAULT_SYSTEM,
    HI_LO,
    HI_OPT_I,
    KO,
    SYSTEMS,
    ZEN,
    CountSystem,
    balanced_tags,
    count_of,
    decks_remaining,
    exact_true_count,
    running_count,
    system_from_key,
    tag_variance,
    tags_text,
    true_count,
)

__all__ = [
    "COUNTS",
    "DEFAULT_SYSTEM",
    "FORMAT_VERSION",
    "HI_LO",
    "HI_OPT_I",
    "KO",
    "SYSTEMS",
    "ZEN",
    "CountSystem",
    "IndexPlay",
    "IndexTable",
    "Ramp",
    "Table",
    "Tally",
    "balanced_tags",
    "compute_indices",
    "count_frequencies",
    "count_of",
    "count_shoe",
    "decks_remaining",
    "exact_true_count",
    "index_key",
    "running_count",
    "simulate",
    "smooth",
    "study",
    "system_from_key",
    "tag_variance",
    "tags_text",
    "true_count",
    "typical_cards_left",
]
