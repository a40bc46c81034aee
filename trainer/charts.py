"""The tables computed once per rule set: every two-card analysis, the chart, "chart or exact".

A drill must answer within milliseconds, but a cold exact analysis of a pair costs up to a few
hundred.  So for each rule set we analyse, once, every two-card hand (55 point combinations)
against every up card, derive the total-dependent basic-strategy chart from those analyses, and
search the three- and four-card hands whose exact best move differs from the chart's.  The
result is one JSON document stored in ``ComputedTable`` (shared by every app server) and kept
parsed in process memory.

**The chart.**  A cell (hard or soft total, or a pair, against an up card) gets the move whose
EV, averaged over the two-card hands of that total weighted by their chance from a full shoe,
is highest: the classic total-dependent basic strategy.  ``alt`` is the best of hit and stand,
played where the cell's move is not allowed (a double or a surrender after the first two
cards).  Hard 20 and soft 12 only arise as unsplit pairs (10-10, A-A); their rows use those
hands played without splitting.  This module stands in for ``blackjack.strategy.basic_chart``
until that lands on the ``ev`` branch; the JSON format stays the same.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Any

from blackjack.cards import full_composition
from blackjack.ev import MOVE_ORDER, analyze, hand_total
from blackjack.moves import Move
from blackjack.rules import PairsBy, Rules

FORMAT_VERSION = 1
UPS: tuple[int, ...] = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)  # the chart's column order, ace last
HARD_ROWS: tuple[int, ...] = tuple(range(5, 21))
SOFT_ROWS: tuple[int, ...] = tuple(range(13, 21))
PAIR_ROWS: tuple[int, ...] = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)
KINDS: tuple[str, ...] = ("hard", "soft", "pair")
HIT_STAND = frozenset({Move.HIT, Move.STAND})

EvGetter = Callable[[int, int, int, bool], dict[Move, float]]
Progress = Callable[[int, int], None]


def table_key(rules: Rules) -> str:
    """The ``ComputedTable.key`` of a rule set's tables.

    >>> table_key(Rules())[:7]
    'tables:'
    """
    return f"tables:v{FORMAT_VERSION}:{rules.key()}"


@dataclass(frozen=True, slots=True)
class ChartCell:
    """One cell of the chart: the move, the fallback of hit or stand, the averaged EVs."""

    move: Move
    alt: Move
    ev: dict[Move, float]

    @property
    def code(self) -> str:
        """The letter printed in the cell: H, S, D (else hit), Ds (else stand), P, R, Rs.

        >>> ChartCell(Move.DOUBLE, Move.STAND, {}).code
        'Ds'
        """
        letter = {
            Move.HIT: "H",
            Move.STAND: "S",
            Move.DOUBLE: "D",
            Move.SPLIT: "P",
            Move.SURRENDER: "R",
        }[self.move]
        if self.move in (Move.DOUBLE, Move.SURRENDER) and self.alt == Move.STAND:
            letter += "s"
        return letter


def _best(ev: dict[Move, float], allowed: frozenset[Move] | None = None) -> Move:
    moves = [m for m in ev if allowed is None or m in allowed]
    return max(moves, key=lambda m: (ev[m], -MOVE_ORDER.index(m)))


def _combos(kind: str, row: int) -> list[tuple[int, int, bool]]:
    """The two-card hands (points, and whether they are played as a pair) forming a cell."""
    if kind == "pair":
        return [(row, row, True)]
    if kind == "soft":
        return [(1, 1, False)] if row == 12 else [(1, row - 11, False)]
    if row == 20:
        return [(10, 10, False)]
    if row == 4:
        return [(2, 2, False)]
    return [(i, row - i, False) for i in range(2, 11) if i < row - i <= 10]


def cell_from(rules: Rules, kind: str, row: int, up: int, get: EvGetter) -> ChartCell:
    """A chart cell from the analyses of its two-card hands (see the module docstring)."""
    comp = full_composition(rules.decks)
    weights: list[float] = []
    evs: list[dict[Move, float]] = []
    for i, j, pair in _combos(kind, row):
        weights.append(float(comp[i - 1] * comp[j - 1]))
        evs.append(get(up, i, j, pair))
    moves = [m for m in MOVE_ORDER if all(m in e for e in evs)]
    total = sum(weights)
    ev = {m: sum(w * e[m] for w, e in zip(weights, evs, strict=True)) / total for m in moves}
    return ChartCell(_best(ev), _best(ev, HIT_STAND), ev)


def analysis_key(up: int, i: int, j: int, pair: bool) -> str:
    lo, hi = sorted((i, j))
    return f"{up}:{lo}-{hi}{'' if pair else 'n'}"


def _two_card_jobs() -> list[tuple[int, int, bool]]:
    jobs = [(i, j, i == j) for i, j in combinations_with_replacement(range(1, 11), 2)]
    jobs = [(i, j, p) for i, j, p in jobs if (i, j) != (1, 10)]  # a blackjack has no decision
    return [*jobs, (1, 1, False), (10, 10, False), (2, 2, False)]


def _multi_card_hands() -> Iterator[tuple[int, ...]]:
    """Three- and four-card hands worth asking about: hard 12-16 and soft 13-19 (three cards),
    hard 12-16 (four cards)."""
    for n in (3, 4):
        for cards in combinations_with_replacement(range(1, 11), n):
            total, soft = hand_total(cards)
            if (not soft and 12 <= total <= 16) or (n == 3 and soft and 13 <= total <= 19):
                yield cards


def compute_tables(rules: Rules, progress: Progress | None = None) -> dict[str, Any]:
    """Analyse every two-card hand, build the chart and the "chart or exact" list.

    ``progress(done, total)`` is called as the work advances.  Returns the JSON document
    stored in ``ComputedTable`` (read back with :func:`Tables.from_json`).
    """
    jobs = _two_card_jobs()
    multi = list(_multi_card_hands())
    total = len(UPS) * (len(jobs) + len(multi))
    done = 0
    analyses: dict[str, dict[str, float]] = {}
    parsed: dict[str, dict[Move, float]] = {}
    for up in UPS:
        for i, j, pair in jobs:
            ev = analyze(rules, [i, j], up, pair=pair).ev
            key = analysis_key(up, i, j, pair)
            parsed[key] = ev
            analyses[key] = {str(m): v for m, v in ev.items()}
            done += 1
        if progress is not None:
            progress(done, total)
    tables = Tables.build(rules, parsed, [])
    exact: list[list[Any]] = []
    for up in UPS:
        for cards in multi:
            ev = analyze(rules, cards, up, pair=False).ev
            best = _best(ev)
            chart = tables.chart_move(cards, up, frozenset(ev), pair=False)
            if best != chart:
                exact.append([list(cards), up, str(best), str(chart)])
            done += 1
        if progress is not None:
            progress(done, total)
    return {
        "version": FORMAT_VERSION,
        "rules": rules.to_dict(),
        "analyses": analyses,
        "exact": exact,
    }


@dataclass
class Tables:
    """The parsed tables of one rule set."""

    rules: Rules
    analyses: dict[str, dict[Move, float]]
    chart: dict[tuple[str, int, int], ChartCell]
    exact: list[tuple[tuple[int, ...], int, Move, Move]]

    @classmethod
    def build(
        cls,
        rules: Rules,
        analyses: dict[str, dict[Move, float]],
        exact: Sequence[tuple[tuple[int, ...], int, Move, Move]],
    ) -> Tables:
        def get(up: int, i: int, j: int, pair: bool) -> dict[Move, float]:
            return analyses[analysis_key(up, i, j, pair)]

        chart: dict[tuple[str, int, int], ChartCell] = {}
        for up in UPS:
            for kind, rows in (
                ("hard", (4, *HARD_ROWS)),
                ("soft", (12, *SOFT_ROWS)),
                ("pair", PAIR_ROWS),
            ):
                for row in rows:
                    chart[kind, row, up] = cell_from(rules, kind, row, up, get)
        return cls(rules, analyses, chart, list(exact))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Tables:
        analyses = {
            key: {Move(m): float(v) for m, v in ev.items()} for key, ev in data["analyses"].items()
        }
        exact = [
            (tuple(cards), int(up), Move(best), Move(chart))
            for cards, up, best, chart in data["exact"]
        ]
        return cls.build(Rules.from_dict(data["rules"]), analyses, exact)

    def two_card_ev(self, hand: Sequence[int], up: int, *, pair: bool) -> dict[Move, float]:
        """The stored analysis of a two-card hand; ``KeyError`` for a blackjack."""
        return self.analyses[analysis_key(up, hand[0], hand[1], pair)]

    def cell(self, kind: str, row: int, up: int) -> ChartCell:
        return self.chart[kind, row, up]

    def chart_move(
        self, hand: Sequence[int], up: int, legal: frozenset[Move], *, pair: bool
    ) -> Move:
        """The chart's move for a hand (points), among the ``legal`` moves."""
        return chart_move_with(
            lambda kind, row: self.chart[kind, row, up], self.rules, hand, legal, pair=pair
        )


