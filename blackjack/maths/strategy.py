"""Basic-strategy charts, the exact best move and the house edge.

The chart is *total-dependent*: a cell is a hard total (5–21), a soft total (13–21) or a pair,
against an up card.  Its EVs average the exact EVs (:mod:`blackjack.maths.ev`) of the two-card hands
that make it, weighted by how often each is dealt from a full shoe and, after a peek, by the
chance the dealer has no blackjack; the cell's move is the best of those averages.  Rows no
two-card hand reaches without being a pair (hard 20 and 21, soft 21) average the three-card
hands instead.  Hands of more cards use their total's row.  ``Chart.move_for`` picks the best
move *among the legal ones* by the cell's EVs, which is what a printed chart's "Dh", "Ds", "Rh"
entries say.

The house edge is the expected return of a round from a full shoe, either played by the chart
(pairs split and hands doubled as it says, later hits by the hard or soft row) or by the best
move for the exact cards at every decision.  Insurance is never taken.

>>> Cell(Move.DOUBLE, {Move.DOUBLE: 0.2, Move.STAND: 0.1, Move.HIT: 0.05}).code()
'Ds'
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache
from typing import Any

from blackjack.cards import full_composition
from blackjack.hand import is_points_blackjack, points_total
from blackjack.maths.engine import clear_caches as ev_clear_caches
from blackjack.maths.ev import (
    Analysis,
    analyze,
    best_by_ev,
    forget_analyses,
    prepare_full_shoe,
    rank_by_ev,
    round_ev,
)
from blackjack.maths.store import TableStore, load_json, save_json, table_key
from blackjack.moves import MOVE_ORDER, Move
from blackjack.rules import DoubleOn, PairsBy, Peek, Rules, Surrender

UPS: tuple[int, ...] = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)  # chart column order, ace last
HARD_ROWS = range(5, 22)
SOFT_ROWS = range(13, 22)
PAIR_ROWS = range(1, 11)
KINDS = ("hard", "soft", "pair")

CellKey = tuple[str, int, int]  # (kind, row value, up card)


@dataclass(frozen=True)
class Cell:
    """One chart cell: the move to play and the EVs behind it (per unit of the initial bet)."""

    move: Move
    ev: dict[Move, float]

    def code(self) -> str:
        """The printed-chart code: H, S, P, Dh/Ds (double, else hit/stand), Rh/Rs/Rp."""
        if self.move == Move.DOUBLE:
            fallback = best_by_ev(self.ev, (Move.HIT, Move.STAND))
            return "Ds" if fallback == Move.STAND else "Dh"
        if self.move == Move.SURRENDER:
            fallback = best_by_ev(self.ev, (Move.HIT, Move.STAND, Move.SPLIT))
            return "R" + {Move.STAND: "s", Move.SPLIT: "p"}.get(fallback or Move.HIT, "h")
        return {Move.HIT: "H", Move.STAND: "S", Move.SPLIT: "P"}[self.move]


def cell_key(hand: Sequence[int], up: int, *, pair: bool | None = None) -> CellKey:
    """The chart cell of a hand (points, ace = 1) against ``up``: ``(kind, row, up)``, the one
    chart-cell key of the engine.  ``pair``: whether the hand may be split, when the caller
    knows the ranks (default: two equal points); a pair's row is its card's points, a soft
    hand's its total from 13, a hard hand's from 5.  Hands of three or more cards take their
    total's row.

    >>> [cell_key(hand, 10) for hand in ([8, 8], [1, 6], [9, 3, 4], [2, 3])]
    [('pair', 8, 10), ('soft', 17, 10), ('hard', 16, 10), ('hard', 5, 10)]
    """
    if pair if pair is not None else len(hand) == 2 and hand[0] == hand[1]:
        return "pair", hand[0], up
    hard = sum(hand)
    if 1 in hand and hard <= 11:
        return "soft", max(hard + 10, 13), up
    if hard > 21:
        raise ValueError("the hand is bust")
    return "hard", max(hard, 5), up


def row_key(total: int, soft: bool, up: int) -> CellKey:
    """The cell of the hard or soft row of ``total`` (for hands of three or more cards).

    >>> row_key(12, True, 6), row_key(4, False, 6)
    (('soft', 13, 6), ('hard', 5, 6))
    """
    return ("soft", max(total, 13), up) if soft else ("hard", max(total, 5), up)


@dataclass(frozen=True)
class Chart:
    """A total-dependent basic-strategy chart for one rule set."""

    rules: Rules
    cells: dict[CellKey, Cell]
    # Each cell's moves, best first by its EVs (ties to the earlier in MOVE_ORDER): the pick
    # among the legal moves is then the first legal one, not a ``max`` over the EVs per call.
    _orders: dict[CellKey, tuple[Move, ...]] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )
    # The pick per (cell, legal set), filled as asked: few legal sets occur, so it stays small.
    _picks: dict[tuple[CellKey, frozenset[Move]], Move] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        for key, cell in self.cells.items():
            self._orders[key] = rank_by_ev(cell.ev)

    def cell(self, kind: str, row: int, up: int) -> Cell:
        return self.cells[(kind, row, up)]

    def move_for(self, hand: Sequence[int], up: int, legal: frozenset[Move]) -> Move:
        """The chart's move for a hand when ``legal`` are the moves allowed now.

        >>> chart = Chart(Rules(), {("hard", 11, 6): Cell(Move.DOUBLE,
        ...     {Move.HIT: 0.3, Move.STAND: -0.1, Move.DOUBLE: 0.6})})
        >>> chart.move_for([5, 6], 6, frozenset({Move.HIT, Move.STAND}))
        <Move.HIT: 'hit'>
        """
        key = cell_key(hand, up)
        move = self._picks.get((key, legal))
        if move is None:
            move = self._picks[(key, legal)] = self._pick_ordered(key, legal)
        return move

    def move_for_total(self, total: int, soft: bool, up: int, legal: frozenset[Move]) -> Move:
        """The move of the hard or soft row of ``total`` (for hands of three or more cards)."""
        key = row_key(total, soft, up)
        move = self._picks.get((key, legal))
        if move is None:
            move = self._picks[(key, legal)] = self._pick_ordered(key, legal)
        return move

    def _pick_ordered(self, key: CellKey, legal: frozenset[Move]) -> Move:
        """The first legal move of the cell's preference order: what :meth:`_pick` gives."""
        if key not in self._orders:  # cells added after construction
            return self._pick(self.cells[key], legal)
        for move in self._orders[key]:
            if move in legal:
                return move
        return Move.STAND if Move.STAND in legal else min(legal, key=MOVE_ORDER.index)

    @staticmethod
    def _pick(cell: Cell, legal: frozenset[Move]) -> Move:
        move = best_by_ev(cell.ev, legal)
        if move is not None:
            return move
        return Move.STAND if Move.STAND in legal else min(legal, key=MOVE_ORDER.index)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "cells": [
                {"kind": k, "row": r, "up": u, "move": str(c.move),
                 "ev": {str(m): v for m, v in c.ev.items()}}
                for (k, r, u), c in self.cells.items()
            ],
        }  # fmt: skip

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Chart:
        cells = {
            (c["kind"], int(c["row"]), int(c["up"])): Cell(
                Move(c["move"]), {Move(m): float(v) for m, v in c["ev"].items()}
            )
            for c in data["cells"]
        }
        return cls(Rules.from_dict(data["rules"]), cells)

    def text(self) -> str:
        """The chart as a fixed-width table: rows by total, columns 2–10 and A."""
        head = " " * 10 + "".join(f"{'A' if u == 1 else u:>4}" for u in UPS)
        lines = [head]
        for kind, rows in (("hard", HARD_ROWS), ("soft", SOFT_ROWS), ("pair", PAIR_ROWS)):
            for row in rows:
                if kind == "pair":
                    label = "pair A,A" if row == 1 else f"pair {row},{row}"
                else:
                    label = f"{kind} {row}"
                codes = "".join(f"{self.cells[(kind, row, u)].code():>4}" for u in UPS)
                lines.append(f"{label:<10}{codes}")
        return "\n".join(lines)


