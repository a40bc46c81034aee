"""The index tables, a computed table kind: for each rule set and count system, the index
plays of :func:`blackjack.counting.compute_indices`, computed once by the task worker (job
kind ``indices``) and stored beside the chart; the index page reads them from here.

The chart's moves are the basic moves the indices depart from, so the job makes sure the
rule set's tables (with the chart) are stored first.  Hi-Lo comes first: its table is shown as
soon as it is stored, the other systems' as each follows.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

from blackjack import Chart, Rules, load_json, save_json
from blackjack.counting import FORMAT_VERSION, SYSTEMS, CountSystem, IndexTable, compute_indices
from computed.models import ChartJob, ComputedTable
from computed.store import DatabaseTableStore
from computed.tables import chart_key

KIND = ChartJob.Kind.INDICES
# Hi-Lo first: the one most learners ask for.
ORDER: tuple[str, ...] = ("hilo", *(k for k in SYSTEMS if k != "hilo"))


def indices_key(rules: Rules, system: CountSystem) -> str:
    """
    >>> from blackjack.counting import HI_LO
    >>> indices_key(Rules(), HI_LO).startswith("indices-v1-hilo-")
    True
    """
    return f"indices-v{FORMAT_VERSION}-{system.key}-{rules.key()}"


def indices_build(
    rules: Rules, system: CountSystem, chart: Chart, progress: Callable[[int, int], None]
) -> IndexTable:
    """One system's index table, the chart's moves as the basic ones."""
    return compute_indices(
        rules, system, basic=lambda kind, row, up: chart.cell(kind, row, up).move,
        progress=progress,
    )  # fmt: skip


def indices_stored(rules: Rules) -> bool:
    """Whether every system's index table of ``rules`` is stored."""
    keys = [indices_key(rules, SYSTEMS[k]) for k in ORDER]
    return ComputedTable.objects.filter(key__in=keys).count() == len(keys)


def indices_compute(rules: Rules, progress: Callable[[int, int], None]) -> None:
    """The job's work: the tables if missing (for the chart), then each system's indices,
    each stored as soon as it is done.  Runs in the task worker only."""
    from computed import services  # services' job runner calls this: import at run time
    from computed.tables import compute_tables

    store = DatabaseTableStore()
    if not services.tables_stored(rules):
        services.tables_store(rules=rules, data=compute_tables(rules, None, store=store))
    chart = Chart.from_dict(load_json(store, chart_key(rules)))
    steps = 10
    for n, key in enumerate(ORDER):
        system = SYSTEMS[key]
        if load_json(store, indices_key(rules, system)) is not None:
            continue

        def step(done: int, total: int, n: int = n) -> None:
            progress(n * steps + done * steps // total, len(ORDER) * steps)

        table = indices_build(rules, system, chart, step)
        save_json(store, indices_key(rules, system), table.to_dict())
    progress(len(ORDER) * steps, len(ORDER) * steps)


_KEPT: OrderedDict[str, IndexTable] = OrderedDict()
_LOCK = threading.Lock()
KEPT = 32


def indices_get(rules: Rules, system: CountSystem) -> IndexTable | None:
    """The stored index table, parsed once per process; ``None`` when not computed yet."""
    key = indices_key(rules, system)
    with _LOCK:
        table = _KEPT.get(key)
        if table is not None:
            _KEPT.move_to_end(key)
            return table
    data = load_json(DatabaseTableStore(), key)
    if data is None:
        return None
    table = IndexTable.from_dict(data)
    with _LOCK:
        _KEPT[key] = table
        while len(_KEPT) > KEPT:
            _KEPT.popitem(last=False)
    return table


def indices_forget() -> None:
    """Drop the parsed index tables kept in this process (tests)."""
    with _LOCK:
        _KEPT.clear()