def chart_move_with(
    cell: Callable[[str, int], ChartCell],
    rules: Rules,
    hand: Sequence[int],
    legal: frozenset[Move],
    *,
    pair: bool,
) -> Move:
    """Look a hand up in a chart given by ``cell(kind, row)``: the pair row when the hand may
    split, else its total's row; the cell's fallback where its move is not legal."""
    if pair and Move.SPLIT in legal:
        c = cell("pair", hand[0])
    else:
        total, soft = hand_total(hand)
        if total >= 21:
            return Move.STAND
        c = cell("soft", max(total, 12)) if soft else cell("hard", max(total, 5))
    if c.move in legal:
        return c.move
    return c.alt if c.alt in legal else Move.STAND


def is_pair_hand(rules: Rules, ranks: Sequence[str]) -> bool:
    """Two cards that split under ``rules``, from their ranks."""
    if len(ranks) != 2:
        return False
    if rules.pairs_by == PairsBy.RANK:
        return ranks[0] == ranks[1]
    tens = {"10", "J", "Q", "K"}
    return ranks[0] == ranks[1] or (ranks[0] in tens and ranks[1] in tens)


def live_cell(rules: Rules, kind: str, row: int, up: int) -> ChartCell:
    """One chart cell computed now, for a rule set whose tables are not stored yet (a few
    analyses; slower than a lookup but short)."""

    def get(up_: int, i: int, j: int, pair: bool) -> dict[Move, float]:
        return analyze(rules, [i, j], up_, pair=pair).ev

    return cell_from(rules, kind, row, up, get)