# --- building the chart -----------------------------------------------------------------


@cache
def _members(kind: str, row: int) -> tuple[tuple[int, ...], ...]:
    """The hands averaged in a cell: two-card hands, or three-card where there are none."""
    if kind == "pair":
        return ((row, row),)
    two = tuple(
        (a, b)
        for a, b in itertools.combinations_with_replacement(range(1, 11), 2)
        if a != b
        and points_total([a, b]) == (row, kind == "soft")
        and not is_points_blackjack([a, b])
    )
    if two:
        return two
    return tuple(
        hand
        for hand in itertools.combinations_with_replacement(range(1, 11), 3)
        if points_total(hand) == (row, kind == "soft")
    )


def _dealt_probability(rules: Rules, hand: Sequence[int], up: int) -> float:
    """Chance of being dealt exactly this multiset from a full shoe less the up card."""
    comp = list(full_composition(rules.decks))
    comp[up - 1] -= 1
    n = sum(comp)
    ways = math.factorial(len(hand))
    p = 1.0
    for i, card in enumerate(hand):
        p *= comp[card - 1] / (n - i)
        comp[card - 1] -= 1
    for card in set(hand):
        ways //= math.factorial(hand.count(card))
    return p * ways


def build_cell(rules: Rules, kind: str, row: int, up: int) -> Cell:
    """One cell of the chart of ``rules`` (``kind`` "hard", "soft" or "pair"; ``row`` the
    total, or the pair card's points; ``up`` the up card, ace = 1), computed alone: the
    trainer builds a chart one up card at a time to show its progress.

    >>> build_cell(Rules(), "pair", 8, 6).move
    <Move.SPLIT: 'split'>
    """
    totals: dict[Move, float] = {}
    weight = 0.0
    common: set[Move] | None = None
    analyses: list[tuple[float, Analysis]] = []
    for hand in _members(kind, row):
        a = analyze(rules, hand, up)
        mass = 1.0 - a.p_dealer_blackjack if a.conditioned else 1.0
        w = _dealt_probability(rules, hand, up) * mass
        analyses.append((w, a))
        common = set(a.ev) if common is None else common & set(a.ev)
    for w, a in analyses:
        weight += w
        for m in common or ():
            totals[m] = totals.get(m, 0.0) + w * a.ev[m]
    ev = {m: totals[m] / weight for m in MOVE_ORDER if m in totals}
    move = best_by_ev(ev, frozenset(ev))
    assert move is not None
    return Cell(move, ev)


