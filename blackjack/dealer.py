"""Exact probabilities of the dealer's final total for an up card and a shoe composition.

The dealer has no choices, so the chance of one ordered draw sequence (hole card first) depends
only on the multiset of cards it draws: the product of the falling factorials of the counts
drawn, over the falling factorial of the shoe size.  For each up card and soft-17 rule we
therefore list once every multiset the dealer can end on, with the number of its orderings that
are legal dealer sequences (the dealer stops on the last card and not before).  A multiset fixes
the final total, so a composition's distribution is one weighted sum over that list, done with
numpy for a batch of compositions at once (about 40 µs per composition in a batch).

The outcome vector has seven entries: totals 17, 18, 19, 20, 21, bust, blackjack.  A dealer
blackjack is the one-card multiset (the hole card) that completes 21 with the up card, so the
distribution *joint* with "no blackjack" is simply the vector with that entry left out.

>>> from blackjack.rules import Rules
>>> from blackjack.cards import full_composition, remove_cards
>>> out = dealer_probabilities(Rules(), 6, remove_cards(full_composition(6), [6]),
...                            no_blackjack=False)
>>> round(out.bust, 4)
0.4228
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np
import numpy.typing as npt

from blackjack.cards import Composition
from blackjack.rules import Rules

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

OUTCOMES: tuple[str, ...] = ("17", "18", "19", "20", "21", "bust", "blackjack")
BUST = 5
BLACKJACK = 6


@dataclass(frozen=True, slots=True)
class DealerOutcome:
    """Probabilities of the dealer's final result; the seven fields sum to 1."""

    p17: float
    p18: float
    p19: float
    p20: float
    p21: float
    bust: float
    blackjack: float

    @property
    def probabilities(self) -> tuple[float, ...]:
        """In the order of :data:`OUTCOMES`."""
        return (self.p17, self.p18, self.p19, self.p20, self.p21, self.bust, self.blackjack)

    def to_dict(self) -> dict[str, float]:
        return dict(zip(OUTCOMES, self.probabilities, strict=True))


@dataclass(frozen=True)
class _Table:
    """Every final multiset of one up card and soft-17 rule, ready for batch evaluation.

    The log of a multiset's sequence probability is linear in per-composition features
    ``log(c_i - j)`` (j below the most the dealer can draw of rank i) and ``log(N - j)``, so a
    batch of compositions costs one matrix product, one ``exp`` and one more product.
    """

    exponents: FloatArray  # (F, K): 1 for each factor of a multiset's falling factorials, -1
    weights: FloatArray  # (K, 7) number of legal orderings, in the column of its outcome
    feature_rank: IntArray  # (F_ranks,) rank index of each count feature
    feature_step: IntArray  # (F_ranks,) j of each count feature
    size_steps: IntArray  # (F_size,) j of each shoe-size feature


# Stands for log(0): large enough that exp() of any sum holding it is exactly 0, finite so that
# a zero exponent times it stays 0.
_LOG_ZERO = -1.0e4


def _outcome(up: int, drawn: Sequence[int], h17: bool) -> int | None:
    """The outcome index if the dealer stops after ``drawn``, else ``None``."""
    hard = up + sum(drawn)
    soft = (up == 1 or 1 in drawn) and hard + 10 <= 21
    total = hard + 10 if soft else hard
    if total > 21:
        return BUST
    if len(drawn) == 1 and total == 21:
        return BLACKJACK
    if total > 17 or (total == 17 and not (h17 and soft)):
        return total - 17
    return None


