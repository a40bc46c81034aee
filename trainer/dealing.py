"""Which situation a drill deals next: weighted so that the drill is worth the learner's time.

Dealing plain random hands would make three hands in four a trivial decision (a hard 17 or
more, a hard 8 or less, a 20).  We therefore pick a chart *cell* first, with these weights,
and then concrete cards for it:

- "all hands": hard totals 55 %, soft totals 25 %, pairs 20 %.
- hard: 5-8 weight 0.25 each, 9-11 weight 1, 12-16 weight 1.5, 17 weight 0.5, 18-19 weight
  0.15; a hard 12-16 comes as three cards one time in four (the chart and the exact cards
  may disagree there).
- soft: A2-A7 weight 1, A8 weight 0.4, A9 weight 0.15.
- pairs: 2-2 to 9-9 and A-A weight 1, 10-10 weight 0.25.
- the up card: each of the ten point values alike (a ten-value up card then shows J, Q or K
  as often as 10).

With these weights a hard 17 or more, a hard 8 or less, a soft 20 and 10-10 together make
about 8 % of the "all hands" deals (see ``tests/trainer/test_dealing.py``).  Blackjacks are
never dealt: they ask no question, except against an ace in the insurance focus, where a
blackjack is offered even money (:func:`insurance_points`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from random import Random

from blackjack import Card, PairsBy, Rules, Suit, full_composition, points_total

HARD_WEIGHTS: dict[int, float] = {
    **dict.fromkeys(range(5, 9), 0.25),
    **dict.fromkeys(range(9, 12), 1.0),
    **dict.fromkeys(range(12, 17), 1.5),
    17: 0.5,
    18: 0.15,
    19: 0.15,
}
SOFT_WEIGHTS: dict[int, float] = {**dict.fromkeys(range(13, 19), 1.0), 19: 0.4, 20: 0.15}
PAIR_WEIGHTS: dict[int, float] = {**dict.fromkeys((1, 2, 3, 4, 5, 6, 7, 8, 9), 1.0), 10: 0.25}
CATEGORY_WEIGHTS: dict[str, float] = {"hard": 0.55, "soft": 0.25, "pair": 0.20}
MULTI_CARD_CHANCE = 0.25
TEN_RANKS: tuple[str, ...] = ("10", "J", "Q", "K")
CELL_WEIGHTS: dict[str, dict[int, float]] = {
    "hard": HARD_WEIGHTS,
    "soft": SOFT_WEIGHTS,
    "pair": PAIR_WEIGHTS,
}


@dataclass(frozen=True, slots=True)
class DrillCell:
    """A chart cell to deal: kind "hard" / "soft" / "pair", the row, the up card's points."""

    kind: str
    row: int
    up: int


def dealable_cell(kind: str, row: int, up: int) -> DrillCell | None:
    """The cell, if the drill deals two-card hands in it (a hard 20 is only ever 10-10, a
    pair; a hard 4 is 2-2); else ``None``.

    >>> dealable_cell("soft", 18, 1), dealable_cell("hard", 20, 6)
    (DrillCell(kind='soft', row=18, up=1), None)
    """
    weights = CELL_WEIGHTS.get(kind)
    if weights is None or row not in weights or not 1 <= up <= 10:
        return None
    return DrillCell(kind, row, up)


def _pick(rng: Random, weights: dict[int, float]) -> int:
    keys = list(weights)
    return rng.choices(keys, weights=[weights[k] for k in keys])[0]


def pick_cell(rng: Random, *, kind: str | None = None, up: int | None = None) -> DrillCell:
    """A weighted cell of ``kind`` (any when ``None``) against ``up`` (any when ``None``).

    >>> pick_cell(Random(1), kind="pair", up=6).kind
    'pair'
    """
    if kind is None:
        kind = rng.choices(list(CATEGORY_WEIGHTS), weights=list(CATEGORY_WEIGHTS.values()))[0]
    row = _pick(rng, CELL_WEIGHTS[kind])
    return DrillCell(kind, row, up if up is not None else rng.randint(1, 10))


def card_of(points: int, rng: Random) -> Card:
    """A card of these points with a random rank (for ten-values) and suit."""
    rank = "A" if points == 1 else rng.choice(TEN_RANKS) if points == 10 else str(points)
    return Card(rank, rng.choice(list(Suit)))


def points_for(cell: DrillCell, rng: Random, *, multi: bool = False) -> list[int]:
    """Point values of a hand in ``cell``: two cards, or three for ``multi`` hard 12-16.

    >>> points_for(DrillCell("soft", 17, 10), Random(0))
    [1, 6]
    >>> sum(points_for(DrillCell("hard", 14, 10), Random(0), multi=True))
    14
    """
    if cell.kind == "pair":
        return [cell.row, cell.row]
    if cell.kind == "soft":
        return [1, cell.row - 11]
    if multi and 12 <= cell.row <= 16:
        for _ in range(1000):
            a, b = rng.randint(2, 10), rng.randint(2, 10)
            c = cell.row - a - b
            if 2 <= c <= 10:
                return [a, b, c]
    options = [(i, cell.row - i) for i in range(2, 11) if i < cell.row - i <= 10]
    weights = [16.0 if 10 in pair else 4.0 for pair in options]
    a, b = rng.choices(options, weights=weights)[0]
    return [a, b] if rng.random() < 0.5 else [b, a]


def cards_for(points: Sequence[int], rng: Random, rules: Rules, *, pair: bool) -> list[Card]:
    """Cards with these points.  A ten-value pair gets equal ranks under rank pairing when it
    is meant to be a pair, different ranks when it is meant not to be one."""
    cards = [card_of(p, rng) for p in points]
    if len(cards) == 2 and points[0] == points[1] == 10 and rules.pairs_by == PairsBy.RANK:
        if pair:
            cards[1] = Card(cards[0].rank, cards[1].suit)
        elif cards[0].rank == cards[1].rank:
            other = [r for r in TEN_RANKS if r != cards[0].rank]
            cards[1] = Card(rng.choice(other), cards[1].suit)
    return cards


def blackjack_share(rules: Rules) -> float:
    """How often the two cards facing a dealer's ace are a blackjack (an ace and a ten) in a
    full shoe of ``rules.decks`` decks less that ace: the share of even-money offers among the
    offers of insurance.

    >>> round(blackjack_share(Rules(decks=6)), 4)
    0.0458
    """
    comp = list(full_composition(rules.decks))
    comp[0] -= 1
    n = sum(comp)
    return 2.0 * comp[0] / n * comp[9] / (n - 1)


def insurance_points(rng: Random, *, rules: Rules | None = None) -> list[int]:
    """Two cards facing an ace for the insurance drill.  With ``rules``, a blackjack (the
    even-money question) as often as it comes at the table (:func:`blackjack_share`); otherwise,
    and the rest of the time, any hand but a blackjack."""
    if rules is not None and rng.random() < blackjack_share(rules):
        return [1, 10] if rng.random() < 0.5 else [10, 1]
    while True:
        points = points_for(pick_cell(rng, up=1), rng)
        total, _soft = points_total(points)
        if not (len(points) == 2 and total == 21):
            return points
