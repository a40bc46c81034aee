"""Coach mode with count practice: where the stored index table of the table's rules and the
learner's count system says the move departs from the chart at the current true count, the
coach judges against the index play.

The index table is read as the worker stored it (:func:`computed.indices.indices_get`); one
not stored yet leaves the coach as it was, and says so.  The options' EVs shown beside an index
play are the engine's exact EVs in a shoe at that true count, made as the index table's own
shoes are (:func:`blackjack.counting.count_shoe`, at the table's depth): the figures the index
was found from, for this hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from blackjack import Move, Phase, RoundState, Rules, analyze, cell_key, insurance_gain, is_pair
from blackjack.cards import full_composition
from blackjack.counting import CountSystem, IndexPlay, IndexTable, count_shoe
from computed.indices import indices_get
from game import ai


@dataclass(frozen=True, slots=True)
class IndexAdvice:
    """What the index table says of the hand in turn at ``true`` count.  ``play``: the index
    play that applies (``None``: the chart's move stands); ``missing``: no table stored."""

    system: CountSystem
    true: int
    missing: bool = False
    play: IndexPlay | None = None
    ev: Mapping[Move, float] | None = None  # the options' EVs at this count, with a play

    @property
    def move(self) -> Move | None:
        return self.play.move if self.play is not None else None


def _cells(state: RoundState) -> list[tuple[str, int, int]]:
    """The index table's cells the hand in turn falls in: a pair's own and its total's."""
    if state.phase is Phase.INSURANCE:
        return [("insurance", 0, 1)]
    assert state.turn is not None
    seat, h = state.turn
    hand = state.box(seat).hands[h]
    points = [c.points for c in hand.cards]
    if sum(points) > 21:
        return []
    up = state.up_card.points
    cells = [cell_key(points, up, pair=False)]
    if len(points) == 2 and is_pair(hand.cards, state.rules):
        cells.insert(0, cell_key(points, up, pair=True))
    return cells


def applying_play(
    table: IndexTable, state: RoundState, *, true: int, offered: frozenset[Move]
) -> IndexPlay | None:
    """The index play of the hand in turn that applies at ``true``: its cell's, departing
    from the chart's move for these options, the count on its side of the index."""
    basic = ai.chart_move(state, offered)
    for kind, row, up in _cells(state):
        for play in table.find(kind, row, up):
            if play.basic is not basic or play.move not in offered:
                continue
            if (true >= play.index) == play.above:
                return play
    return None


@lru_cache(maxsize=2048)
def _evs_at(
    rules: Rules,
    system: CountSystem,
    cards_left: int,
    true: int,
    points: tuple[int, ...],
    up: int,
    hands: int,
    from_split: bool,
    pair: bool,
    insurance: bool,
) -> tuple[tuple[Move, float], ...] | None:
    shoe = count_shoe(system, rules.decks, cards_left, true)
    if insurance:
        return ((Move.DECLINE, 0.0), (Move.INSURE, insurance_gain(rules, points, shoe)))
    full = full_composition(rules.decks)
    removed: list[int] = []
    for i in range(10):  # the cards seen besides the hand and the up card
        n = full[i] - shoe[i] - [*points, up].count(i + 1)
        if n < 0:
            return None
        removed += [i + 1] * n
    a = analyze(
        rules, points, up, removed=removed, split_hands=hands, from_split=from_split, pair=pair
    )
    return tuple(a.ev.items())


def evs_at_count(
    state: RoundState, *, table: IndexTable, true: int, offered: frozenset[Move]
) -> dict[Move, float] | None:
    """The EVs of the ``offered`` options of the hand in turn in a shoe at ``true`` count."""
    assert state.turn is not None
    seat, h = state.turn
    box = state.box(seat)
    insurance = state.phase is Phase.INSURANCE
    hand = box.hands[0 if insurance else h]
    points = tuple(c.points for c in hand.cards)
    pair = len(points) == 2 and is_pair(hand.cards, state.rules)
    evs = _evs_at(
        state.rules, table.system, table.cards_left, true, points, state.up_card.points,
        len(box.hands), hand.from_split, pair, insurance,
    )  # fmt: skip
    if evs is None:
        return None
    return {m: v for m, v in evs if m in offered}


def index_advice(
    state: RoundState, *, system: CountSystem, true: int, offered: frozenset[Move]
) -> IndexAdvice:
    """The index table's word on the hand in turn at ``true`` count (see the module)."""
    table = indices_get(state.rules, system)
    if table is None:
        return IndexAdvice(system=system, true=true, missing=True)
    play = applying_play(table, state, true=true, offered=offered)
    if play is None:
        return IndexAdvice(system=system, true=true)
    ev = evs_at_count(state, table=table, true=true, offered=offered)
    return IndexAdvice(system=system, true=true, play=play, ev=ev)