_CHARTS: dict[Rules, Chart] = {}


def clear_caches() -> None:
    """Forget charts and EVs kept in memory (the store keeps its tables)."""
    _CHARTS.clear()
    forget_analyses()
    ev_clear_caches()


def basic_chart(rules: Rules, *, store: TableStore | None = None) -> Chart:
    """The total-dependent basic-strategy chart of ``rules``, from memory, the store, or
    computed (and then stored)."""
    key = table_key("chart", rules)
    chart = _CHARTS.get(rules)
    if chart is not None:
        if store is not None and store.get(key) is None:
            save_json(store, key, chart.to_dict())  # computed before this store was given
        return chart
    data = load_json(store, key)
    if data is not None:
        chart = Chart.from_dict(data)
    else:
        prepare_full_shoe(rules)
        cells = {
            (kind, row, up): build_cell(rules, kind, row, up)
            for up in UPS
            for kind, rows in (("hard", HARD_ROWS), ("soft", SOFT_ROWS), ("pair", PAIR_ROWS))
            for row in rows
        }
        chart = Chart(rules, cells)
        save_json(store, key, chart.to_dict())
    _CHARTS[rules] = chart
    return chart


def best_move(
    rules: Rules,
    hand: Sequence[int],
    up: int,
    *,
    removed: Sequence[int] = (),
    legal: frozenset[Move] | None = None,
    split_hands: int = 1,
    from_split: bool = False,
) -> Move:
    """The best move by exact EV for these cards (composition-dependent), among ``legal``.

    >>> best_move(Rules(), [10, 2], 4), best_move(Rules(), [7, 5], 4)
    (<Move.HIT: 'hit'>, <Move.STAND: 'stand'>)
    """
    a = analyze(rules, hand, up, removed=removed, split_hands=split_hands, from_split=from_split)
    move = best_by_ev(a.ev, legal if legal is not None else frozenset(a.ev))
    if move is None:
        raise ValueError("no legal move has an EV")
    return move


