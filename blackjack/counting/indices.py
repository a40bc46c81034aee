"""Index plays computed from the engine's exact EVs: for a rule set and a count system, the
true count at which the best move of a decision changes.

**Method.**  The shoe at a true count ``t`` is the *unseen* shoe of ``S`` cards whose cards
are those of a neutral shoe of ``S`` cards shifted in the count's proportions: every rank
moves by ``c · n_r · w_r`` cards (``n_r`` its cards per deck, ``w_r`` its balanced tag, ``c``
chosen so that the count of the cards seen over the decks left is ``t``), rounded to whole
cards (largest remainders, so the shoe keeps ``S`` cards).  That is the expected composition
of the unseen cards given the count, to first order (the linear regression of each rank's
count on the tag sum, for cards drawn without replacement): low cards out and high cards in
for Hi-Lo at a positive count, each in proportion to how many the shoe holds.  Because it is
the unseen shoe that has the count, the decision's own cards (the hand, the up card) are part
of what was seen, as at the table, and every hand against one up card at one count shares
one shoe (the engine's memos are reused).

``S`` is the table's typical depth: the cards left halfway between a fresh shoe and the
reshuffle point, to the nearest half deck (thoth: 195 cards, so 4 decks, 208 cards).  A true
count is, to first order, the same shoe whatever the depth (that is what dividing by the
decks does), so one depth stands for the shoe.

For each whole ``t`` from −10 to +10 the exact EVs of every legal option are computed on that
shoe (the engine's :func:`blackjack.analyze`, conditioned on no dealer blackjack after a
peek; insurance by :func:`blackjack.insurance_gain`).  Rounding to whole cards moves each
shoe's exact true count off ``t`` a little, so each EV difference is placed at its shoe's
exact true count, and the crossing ``t*`` is where the straight line between the two points
around the sign change crosses zero.  The index is ``t*`` rounded to the nearest whole count
(a half up): with the floored true count of :mod:`blackjack.counting.systems`, "TC ≥ i"
plays the index move over ``[i, ∞)``, which differs from the ideal ``[t*, ∞)`` by at most
half a count.

The *basic* move is the best at count 0 (the neutral shoe); an index play is another move
that is the best outright at some count past its crossing with the basic move, the crossing
nearest 0 on that side, within ±10.  Hard totals and soft totals take one hand each (the EVs
of hit, stand and double depend only on the total and the unseen cards); pairs are their own
cells; surrender is an option where the rules allow it; insurance is asked against an ace.

**Gain.**  What an index play adds each time its hand is met: the EV difference at each
floored true count ``i`` on its side (taken at the bin's centre, ``i + ½``), weighted by how
often that true count occurs at this table.  The true count's distribution is estimated
simply: at ``n`` cards left the count of the seen cards is normal with the variance of
drawing without replacement, divided by the exact decks left, and every ``n`` from the full
shoe to the reshuffle point weighs the same (a round is dealt at each depth alike).

>>> from blackjack.rules import Rules
>>> typical_cards_left(Rules()), typical_cards_left(Rules(decks=1))
(208, 26)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from blackjack.cards import Composition, full_composition
from blackjack.counting.systems import (
    DECK,
    PER_DECK,
    SYSTEMS,
    CountSystem,
    balanced_tags,
    decks_remaining,
    exact_true_count,
    tag_variance,
)
from blackjack.maths import UPS, analyze, best_by_ev, insurance_gain, rank_by_ev
from blackjack.moves import Move
from blackjack.rules import Rules

FORMAT_VERSION = 1
COUNTS: tuple[int, ...] = tuple(range(-10, 11))  # the true counts searched

# One hand stands for each cell (see the module's docstring): (kind, row) -> cards.
HARD_HANDS: dict[int, tuple[int, int]] = {
    8: (5, 3), 9: (6, 3), 10: (6, 4), 11: (6, 5), 12: (10, 2), 13: (10, 3), 14: (10, 4),
    15: (10, 5), 16: (10, 6), 17: (10, 7),
}  # fmt: skip
SOFT_HANDS: dict[int, tuple[int, int]] = {11 + k: (1, k) for k in range(2, 10)}  # A,2 … A,9
PAIR_CARDS: tuple[int, ...] = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class IndexPlay:
    """One index play: in the cell ``(kind, row)`` against ``up`` (ace = 1), play ``move``
    instead of ``basic`` when the true count is at least ``index`` (``above``), or below it
    (not ``above``).  ``crossing`` is the exact count where the two moves are worth the
    same; ``gain`` what playing the index adds each time the hand is met (per initial bet,
    weighted by how often each count occurs); ``edge`` the EV difference one count past the
    index on its side.  ``kind`` is "hard", "soft", "pair" or "insurance" (``row`` 0)."""

    kind: str
    row: int
    up: int
    basic: Move
    move: Move
    index: int
    above: bool
    crossing: float
    gain: float
    edge: float

    def to_list(self) -> list[Any]:
        return [self.kind, self.row, self.up, str(self.basic), str(self.move), self.index,
                self.above, self.crossing, self.gain, self.edge]  # fmt: skip

    @classmethod
    def from_list(cls, data: Sequence[Any]) -> IndexPlay:
        kind, row, up, basic, move, index, above, crossing, gain, edge = data
        return cls(str(kind), int(row), int(up), Move(basic), Move(move), int(index),
                   bool(above), float(crossing), float(gain), float(edge))  # fmt: skip

    def rule(self) -> str:
        """The index as a player writes it: ``"≥ +3"`` or ``"< 0"``.

        >>> IndexPlay("hard", 16, 10, Move.HIT, Move.STAND, 0, True, 0.2, 0.01, 0.02).rule()
        '≥ 0'
        """
        sign = f"+{self.index}" if self.index > 0 else f"−{-self.index}" if self.index else "0"
        return f"{'≥' if self.above else '<'} {sign}"


@dataclass(frozen=True)
class IndexTable:
    """The index plays of one rule set and count system, and how they were found."""

    rules: Rules
    system: CountSystem
    cards_left: int  # the depth the shoes were taken at (see the module's docstring)
    plays: tuple[IndexPlay, ...]
    frequencies: dict[int, float] = field(default_factory=dict)  # floored true count -> share

    def find(self, kind: str, row: int, up: int) -> list[IndexPlay]:
        return [p for p in self.plays if (p.kind, p.row, p.up) == (kind, row, up)]

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": FORMAT_VERSION,
            "rules": self.rules.to_dict(),
            "system": self.system.key,
            "cards_left": self.cards_left,
            "plays": [p.to_list() for p in self.plays],
            "frequencies": {str(t): p for t, p in self.frequencies.items()},
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> IndexTable:
        return cls(
            Rules.from_dict(data["rules"]),
            SYSTEMS[data["system"]],
            int(data["cards_left"]),
            tuple(IndexPlay.from_list(p) for p in data["plays"]),
            {int(t): float(p) for t, p in data.get("frequencies", {}).items()},
        )


def typical_cards_left(rules: Rules) -> int:
    """The cards left halfway between a fresh shoe and the reshuffle point, to the nearest
    half deck (a quarter up, as :func:`~blackjack.counting.systems.decks_remaining`)."""
    middle = (rules.decks * DECK + rules.reshuffle_point) // 2
    return int(decks_remaining(middle) * DECK)


def count_shoe(system: CountSystem, decks: int, cards_left: int, t: float) -> Composition:
    """The unseen shoe of ``cards_left`` cards at true count ``t`` (see the module's
    docstring): a neutral shoe shifted in the count's proportions, in whole cards.

    >>> from blackjack.counting.systems import HI_LO
    >>> count_shoe(HI_LO, 6, 208, 0)
    (16, 16, 16, 16, 16, 16, 16, 16, 16, 64)
    >>> count_shoe(HI_LO, 6, 208, 5)
    (18, 14, 14, 14, 14, 14, 16, 16, 16, 72)
    """
    left_decks = cards_left / DECK
    w = balanced_tags(system)
    c = -t * left_decks / (tag_variance(system) * DECK)
    target = [left_decks * n + c * n * wr for n, wr in zip(PER_DECK, w, strict=True)]
    full = full_composition(decks)
    target = [min(max(x, 0.0), float(f)) for x, f in zip(target, full, strict=True)]
    floors = [math.floor(x) for x in target]
    short = cards_left - sum(floors)
    order = sorted(range(10), key=lambda i: (floors[i] - target[i], i))  # largest rest first
    for i in order:
        if short <= 0:
            break
        if floors[i] < full[i]:
            floors[i] += 1
            short -= 1
    return tuple(floors)


def _removed(full: Composition, unseen: Composition, cards: Sequence[int]) -> list[int] | None:
    """The cards seen besides ``cards``, for ``analyze(removed=...)``; ``None`` when the
    unseen shoe and the cards do not fit in the full shoe."""
    out: list[int] = []
    for i in range(10):
        n = full[i] - unseen[i] - cards.count(i + 1)
        if n < 0:
            return None
        out += [i + 1] * n
    return out


def _cells() -> list[tuple[str, int, tuple[int, ...]]]:
    cells: list[tuple[str, int, tuple[int, ...]]] = [
        ("hard", row, hand) for row, hand in HARD_HANDS.items()
    ]
    cells += [("soft", row, hand) for row, hand in SOFT_HANDS.items()]
    cells += [("pair", p, (p, p)) for p in PAIR_CARDS]
    return cells


def _crossings(points: Sequence[tuple[float, float]]) -> list[tuple[float, bool]]:
    """Where the piecewise line through ``points`` (count, difference), sorted by count,
    crosses zero, nearest 0 first, each with whether the difference grows through it."""
    out: list[tuple[float, bool]] = []
    for (t0, d0), (t1, d1) in itertools.pairwise(points):
        if (d0 < 0 <= d1) or (d0 >= 0 > d1):
            t = t0 + (t1 - t0) * (-d0) / (d1 - d0)
            out.append((t, d1 > d0))
    return sorted(out, key=lambda c: abs(c[0]))


def count_frequencies(rules: Rules, system: CountSystem) -> dict[int, float]:
    """How often each floored true count occurs at this table, from −10 to +10 (the rest
    piled on the ends), estimated as the module's docstring says.

    >>> from blackjack.counting.systems import HI_LO
    >>> f = count_frequencies(Rules(), HI_LO)
    >>> round(sum(f.values()), 9), f[0] > f[2] > f[5] > 0, round(f[1] - f[-2], 12)
    (1.0, True, 0.0)
    """
    full = rules.decks * DECK
    sigma2 = tag_variance(system)
    depths = range(full, rules.reshuffle_point - 1, -1)
    out = dict.fromkeys(COUNTS, 0.0)
    for n in depths:
        seen = full - n
        var = seen * n / max(full - 1, 1) * sigma2
        sd = math.sqrt(var) / (n / DECK) if n else 0.0

        def below(x: float, sd: float = sd) -> float:
            if sd == 0:
                return 1.0 if x > 0 else 0.0
            return 0.5 * (1.0 + math.erf(x / (sd * math.sqrt(2.0))))

        for t in COUNTS:
            lo = -math.inf if t == COUNTS[0] else t
            hi = math.inf if t == COUNTS[-1] else t + 1
            p = (below(hi) if hi != math.inf else 1.0) - (below(lo) if lo != -math.inf else 0.0)
            out[t] += p / len(depths)
    return out


def _at(points: Sequence[tuple[float, float]], t: float) -> float:
    """The piecewise line through ``points`` at ``t`` (held level past the ends)."""
    if t <= points[0][0]:
        return points[0][1]
    for (t0, d0), (t1, d1) in itertools.pairwise(points):
        if t <= t1:
            return d0 + (d1 - d0) * (t - t0) / (t1 - t0) if t1 != t0 else d1
    return points[-1][1]


def compute_indices(
    rules: Rules,
    system: CountSystem,
    *,
    basic: Callable[[str, int, int], Move] | None = None,
    cards_left: int | None = None,
    ups: Sequence[int] = UPS,
    progress: Progress | None = None,
) -> IndexTable:
    """Every index play of ``rules`` for ``system`` (see the module's docstring).

    ``basic(kind, row, up)``: the basic-strategy move of a cell (the rule set's chart); by
    default the best move at count 0.  ``ups``: the up cards to search (all by default).
    ``progress(done, len(ups))`` after each up card."""
    left = typical_cards_left(rules) if cards_left is None else cards_left
    full = full_composition(rules.decks)
    shoes = [count_shoe(system, rules.decks, left, t) for t in COUNTS]
    exact = [exact_true_count(system, shoe, rules.decks) for shoe in shoes]
    freq = count_frequencies(rules, system)
    plays: list[IndexPlay] = []
    for done, up in enumerate(ups, start=1):
        for kind, row, hand in _cells():
            evs: list[tuple[float, dict[Move, float]]] = []
            for shoe, t in zip(shoes, exact, strict=True):
                removed = _removed(full, shoe, [*hand, up])
                if removed is None:
                    continue
                evs.append((t, analyze(rules, hand, up, removed=removed).ev))
            chosen = basic(kind, row, up) if basic is not None else None
            plays += _plays(kind, row, up, evs, freq, chosen)
        if up == 1 and rules.insurance:
            evs = []
            for shoe, t in zip(shoes, exact, strict=True):
                ev = insurance_gain(rules, (10, 6), shoe)
                evs.append((t, {Move.DECLINE: 0.0, Move.INSURE: ev}))
            plays += _plays("insurance", 0, up, evs, freq, Move.DECLINE)
        if progress is not None:
            progress(done, len(ups))
    return IndexTable(rules, system, left, tuple(plays), freq)


def smooth(evs: Sequence[tuple[float, dict[Move, float]]]) -> list[dict[Move, float]]:
    """Each move's EVs, placed at their shoes' exact true counts, fitted by a cubic (least
    squares) and read at the whole counts of :data:`COUNTS`: what is left of the rounding to
    whole cards is a little noise around a smooth curve, which the fit takes out.

    >>> evs = [(t + 0.1, {Move.HIT: 0.01 * t, Move.STAND: 0.0}) for t in COUNTS]
    >>> [round(e[Move.HIT], 6) for e in smooth(evs)[9:12]]
    [-0.011, -0.001, 0.009]
    """
    import numpy as np  # here: the engine's cold start need not load numpy

    ts = np.array([t for t, _ev in evs])
    moves = [m for m in evs[0][1] if all(m in ev for _t, ev in evs)]
    grid = np.array(COUNTS, dtype=float)
    fitted = {}
    for move in moves:
        values = np.array([ev[move] for _t, ev in evs])
        coef = np.polyfit(ts, values, min(3, len(evs) - 1))
        fitted[move] = np.polyval(coef, grid).tolist()
    return [{m: fitted[m][k] for m in moves} for k in range(len(COUNTS))]


def _plays(
    kind: str,
    row: int,
    up: int,
    evs: Sequence[tuple[float, dict[Move, float]]],
    freq: dict[int, float],
    basic: Move | None,
) -> list[IndexPlay]:
    if len(evs) < 4:
        return []
    grid = smooth(sorted(evs, key=lambda e: e[0]))
    zero = COUNTS.index(0)
    if basic is None or basic not in grid[zero]:
        basic = best_by_ev(grid[zero])
    assert basic is not None
    out: list[IndexPlay] = []
    for move in rank_by_ev(grid[zero]):
        if move == basic or (kind == "pair" and Move.SPLIT not in (move, basic)):
            continue  # a pair's other moves are its total's (hard or soft row)
        points = [(float(t), ev[move] - ev[basic]) for t, ev in zip(COUNTS, grid, strict=True)]
        for t_star, above in _crossings(points):
            side = [ev for t, ev in zip(COUNTS, grid, strict=True) if (t > t_star) == above]
            if not any(best_by_ev(ev) == move for ev in side):
                continue  # never the best move there: another index (or none) wins
            index = math.floor(t_star + 0.5)
            if not COUNTS[0] <= index <= COUNTS[-1]:
                continue
            bins = [t for t in COUNTS if (t >= index) == above]
            gain = sum(freq[t] * _at(points, t + 0.5) for t in bins)
            edge = _at(points, index + 0.5 if above else index - 0.5)
            out.append(IndexPlay(kind, row, up, basic, move, index, above, t_star, gain, edge))
            break  # the crossing nearest 0 is the index
    return out


def index_key(system: CountSystem) -> str:
    """The name of a system's index table among a rule set's stored tables.

    >>> from blackjack.counting.systems import HI_LO
    >>> index_key(HI_LO)
    'indices-hilo'
    """
    return f"indices-{system.key}"
