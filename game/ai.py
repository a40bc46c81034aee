"""The AI seat-mates' levels and the strategy chart, as play mode uses them.

``blackjack.strategy`` (its ``POLICIES``) is being written on another branch; until it lands,
this module gives the three levels of RULES.md from :mod:`blackjack.ev` directly.  When it
lands, :data:`POLICIES` should wrap it (its signature is not known here yet).

* *Easy* hits below 17 and otherwise stands; it never insures.
* *Normal* follows the total-dependent chart: the best move by exact EV for a representative
  two-card hand of the same kind and total (hard 16 is played as 10-6), from a full shoe.
* *Hard* plays the best move by exact EV for its own cards and the up card (composition-
  dependent), and insures only when insurance has a positive EV for its cards.

Every level sees only its own hand and the up card: never the hole card or the shoe.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from django.core.cache import cache

from blackjack.cards import Card
from blackjack.ev import Analysis, analyze
from blackjack.hand import hand_total, is_pair
from blackjack.moves import Move
from blackjack.rules import Rules

LEVELS: Final = ("easy", "normal", "hard")

# A policy: (rules, hand, up card, legal moves, hands in the box, hand came from a split).
Policy = Callable[[Rules, tuple[Card, ...], Card, frozenset[Move], int, bool], Move]

_PLAY_ORDER = (Move.STAND, Move.HIT, Move.DOUBLE, Move.SPLIT, Move.SURRENDER)


def _fallback(legal: frozenset[Move]) -> Move:
    """A move always allowed while a hand is in turn; for the insurance phase, decline."""
    if Move.DECLINE in legal:
        return Move.DECLINE
    return Move.STAND if Move.STAND in legal else sorted(legal)[0]


def _best(ev: Mapping[Move, float], legal: frozenset[Move]) -> Move:
    options = [m for m in _PLAY_ORDER if m in ev and m in legal]
    if not options:
        return _fallback(legal)
    return max(options, key=lambda m: (ev[m], -_PLAY_ORDER.index(m)))


def chart_cell(rules: Rules, hand: tuple[Card, ...]) -> tuple[str, int]:
    """The row of the chart a hand falls in: ``("pair", points)`` for a splittable first
    two cards, else ``("soft" | "hard", total)``.

    >>> from blackjack.cards import parse_cards
    >>> from blackjack.rules import PRESETS
    >>> chart_cell(PRESETS["thoth"], tuple(parse_cards("As 6d")))
    ('soft', 17)
    """
    if len(hand) == 2 and is_pair(hand, rules):
        return "pair", hand[0].points
    total = hand_total(hand)
    return ("soft" if total.soft else "hard"), total.best


def _representative(kind: str, row: int) -> tuple[list[int], bool] | None:
    """Two cards (points) standing for a chart row, and whether they are a pair."""
    if kind == "pair":
        return [row, row], True
    if kind == "soft":
        return ([1, row - 11], False) if 12 <= row <= 20 else None
    if 5 <= row <= 11:
        return [2, row - 2], False
    if 12 <= row <= 20:
        return [10, row - 10], False
    return None  # hard 4 (2-2 played as a non-pair) and 21: nothing to decide


@lru_cache(maxsize=4096)
def chart_ev(rules: Rules, kind: str, row: int, up: int) -> dict[Move, float]:
    """The EV of each option in a chart cell, for its representative hand (cached here and
    in the shared cache)."""
    rep = _representative(kind, row)
    if rep is None:
        return {Move.STAND: 0.0} if row >= 21 else {Move.HIT: 0.0}
    cards, pair = rep
    key = f"chart:{rules.key()}:{kind}:{row}:{up}"
    cached = cache.get(key)
    if cached is not None:
        return {Move(m): v for m, v in cached.items()}
    ev = dict(analyze(rules, cards, up, pair=pair).ev)
    cache.set(key, {m.value: v for m, v in ev.items()}, timeout=None)
    return ev


def chart_move(
    rules: Rules,
    hand: tuple[Card, ...],
    up: Card,
    legal: frozenset[Move],
    split_hands: int = 1,
    from_split: bool = False,
) -> Move:
    """What the total-dependent chart plays, among the ``legal`` moves.

    >>> from blackjack.cards import parse_cards
    >>> from blackjack.rules import PRESETS
    >>> hand = tuple(parse_cards("10s 6d"))
    >>> chart_move(PRESETS["thoth"], hand, Card.parse("10h"), frozenset({Move.HIT, Move.STAND}))
    <Move.HIT: 'hit'>
    """
    if Move.INSURE in legal:
        return Move.DECLINE
    kind, row = chart_cell(rules, hand)
    if kind == "pair" and Move.SPLIT not in legal:
        kind, row = ("soft", 12) if row == 1 else ("hard", 2 * row)
    return _best(chart_ev(rules, kind, row, up.points), legal)


@dataclass(frozen=True)
class Options:
    """The EV of each legal option (per unit of the initial bet) and, when an insurance or
    even-money offer is made, what taking it adds."""

    ev: dict[Move, float]
    insurance: float | None


def options_for(
    rules: Rules, hand: tuple[Card, ...], up: Card, split_hands: int = 1, from_split: bool = False
) -> Options:
    """Exact EVs of the options of ``hand`` against ``up`` from a full shoe less these cards.

    The answer depends only on the cards' points (the first card kept in place: a split hand
    names the card it was split from), and the same few thousand situations come back round
    after round while a miss costs up to a few hundred ms.  So it is kept in this process and
    in the shared cache (Redis in production: every app server fills it for the others).
    """
    pair = is_pair(hand, rules) if len(hand) == 2 else False
    points = (hand[0].points, *sorted(c.points for c in hand[1:]))
    return _options(rules, points, up.points, split_hands, from_split, pair)


@lru_cache(maxsize=50_000)
def _options(
    rules: Rules, points: tuple[int, ...], up: int, split_hands: int, from_split: bool, pair: bool
) -> Options:
    key = "ev:" + ":".join(
        [rules.key(), ".".join(map(str, points)), str(up), str(split_hands), str(int(from_split)),
         str(int(pair))]
    )  # fmt: skip
    cached = cache.get(key)
    if cached is not None:
        ev, insurance = cached
        return Options({Move(m): v for m, v in ev.items()}, insurance)
    a: Analysis = analyze(
        rules, list(points), up, split_hands=split_hands, from_split=from_split, pair=pair
    )
    cache.set(key, ({m.value: v for m, v in a.ev.items()}, a.insurance), timeout=None)
    return Options(dict(a.ev), a.insurance)


def easy(
    rules: Rules,
    hand: tuple[Card, ...],
    up: Card,
    legal: frozenset[Move],
    split_hands: int = 1,
    from_split: bool = False,
) -> Move:
    """Hit below 17, else stand."""
    if Move.HIT in legal and hand_total(hand).best < 17:
        return Move.HIT
    return _fallback(legal)


def normal(
    rules: Rules,
    hand: tuple[Card, ...],
    up: Card,
    legal: frozenset[Move],
    split_hands: int = 1,
    from_split: bool = False,
) -> Move:
    """The chart."""
    return chart_move(rules, hand, up, legal, split_hands, from_split)


def hard(
    rules: Rules,
    hand: tuple[Card, ...],
    up: Card,
    legal: frozenset[Move],
    split_hands: int = 1,
    from_split: bool = False,
) -> Move:
    """The best move by exact EV for these cards."""
    a = options_for(rules, hand, up, split_hands, from_split)
    if Move.INSURE in legal:
        return Move.INSURE if a.insurance is not None and a.insurance > 0 else Move.DECLINE
    return _best(a.ev, legal)


POLICIES: dict[str, Policy] = {"easy": easy, "normal": normal, "hard": hard}