@cache
def _table(up: int, h17: bool) -> _Table:
    found: dict[tuple[int, ...], list[int]] = {}  # multiset -> [outcome, orderings]

    def walk(drawn: list[int], counts: list[int]) -> None:
        outcome = _outcome(up, drawn, h17)
        if outcome is not None:
            entry = found.setdefault(tuple(counts), [outcome, 0])
            entry[1] += 1
            return
        for card in range(1, 11):
            drawn.append(card)
            counts[card - 1] += 1
            walk(drawn, counts)
            counts[card - 1] -= 1
            drawn.pop()

    walk([], [0] * 10)
    keys = list(found)
    counts = np.array(keys, dtype=np.int64)
    sizes = counts.sum(axis=1)
    max_counts = counts.max(axis=0)
    feature_rank = np.concatenate([np.full(int(m), i) for i, m in enumerate(max_counts)])
    feature_step = np.concatenate([np.arange(int(m)) for m in max_counts])
    size_steps = np.arange(int(sizes.max()))
    exponents = np.concatenate(
        [
            (feature_step[:, None] < counts[:, feature_rank].T).astype(np.float64),
            -(size_steps[:, None] < sizes[None, :]).astype(np.float64),
        ]
    )
    weights = np.zeros((len(keys), 7))
    for row, key in enumerate(keys):
        outcome, orderings = found[key]
        weights[row, outcome] = orderings
    return _Table(
        exponents=exponents,
        weights=weights,
        feature_rank=feature_rank.astype(np.int64),
        feature_step=feature_step.astype(np.int64),
        size_steps=size_steps.astype(np.int64),
    )


def dealer_matrix(up: int, h17: bool, comps: IntArray) -> FloatArray:
    """Unconditioned outcome probabilities for a batch of compositions.

    ``comps`` is (B, 10): the cards the dealer draws from (the up card already out).  Returns
    (B, 7) in the order of :data:`OUTCOMES`.  A sequence that needs a card the shoe lacks has
    probability 0, so the row sums to less than 1 only if the dealer could run out of cards.
    """
    table = _table(up, h17)
    comps = np.asarray(comps, dtype=np.int64)
    left = (comps[:, table.feature_rank] - table.feature_step).astype(np.float64)
    size = (comps.sum(axis=1)[:, None] - table.size_steps).astype(np.float64)
    # log(N - j) for j beyond the shoe is 0, not _LOG_ZERO: such a multiset already holds a
    # rank the shoe lacks, and the two must not cancel.
    features = np.concatenate(
        [
            np.log(left, out=np.full_like(left, _LOG_ZERO), where=left > 0),
            np.log(size, out=np.zeros_like(size), where=size > 0),
        ],
        axis=1,
    )
    result: FloatArray = np.exp(features @ table.exponents) @ table.weights
    return result


@lru_cache(maxsize=200_000)
def dealer_vector(up: int, h17: bool, comp: Composition) -> tuple[float, ...]:
    """Unconditioned outcome probabilities of one composition, as a memoized tuple."""
    row = dealer_matrix(up, h17, np.array([comp], dtype=np.int64))[0]
    return tuple(float(x) for x in row)


def dealer_probabilities(
    rules: Rules, up: int, comp: Composition, *, no_blackjack: bool
) -> DealerOutcome:
    """The dealer's final-total probabilities with ``up`` showing (1 = ace, 10 = ten-value).

    ``comp`` is the shoe the dealer draws from, hole card included: the up card and every card
    seen are already out of it.  With ``no_blackjack`` the distribution is conditioned on the
    dealer not holding a blackjack (what the player knows after the peek); its ``blackjack``
    field is then 0.

    >>> from blackjack.rules import Rules
    >>> from blackjack.cards import full_composition, remove_cards
    >>> comp = remove_cards(full_composition(6), [10])
    >>> before = dealer_probabilities(Rules(), 10, comp, no_blackjack=False)
    >>> after = dealer_probabilities(Rules(), 10, comp, no_blackjack=True)
    >>> round(before.bust, 4), round(after.bust, 4), after.blackjack
    (0.2125, 0.2302, 0.0)
    """
    if not 1 <= up <= 10:
        raise ValueError("up card must be 1 (ace) to 10")
    if sum(comp) == 0:
        raise ValueError("the shoe is empty")
    vec = list(dealer_vector(up, rules.dealer_hits_soft_17, tuple(comp)))
    if no_blackjack:
        rest = 1.0 - vec[BLACKJACK]
        if rest <= 0.0:
            raise ValueError("the dealer surely has blackjack")
        vec = [x / rest for x in vec[:BLACKJACK]] + [0.0]
    return DealerOutcome(*vec)