# --- house edge ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Edge:
    """The player's expected return per initial bet (negative: the house's edge)."""

    basic_strategy: float
    composition_dependent: float


def _round_return(rules: Rules, chart: Chart | None) -> float:
    full = full_composition(rules.decks)
    n = sum(full)
    prepare_full_shoe(rules)
    total = 0.0
    for up in range(1, 11):
        p_up = full[up - 1] / n
        for hand in itertools.combinations_with_replacement(range(1, 11), 2):
            p = _dealt_probability(rules, hand, up)
            total += p_up * p * round_ev(rules, hand, up, chart)
    return total


def house_edge(rules: Rules, *, store: TableStore | None = None) -> Edge:
    """The expected return of a round from a full shoe, by the chart and by exact play."""
    key = table_key("edge", rules)
    data = load_json(store, key)
    if data is not None:
        return Edge(float(data["basic_strategy"]), float(data["composition_dependent"]))
    chart = basic_chart(rules, store=store)
    edge = Edge(_round_return(rules, chart), _round_return(rules, None))
    save_json(store, key, {"basic_strategy": edge.basic_strategy,
                           "composition_dependent": edge.composition_dependent})  # fmt: skip
    return edge


# The single rule changes worth showing, in the command line's order: a choice names its
# flag and values; a switch (a pair of flags) names the flag turning it on, then off.
_VARIATIONS: tuple[tuple[str, str | tuple[str, str], tuple[object, ...]], ...] = (
    ("decks", "--decks", (1, 2, 4, 6, 8)),
    ("dealer_hits_soft_17", ("--h17", "--s17"), ()),
    ("peek", "--peek", tuple(Peek)),
    ("blackjack_pays", "--bj-pays", (Fraction(3, 2), Fraction(6, 5))),
    ("double_on", "--double", tuple(DoubleOn)),
    ("double_soft", ("--double-soft", "--no-double-soft"), ()),
    ("double_after_split", ("--das", "--no-das"), ()),
    ("max_hands", "--max-hands", (2, 3, 4)),
    ("pairs_by", "--pairs-by", tuple(PairsBy)),
    ("resplit_aces", ("--rsa", "--no-rsa"), ()),
    ("hit_split_aces", ("--hsa", "--no-hsa"), ()),
    ("surrender", "--surrender", tuple(Surrender)),
)


def rule_variations(rules: Rules) -> dict[str, Rules]:
    """Each single rule change worth showing, named as on the command line.

    >>> sorted(rule_variations(Rules()))[:3]
    ['--bj-pays 6:5', '--decks 1', '--decks 2']
    """
    out: dict[str, Rules] = {}
    for name, flag, values in _VARIATIONS:
        now = getattr(rules, name)
        if isinstance(flag, tuple):
            switched: dict[str, Any] = {name: not now}
            out[flag[1] if now else flag[0]] = replace(rules, **switched)
            continue
        for value in values:
            if value != now:
                shown = (
                    f"{value.numerator}:{value.denominator}"
                    if isinstance(value, Fraction)
                    else str(value)
                )
                changed: dict[str, Any] = {name: value}
                out[f"{flag} {shown}"] = replace(rules, **changed)
    return out


def rule_effects(
    rules: Rules,
    *,
    store: TableStore | None = None,
    progress: Callable[[str], None] | None = None,
) -> dict[str, float]:
    """How much each single rule change moves the expected return (positive: better for the
    player).  Uses composition-dependent play for every rule set, which moves with the rules
    as basic strategy does but needs no chart; each variation is a full edge computation, so
    the result is stored.  Insurance and the reshuffle point do not change the edge, and rank
    pairing changes it only through ten-value pairs, which are never split."""
    key = table_key("rule-effects", rules)
    data = load_json(store, key)
    if data is not None:
        return {k: float(v) for k, v in data.items()}
    base = _round_return(rules, None)
    out: dict[str, float] = {}
    for name, variant in rule_variations(rules).items():
        if progress is not None:
            progress(name)
        out[name] = _round_return(variant, None) - base
        ev_clear_caches()  # each variant's memos are of no use to the next: free them
    save_json(store, key, out)
    return out
