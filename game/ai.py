"""The mathematics of a decision at the table, from the project's one source of each part.

* The AI seat-mates are :data:`blackjack.strategy.POLICIES` (*easy*, *normal*, *hard*).  Each
  is shown only what a player in that box could see: its own cards, the up card and, as
  ``seen``, the other cards face up on the table this round (never the hole card or the shoe).
* The chart is :func:`blackjack.strategy.basic_chart` of the table's rules, read from the
  ``ComputedTable`` rows (:data:`computed.store.STORE`) and then kept
  in this process, so that a move costs no query and no computation for it.
* The EVs of the learner's options come from the precomputed two-card analyses
  (:func:`computed.selectors.tables_get`) where the hand is one of them, from
  :func:`blackjack.ev.analyze` otherwise (hands of three cards or more, split hands), whose
  answers this process keeps (the same few hundred hands come back all the time).  Like the
  drills and the chart they are taken from a full shoe less the hand and the up card.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import Final

from blackjack import (
    POLICIES,
    Chart,
    Hand,
    Move,
    Phase,
    RoundState,
    Rules,
    analyze,
    basic_chart,
    insurance_options,
    is_pair,
    legal_moves,
)
from computed.selectors import tables_get
from computed.store import STORE

LEVELS: Final = tuple(POLICIES)


_CHARTS: dict[Rules, Chart] = {}


def chart(rules: Rules) -> Chart:
    """The basic-strategy chart of ``rules`` (stored by the trainer's bootstrap for the house
    rules; computed once and stored for a variant nobody has played yet).  Kept here by the
    rules themselves: ``basic_chart`` names its table by ``Rules.key()``, a digest that costs
    more than the lookup."""
    found = _CHARTS.get(rules)
    if found is None:
        found = _CHARTS[rules] = basic_chart(rules, store=STORE)
    return found


def _points(hand: Hand) -> list[int]:
    return [c.points for c in hand.cards]


def _hand_in_turn(state: RoundState) -> tuple[int, Hand]:
    """The number of hands of the box in turn, and the hand that decides now (the first
    hand while insurance is asked)."""
    assert state.turn is not None
    seat, h = state.turn
    box = state.box(seat)
    return len(box.hands), box.hands[0 if state.phase is Phase.INSURANCE else h]


def ai_move(state: RoundState, level: str) -> Move:
    """The move of the AI box in turn at ``level``, from what that box can see."""
    assert state.turn is not None
    seat, h = state.turn
    hands, hand = _hand_in_turn(state)
    rules = state.rules
    seen = [
        c.points
        for b in state.boxes
        for i, other in enumerate(b.hands)
        if (b.seat, i) != (seat, h)
        for c in other.cards
    ]
    if level == "normal":
        chart(rules)  # NORMAL reads the chart from memory: make sure it is there
    return POLICIES[level].choose(
        cards=_points(hand),
        up=state.up_card.points,
        legal=legal_moves(state),
        rules=rules,
        seen=seen,
        split_hands=hands,
        from_split=hand.from_split,
    )


def chart_move(state: RoundState, legal: frozenset[Move]) -> Move:
    """What the chart plays for the hand in turn among ``legal`` (insurance: never)."""
    if Move.INSURE in legal or Move.DECLINE in legal:
        return Move.DECLINE
    _hands, hand = _hand_in_turn(state)
    return chart(state.rules).move_for(_points(hand), state.up_card.points, legal)


def decision_ev(state: RoundState, legal: frozenset[Move]) -> dict[Move, float] | None:
    """The EV of each of the ``legal`` options of the hand in turn, per unit of its bet;
    ``None`` when there is nothing to decide (a blackjack offered even money is decided by
    its own formula, see :func:`blackjack.ev.analyze`)."""
    hands, hand = _hand_in_turn(state)
    rules = state.rules
    points = _points(hand)
    up = state.up_card.points
    pair = len(hand.cards) == 2 and is_pair(hand.cards, rules)
    if state.phase is Phase.INSURANCE:
        return insurance_options(rules, points)  # even money too, holding a blackjack
    ev: Mapping[Move, float] | None = None
    if len(points) == 2 and hands == 1 and not hand.from_split:
        tables = tables_get(rules)
        stored = tables.lookup(points, up, pair=pair) if tables is not None else None
        if stored is not None and legal <= stored[0].keys():
            ev = stored[0]
    if ev is None:
        ev = _analyzed(rules, tuple(points), up, hands, hand.from_split, pair)
        if ev is None:  # a bust hand: nothing to decide
            return None
    return {m: v for m, v in ev.items() if m in legal}


# A move's hand of three cards or more costs analyze() milliseconds; 8,192 answers of a few
# options each are a few MB.
@lru_cache(maxsize=8192)
def _analyzed(
    rules: Rules, points: tuple[int, ...], up: int, hands: int, from_split: bool, pair: bool
) -> Mapping[Move, float] | None:
    try:
        ev = analyze(rules, points, up, split_hands=hands, from_split=from_split, pair=pair).ev
    except ValueError:
        return None
    return MappingProxyType(ev)
