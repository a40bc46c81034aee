"""The mathematics of blackjack, exact: the dealer's probabilities, the EV of every option, the
split EVs, the basic-strategy charts and the house edge, with the store that keeps them.

* :mod:`~blackjack.maths.dealer`: the dealer's outcomes, its final multisets, shoe codes.
* :mod:`~blackjack.maths.backend`: the dealer's final-total distribution from any shoe, and who
  computes the batches: the compiled kernel (``kernel.c``) or numpy
  (:mod:`~blackjack.maths.batch`, the reference).
* :mod:`~blackjack.maths.engine`: the memoized EV computations (stand, hit, double, split).
* :mod:`~blackjack.maths.ev`: the EV of every option of one hand (:func:`analyze`), the
  insurance formula and the EV tie rule.
* :mod:`~blackjack.maths.strategy`: charts, the exact best move, the house edge.
* :mod:`~blackjack.maths.store`: where computed tables are kept (memory, files).

Import from here (or from :mod:`blackjack`), not from the modules.
"""

from blackjack.maths.backend import dealer_probabilities, prepare_dealer_tables
from blackjack.maths.dealer import OUTCOMES, DealerOutcome, decode
from blackjack.maths.engine import Engine, HandChart, engine_for
from blackjack.maths.ev import (
    EV_TIE,
    Analysis,
    analyze,
    best_by_ev,
    can_deal,
    decision_shoe,
    insurance_gain,
    insurance_options,
    insurance_return,
    is_best_choice,
    prepare_full_shoe,
    rank_by_ev,
    round_ev,
)
from blackjack.maths.store import (
    CACHE_DIR_ENV,
    FORMAT_VERSION,
    FileStore,
    MemoryStore,
    TableStore,
    default_store,
    load_json,
    save_json,
    table_key,
)
from blackjack.maths.strategy import (
    HARD_ROWS,
    KINDS,
    PAIR_ROWS,
    SOFT_ROWS,
    UPS,
    Cell,
    CellKey,
    Chart,
    Edge,
    basic_chart,
    best_move,
    build_cell,
    cell_key,
    clear_caches,
    house_edge,
    row_key,
    rule_effects,
    rule_variations,
)

__all__ = [
    "CACHE_DIR_ENV",
    "EV_TIE",
    "FORMAT_VERSION",
    "HARD_ROWS",
    "KINDS",
    "OUTCOMES",
    "PAIR_ROWS",
    "SOFT_ROWS",
    "UPS",
    "Analysis",
    "Cell",
    "CellKey",
    "Chart",
    "DealerOutcome",
    "Edge",
    "Engine",
    "FileStore",
    "HandChart",
    "MemoryStore",
    "TableStore",
    "analyze",
    "basic_chart",
    "best_by_ev",
    "best_move",
    "build_cell",
    "can_deal",
    "cell_key",
    "clear_caches",
    "dealer_probabilities",
    "decision_shoe",
    "decode",
    "default_store",
    "engine_for",
    "house_edge",
    "insurance_gain",
    "insurance_options",
    "insurance_return",
    "is_best_choice",
    "load_json",
    "prepare_dealer_tables",
    "prepare_full_shoe",
    "rank_by_ev",
    "round_ev",
    "row_key",
    "rule_effects",
    "rule_variations",
    "save_json",
    "table_key",
]
