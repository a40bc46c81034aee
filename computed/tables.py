"""The tables computed once per rule set: the chart, every two-card analysis, "chart or exact".

A drill must answer within milliseconds, but a cold exact analysis of a pair costs up to a few
hundred.  So for each rule set we compute, once: the basic-strategy chart of
:mod:`blackjack.strategy` (kept in its own store entry, so ``basic_chart(rules, store=...)``
finds it), the analysis of every two-card hand (55 point combinations) against every up card,
and the three- and four-card hands whose exact best move differs from the chart's.  The
documents live in ``ComputedTable`` (shared by every app server, see
:class:`computed.store.DatabaseTableStore`) and are kept parsed in process memory
(:func:`computed.selectors.tables_get`).  The chart page (the trainer) and play mode's
EVs and hints read them from here.

The chart is built cell by cell here, rather than by one ``basic_chart`` call, so that the
progress page can show how far it is; the cells and the stored document are the same.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import combinations_with_replacement
from typing import Any

from blackjack import (
    DEFAULT_PRESET,
    MOVE_ORDER,
    PRESETS,
    Cell,
    Chart,
    Move,
    Rules,
    TableStore,
    analyze,
    can_deal,
    cell_key,
    load_json,
    maths,
    points_total,
    prepare_full_shoe,
    save_json,
)
from blackjack import FORMAT_VERSION as STORE_VERSION
from blackjack import table_key as store_key

FORMAT_VERSION = 4  # 4: the split EVs of blackjack.maths.splits (issue 11)
UPS: tuple[int, ...] = maths.UPS  # the chart's column order, ace last
HARD_ROWS: tuple[int, ...] = tuple(maths.HARD_ROWS)
SOFT_ROWS: tuple[int, ...] = tuple(maths.SOFT_ROWS)
PAIR_ROWS: tuple[int, ...] = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)
KINDS: tuple[str, ...] = maths.KINDS

Progress = Callable[[int, int], None]


def drill_key(rules: Rules) -> str:
    """The store key of a rule set's drill tables (the chart has its own, ``chart-v2-…``).

    >>> drill_key(Rules()).startswith("drill-v4-")
    True
    """
    return store_key("drill", rules).replace(f"-v{STORE_VERSION}-", f"-v{FORMAT_VERSION}-")


def chart_key(rules: Rules) -> str:
    return store_key("chart", rules)


def _best(ev: dict[Move, float]) -> Move:
    return max(ev, key=lambda m: (ev[m], -MOVE_ORDER.index(m)))


def analysis_key(up: int, i: int, j: int, pair: bool) -> str:
    """
    >>> analysis_key(6, 8, 3, False)
    '6:3-8n'
    """
    lo, hi = sorted((i, j))
    return f"{up}:{lo}-{hi}{'' if pair else 'n'}"


def multi_key(up: int, cards: Sequence[int]) -> str:
    """
    >>> multi_key(10, [10, 2, 4])
    '10:2-4-10'
    """
    return f"{up}:{'-'.join(str(c) for c in sorted(cards))}"


def _two_card_jobs() -> list[tuple[int, int, bool]]:
    jobs = [(i, j, i == j) for i, j in combinations_with_replacement(range(1, 11), 2)]
    jobs = [(i, j, p) for i, j, p in jobs if (i, j) != (1, 10)]  # a blackjack has no decision
    # The same values played unsplit: ten-values of different ranks under rank pairing.
    return [*jobs, (10, 10, False)]


def _multi_card_hands() -> Iterator[tuple[int, ...]]:
    """Three- and four-card hands worth asking about: hard 12-16 and soft 13-19 (three cards),
    hard 12-16 (four cards)."""
    for n in (3, 4):
        for cards in combinations_with_replacement(range(1, 11), n):
            total, soft = points_total(cards)
            if (not soft and 12 <= total <= 16) or (n == 3 and soft and 13 <= total <= 19):
                yield cards


def engine_warm() -> None:
    """Compute now, in a worker starting, the dealer's rows of the house's shoes (its decks,
    soft 17 standing and hit): a new rule set with those shoes (every calculator option but
    the decks) then needs only its own hands, about half the time (issue 13)."""
    house = PRESETS[DEFAULT_PRESET]
    for rules in (house, replace(house, dealer_hits_soft_17=not house.dealer_hits_soft_17)):
        prepare_full_shoe(rules)


def build_chart(rules: Rules, progress: Progress | None = None) -> Chart:
    """The basic-strategy chart of :func:`blackjack.strategy.basic_chart`, one up card at a
    time (``progress(done, 10)`` after each, its dealer work with it, so that the steps are
    even)."""
    cells: dict[tuple[str, int, int], Cell] = {}
    for n, up in enumerate(UPS, start=1):
        prepare_full_shoe(rules, ups=(up,))
        for kind, rows in (("hard", HARD_ROWS), ("soft", SOFT_ROWS), ("pair", PAIR_ROWS)):
            for row in rows:
                cells[kind, row, up] = maths.build_cell(rules, kind, row, up)
        if progress is not None:
            progress(n, len(UPS))
    return Chart(rules, cells)


def compute_tables(
    rules: Rules, progress: Progress | None = None, store: TableStore | None = None
) -> dict[str, Any]:
    """Build the chart (saved to ``store`` under its own key), analyse every two-card hand and
    search the "chart or exact" hands.  Returns the drill document (see :class:`Tables`)."""
    jobs = _two_card_jobs()
    multi = list(_multi_card_hands())
    chart_steps = 10 * len(jobs)  # the chart is the slow part: weigh it so
    total = chart_steps + len(UPS) * (len(jobs) + len(multi))

    def chart_progress(n: int, of: int) -> None:
        if progress is not None:
            progress(chart_steps * n // of, total)

    chart = build_chart(rules, chart_progress)
    save_json(store, chart_key(rules), chart.to_dict())
    done = chart_steps
    analyses: dict[str, dict[str, float]] = {}
    busts: dict[str, float] = {}
    for up in UPS:
        for i, j, pair in jobs:
            a = analyze(rules, [i, j], up, pair=pair)
            key = analysis_key(up, i, j, pair)
            analyses[key] = {str(m): v for m, v in a.ev.items()}
            busts[key] = a.dealer.bust
            done += 1
        if progress is not None:
            progress(done, total)
    exact: list[list[Any]] = []
    for up in UPS:
        for cards in multi:
            if not can_deal(rules, [*cards, up]):
                done += 1
                continue  # e.g. 3,3,3,3 against a 3 from one deck
            a = analyze(rules, cards, up, pair=False)
            ev = a.ev
            key = multi_key(up, cards)
            analyses[key] = {str(m): v for m, v in ev.items()}
            busts[key] = a.dealer.bust
            best = _best(ev)
            chart_move = chart.move_for(cards, up, frozenset(ev))
            if best != chart_move:
                exact.append([list(cards), up, str(best), str(chart_move)])
            done += 1
        if progress is not None:
            progress(done, total)
    return {
        "version": FORMAT_VERSION,
        "rules": rules.to_dict(),
        "analyses": analyses,
        "busts": busts,
        "exact": exact,
    }


@dataclass
class Tables:
    """The parsed tables of one rule set: the chart, the two-card analyses, the hands where
    the exact best move and the chart's differ."""

    rules: Rules
    chart: Chart
    analyses: dict[str, dict[Move, float]]
    exact: list[tuple[tuple[int, ...], int, Move, Move]]
    busts: dict[str, float]

    @classmethod
    def load(cls, store: TableStore, rules: Rules) -> Tables | None:
        """Both documents from ``store``, or ``None`` if either is missing."""
        chart_data = load_json(store, chart_key(rules))
        data = load_json(store, drill_key(rules))
        if chart_data is None or data is None:
            return None
        return cls.from_json(data, Chart.from_dict(chart_data))

    @classmethod
    def from_json(cls, data: dict[str, Any], chart: Chart) -> Tables:
        analyses = {
            key: {Move(m): float(v) for m, v in ev.items()} for key, ev in data["analyses"].items()
        }
        exact = [
            (tuple(cards), int(up), Move(best), Move(chart_move))
            for cards, up, best, chart_move in data["exact"]
        ]
        busts = {key: float(v) for key, v in data["busts"].items()}
        return cls(Rules.from_dict(data["rules"]), chart, analyses, exact, busts)

    @staticmethod
    def _key(hand: Sequence[int], up: int, pair: bool) -> str:
        if len(hand) == 2:
            return analysis_key(up, hand[0], hand[1], pair)
        return multi_key(up, hand)

    def two_card_ev(self, hand: Sequence[int], up: int, *, pair: bool) -> dict[Move, float]:
        """The stored analysis of a two-card hand; ``KeyError`` for a blackjack."""
        return self.analyses[analysis_key(up, hand[0], hand[1], pair)]

    def lookup(
        self, hand: Sequence[int], up: int, *, pair: bool
    ) -> tuple[dict[Move, float], float] | None:
        """The stored EVs and dealer bust chance of a hand, if it is one of those stored (every
        two-card hand but a blackjack, the multi-card hands of the "chart or exact" search)."""
        key = self._key(hand, up, pair)
        ev = self.analyses.get(key)
        return None if ev is None else (ev, self.busts[key])

    def cell(self, kind: str, row: int, up: int) -> Cell:
        return self.chart.cell(kind, row, up)

    def chart_move(
        self, hand: Sequence[int], up: int, legal: frozenset[Move], *, pair: bool
    ) -> Move:
        """The chart's move for a hand (points), among the ``legal`` moves."""
        return chart_move_with(
            lambda kind, row: self.chart.cell(kind, row, up), hand, legal, pair=pair
        )


def chart_move_with(
    cell: Callable[[str, int], Cell], hand: Sequence[int], legal: frozenset[Move], *, pair: bool
) -> Move:
    """Look a hand up in a chart given by ``cell(kind, row)``, as ``Chart.move_for`` does: the
    best of the cell's EVs among the legal moves."""
    kind, row, _up = cell_key(hand, 0, pair=pair and Move.SPLIT in legal)
    return Chart._pick(cell(kind, row), legal)


def live_cell(rules: Rules, kind: str, row: int, up: int) -> Cell:
    """One chart cell computed now, for a rule set whose tables are not stored yet (a few
    analyses; slower than a lookup but short)."""
    return maths.build_cell(rules, kind, row, up)
