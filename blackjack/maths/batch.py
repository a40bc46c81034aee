"""The engine's batches in numpy: the reference the compiled kernel (``kernel.c``) must equal,
and what computes where the kernel is not built (:mod:`blackjack.maths.backend` chooses).

* :func:`dealer_matrix`: outcome vectors multiset by multiset, through logarithms (the direct
  formula the batch is tested against);
* :func:`contract`: the same sums for thousands of related shoes with the ranks summed out one
  at a time, about 1.5 µs per shoe in such a batch; :class:`DealerCache` keeps them by shoe;
* :func:`solve_hands`: the hit-or-stand values of every hand that can grow from a shoe.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

# The products here are small; OpenBLAS threads only spin against each other (the test run
# takes twice the CPU with them).  Set before numpy loads; an explicit setting wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
import numpy.typing as npt

from blackjack.cards import Composition
from blackjack.maths.dealer import (
    BLACKJACK,
    BUST,
    UNITS,
    decode,
    encode,
    final_multisets,
    multisets,
)

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
# A split hand's one-card hand: (family, second card, shoe code, hit-or-stand, stand, double).
SplitNode = tuple[int, int, int, float, float, float]


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
    counts_t: FloatArray  # (10, K) cards of each rank drawn
    sizes: FloatArray  # (K,) cards drawn
    # The multisets are sorted by outcome, so that a batch can sum each outcome's stretch
    # (np.add.reduceat) rather than multiply by the mostly zero ``weights``.
    orderings: FloatArray  # (K,) number of legal orderings
    outcome_starts: IntArray  # first multiset of each outcome that has any
    outcome_columns: IntArray  # that outcome


# Stands for log(0): large enough that exp() of any sum holding it is exactly 0, finite so that
# a zero exponent times it stays 0.
_LOG_ZERO = -1.0e4


@cache
def _table(up: int, h17: bool) -> _Table:
    found = final_multisets(up, h17)
    keys = sorted(found, key=lambda k: found[k][0])  # by outcome (a stable sort)
    outcome_of = np.array([found[k][0] for k in keys], dtype=np.int64)
    starts = np.flatnonzero(np.diff(outcome_of, prepend=-1))
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
        counts_t=np.ascontiguousarray(counts.T, dtype=np.float64),
        sizes=sizes.astype(np.float64),
        orderings=weights.sum(axis=1),
        outcome_starts=starts.astype(np.int64),
        outcome_columns=outcome_of[starts],
    )


def _sequence_probabilities(table: _Table, comps: IntArray) -> FloatArray:
    """(B, K): the probability of one ordering of each multiset, for each composition."""
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
    result: FloatArray = np.exp(features @ table.exponents)
    return result


def dealer_matrix(up: int, h17: bool, comps: IntArray) -> FloatArray:
    """Unconditioned outcome probabilities for a batch of compositions.

    ``comps`` is (B, 10): the cards the dealer draws from (the up card already out).  Returns
    (B, 7) in the order of :data:`OUTCOMES`.  A sequence that needs a card the shoe lacks has
    probability 0, so the row sums to less than 1 only if the dealer could run out of cards.
    """
    table = _table(up, h17)
    result: FloatArray = (
        _sequence_probabilities(table, np.asarray(comps, dtype=np.int64)) @ table.weights
    )
    return result


_UNIT_ARRAY = np.array(UNITS, dtype=np.int64)


def encode_rows(comps: IntArray) -> IntArray:
    """The codes of a (B, 10) array of compositions."""
    codes: IntArray = np.asarray(comps, dtype=np.int64) @ _UNIT_ARRAY
    return codes


def stand_rows(vectors: FloatArray, *, peek: bool) -> FloatArray:
    """(B, 6): for each outcome vector, the EV of standing on ≤16, 17, 18, 19, 20, 21 for a
    hand that is not a blackjack; with ``peek`` a dealer blackjack counts as nothing (the
    *mass* of the EV module), else as a loss."""
    d = vectors.copy()
    if peek:
        d[:, BLACKJACK] = 0.0
    bust = d[:, BUST]
    mass = d.sum(axis=1)
    cum = np.cumsum(d[:, :5], axis=1)  # P(dealer 17..t)
    out = np.empty((d.shape[0], 6))
    out[:, 0] = 2.0 * bust - mass
    for i in range(5):
        below = cum[:, i - 1] if i else 0.0
        above = cum[:, 4] - cum[:, i] + d[:, BLACKJACK]
        out[:, i + 1] = bust + below - above
    return out


class DealerCache:
    """Outcome vectors of many related compositions for one up card and soft-17 rule.

    The EV engine walks a tree of compositions, each a card less than its parent.  Removing
    one card ``j`` multiplies a multiset's sequence probability by ``(c_j - m_j) / c_j · N /
    (N - k)``, so the children of a composition cost a few vector operations rather than a
    fresh evaluation: :meth:`prefetch` computes them together.  Sequence-probability vectors
    are kept for the most recent compositions only (each is K floats).  Compositions are
    keyed by their integer codes (:func:`encode`): the engine looks them up by the million.
    """

    def __init__(self, up: int, h17: bool, keep: int = 4096) -> None:
        self.up = up
        self.h17 = h17
        self.table = _table(up, h17)
        self.vectors: dict[int, tuple[float, ...]] = {}
        # Player's stand EVs (see stand_rows), without and with a peek, by code; the same
        # dict where the up card cannot make a blackjack.
        peekless: dict[int, tuple[float, ...]] = {}
        self.rows = (peekless, {} if up in (1, 10) else peekless)
        # The rows of large batches (fill) stay in numpy: ``bulk_at`` maps a code to its row
        # in ``_bulk`` (without, with a peek); :meth:`stand_row` makes the tuple of ``rows``
        # when Python first asks.  A tuple per shoe was most of the batch's time and memory,
        # and the engine's numpy solve reads most of these shoes only by the array.
        self.bulk_at: dict[int, int] = {}
        self._bulk: tuple[FloatArray, FloatArray] = (np.empty((0, 6)), np.empty((0, 6)))
        self._bulk_size = 0
        # The codes of the last batch kept, sorted, and their rows in the bulk.
        self._recent: tuple[IntArray, IntArray] = (np.empty(0, np.int64), np.empty(0, np.int64))
        self._lock = threading.Lock()
        self._seq: OrderedDict[int, FloatArray] = OrderedDict()
        self._keep = keep

    def __len__(self) -> int:
        """How many compositions have their stand rows here (a bound on the memory)."""
        return len(self.rows[False]) + len(self.bulk_at)

    def known(self, code: int) -> bool:
        """Whether the stand rows of the shoe ``code`` are here (a tuple, or in the bulk)."""
        return code in self.rows[False] or code in self.bulk_at

    def any_unknown(self, codes: Sequence[int]) -> bool:
        """Whether the stand rows of any of ``codes`` are not here (stops at the first)."""
        rows, bulk = self.rows[False], self.bulk_at
        return any(c not in rows and c not in bulk for c in codes)

    def _positions(self, codes: IntArray) -> IntArray:
        """The row in the bulk of each code, -1 where it has none: by a binary search in the
        last batch kept (the engine asks right after a fill, for thousands of its shoes), the
        rest by the dict."""
        if not self.bulk_at:
            return np.full(len(codes), -1, dtype=np.int64)
        known, where = self._recent
        at = np.full(len(codes), -1, dtype=np.int64)
        if len(known):
            i = np.minimum(np.searchsorted(known, codes), len(known) - 1)
            hit = known[i] == codes
            at[hit] = where[i[hit]]
            rest = np.flatnonzero(~hit)
        else:
            rest = np.arange(len(codes))
        if len(rest):
            found = map(self.bulk_at.get, codes[rest].tolist(), itertools.repeat(-1))
            at[rest] = np.fromiter(found, dtype=np.int64, count=len(rest))
        return at

    def rows_for(self, codes: IntArray, *, peek: bool) -> FloatArray:
        """(B, 6): the stand rows of the shoes ``codes``, with ``peek`` or not, from the bulk
        where they are there, else one by one (:meth:`stand_row`)."""
        at = self._positions(codes)
        found = at >= 0
        out = np.empty((len(codes), 6))
        out[found] = self._bulk[peek][at[found]]
        for j in np.flatnonzero(~found).tolist():
            out[j] = self.stand_row(int(codes[j]), peek=peek)
        return out

    def _keep_bulk(self, codes: IntArray, rows: tuple[FloatArray, FloatArray]) -> None:
        """Keep the stand rows of a batch of distinct codes in the bulk arrays (a code already
        there is overwritten in place).  Request threads share the cache: one writer at a
        time, and a row is written before its code is published in ``bulk_at``."""
        with self._lock:
            at = self._positions(codes)
            new = at < 0
            start = self._bulk_size
            at[new] = np.arange(start, start + int(new.sum()))
            end = start + int(new.sum())
            bulk = self._bulk
            if end > len(bulk[0]):
                room = max(2 * len(bulk[0]), end, 1024)
                grown = []
                for old in bulk[: 2 if self.up in (1, 10) else 1]:
                    bigger = np.empty((room, 6))
                    bigger[:start] = old[:start]
                    grown.append(bigger)
                bulk = (grown[0], grown[-1])
            bulk[0][at] = rows[0]
            if self.up in (1, 10):
                bulk[1][at] = rows[1]
            self._bulk = bulk
            self._bulk_size = end
            self.bulk_at.update(zip(codes[new].tolist(), at[new].tolist(), strict=True))
            order = np.argsort(codes)
            self._recent = (codes[order], at[order])

    def _remember(self, code: int, seq: FloatArray) -> None:
        self._seq[code] = seq
        if len(self._seq) > self._keep:
            self._seq.popitem(last=False)

    def _sequences(self, code: int) -> FloatArray:
        seq = self._seq.get(code)
        if seq is None:
            comps = np.array([decode(code)], dtype=np.int64)
            seq = _sequence_probabilities(self.table, comps)[0]
            self._remember(code, seq)
        return seq

    def vector(self, comp: Composition) -> tuple[float, ...]:
        """The unconditioned outcome vector (:data:`OUTCOMES` order) of ``comp``."""
        code = encode(comp)
        vec = self.vectors.get(code)
        if vec is None:
            seq = self._sequences(code)
            vec = self.vectors[code] = tuple((seq @ self.table.weights).tolist())
        return vec

    def fill_less(self, pairs: Sequence[tuple[Composition, int]]) -> None:
        """:meth:`fill` with each composition of ``pairs`` less every multiset of at most that
        many points it holds (:func:`shoes_less`), in one batch."""
        self.fill(np.concatenate([shoes_less(comp, limit) for comp, limit in pairs]))

    def fill(self, comps: IntArray) -> None:
        """Compute the vectors of many compositions at once ((B, 10), repeats allowed) with
        :func:`contract`; their stand rows are kept in the bulk arrays (:meth:`rows_for`,
        :meth:`stand_row`).  Nothing is done when every composition is known already (another
        rule set on the same shoes)."""
        comps = np.asarray(comps, dtype=np.int64).reshape(-1, 10)
        all_codes = encode_rows(comps)
        first, _ = _group(all_codes)  # without repeats
        codes, comps = all_codes[first], comps[first]
        if len(self) and not self.any_unknown(codes.tolist()):
            return
        # All of them, the known ones again: the batch of one hand shape is then the same
        # from any shoe, and so is its plan (_plan), which costs more than the few known rows.
        vectors = contract(self.up, self.h17, comps)
        peeks = (False, True) if self.up in (1, 10) else (False,)
        rows = [stand_rows(vectors, peek=peek) for peek in peeks]
        self._keep_bulk(codes, (rows[0], rows[-1]))

    def ensure(self, code: int, n: int, children: Sequence[tuple[int, int, int]]) -> None:
        """:meth:`prefetch` the children of the shoe ``code`` if any is not known yet."""
        rows, bulk = self.rows[False], self.bulk_at
        for kid in children:
            if kid[2] not in rows and kid[2] not in bulk:
                self.prefetch(code, n, children)
                return

    def prefetch(self, code: int, n: int, children: Sequence[tuple[int, int, int]]) -> None:
        """Compute the vectors of the children of the shoe ``code`` of ``n`` cards not known
        yet, given as (rank index, count of that rank, child's code)."""
        known, bulk = self.rows[False], self.bulk_at
        todo = [kid for kid in children if kid[2] not in known and kid[2] not in bulk]
        if not todo:
            return
        seq = self._sequences(code)
        t = self.table
        rows = [i for i, _, _ in todo]
        counts = np.array([c for _, c, _ in todo], dtype=np.float64)[:, None]
        room = float(n) - t.sizes
        scale = np.divide(float(n), room, out=np.zeros_like(room), where=room > 0)
        grown = seq * ((counts - t.counts_t[rows]) / counts) * scale
        child_codes = [child for _, _, child in todo]
        self._store(child_codes, grown @ t.weights)
        for i, child in enumerate(child_codes):
            self._remember(child, grown[i])

    def _store(self, codes: Sequence[int], vectors: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Keep the stand rows of ``vectors``, without and with a peek; return them."""
        # Only the stand rows are kept: the EV engine needs nothing else, and vector() is
        # cheap for the few compositions whose outcome vector is shown.
        out: list[FloatArray] = []
        for peek in (False, True) if self.up in (1, 10) else (False,):
            found = stand_rows(vectors, peek=peek)
            self.rows[peek].update(zip(codes, map(tuple, found.tolist()), strict=True))
            out.append(found)
        return out[0], out[-1]

    def stand_row(self, code: int, *, peek: bool) -> tuple[float, ...]:
        """The player's EV of standing on ≤16, 17, …, 21 against the shoe ``code``, in mass
        units: with ``peek`` the dealer-blackjack outcomes are left out, not conditioned away."""
        row = self.rows[peek].get(code)
        if row is None:
            at = self.bulk_at.get(code)
            if at is not None:
                row = tuple(self._bulk[peek][at].tolist())
            else:
                vec = np.array([self.vector(decode(code))])
                row = tuple(stand_rows(vec, peek=peek)[0].tolist())
            self.rows[peek][code] = row
        return row


@lru_cache(maxsize=200_000)
def dealer_vector(up: int, h17: bool, comp: Composition) -> tuple[float, ...]:
    """Unconditioned outcome probabilities of one composition, as a memoized tuple."""
    row = dealer_matrix(up, h17, np.array([comp], dtype=np.int64))[0]
    return tuple(float(x) for x in row)


@cache
def multiset_array(limit: int) -> IntArray:
    return np.array(multisets(limit), dtype=np.int64).reshape(-1, 10)


def shoes_less(comp: Composition, limit: int) -> IntArray:
    """``comp`` less each multiset of at most ``limit`` points it holds, the empty shoe apart,
    as a (B, 10) array."""
    rest = np.array(comp, dtype=np.int64) - multiset_array(limit)
    out: IntArray = rest[(rest >= 0).all(axis=1) & (rest.sum(axis=1) > 0)]
    return out


# The order the ranks are contracted in: ten-values first, aces last.  The cost of a step is
# (distinct player prefixes so far) × (dealer states left); this order keeps both small
# (measured against the others on the full-shoe batches of every up card).
_ORDER: tuple[int, ...] = (9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
# Batch rows per contraction: bounds the memory (the widest array is this many rows by some
# 250 dealer states) and keeps the arrays near the processor's cache (measured: 1024 to 4096
# rows take the same time).
_CHUNK = 2048


@dataclass(frozen=True)
class _Steps:
    """The dealer side of :func:`contract` for one table, computed once.

    The dealer multisets are sorted by (outcome, size, aces, twos, …, ten-values): after the
    first ``t`` ranks of :data:`_ORDER` are summed out, a dealer state is a multiset's outcome,
    size and counts of the ranks not yet summed, and the states that merge at the next step
    are neighbours, so each step sums stretches of columns (``np.add.reduceat``)."""

    weights: FloatArray  # (K,) orderings of each multiset, in the sorted order
    # per step: the number of new states, and for each count m of the step's rank, the old
    # states holding m of it and the new state each becomes
    merges: tuple[tuple[int, tuple[tuple[int, IntArray, IntArray], ...]], ...]
    final_size: IntArray  # (S,) dealer cards drawn of each last state
    final_outcome: IntArray  # (S,) its outcome column
    outcome_starts: IntArray  # first last state of each outcome present
    outcome_columns: IntArray  # that outcome
    most: IntArray  # (10,) the most cards of each rank any multiset holds


@cache
def _steps(up: int, h17: bool) -> _Steps:
    t = _table(up, h17)
    counts = np.rint(t.counts_t.T).astype(np.int64)  # (K, 10)
    outcome = np.repeat(t.outcome_columns, np.diff(np.append(t.outcome_starts, len(counts))))
    size = counts.sum(axis=1)
    # np.lexsort: the last key is the most significant.
    keys = [counts[:, r] for r in _ORDER] + [size, outcome]
    order = np.lexsort(keys)
    counts, outcome, size = counts[order], outcome[order], size[order]
    state = np.column_stack([outcome, size, counts])  # the columns still told apart
    merges = []
    for r in _ORDER:
        drawn = state[:, 2 + r].copy()
        rest = state.copy()
        rest[:, 2 + r] = 0
        new = np.ones(len(rest), dtype=bool)
        new[1:] = (rest[1:] != rest[:-1]).any(axis=1)
        target = np.cumsum(new) - 1
        kept = []
        for m in range(int(drawn.max()) + 1):
            at = np.flatnonzero(drawn == m)
            if len(at):
                kept.append((m, at, target[at]))
        merges.append((int(new.sum()), tuple(kept)))
        state = rest[new]
    final_outcome, final_size = state[:, 0], state[:, 1]
    first = np.ones(len(state), dtype=bool)
    first[1:] = final_outcome[1:] != final_outcome[:-1]
    return _Steps(
        weights=t.orderings[order],
        merges=tuple(merges),
        final_size=final_size,
        final_outcome=final_outcome,
        outcome_starts=np.flatnonzero(first),
        outcome_columns=final_outcome[first],
        most=counts.max(axis=0),
    )


def _falling(top: IntArray, most: int) -> FloatArray:
    """(len(top), most + 1): the falling factorials ``top (top - 1) … (top - m + 1)``."""
    out = np.ones((len(top), most + 1))
    for m in range(1, most + 1):
        out[:, m] = out[:, m - 1] * np.maximum(top - (m - 1), 0)
    return out


def _group(keys: IntArray) -> tuple[IntArray, IntArray]:
    """The distinct ``keys`` in increasing order as ``(first row of each, group of each row)``
    (np.unique without its import cost)."""
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    new = np.ones(len(keys), dtype=bool)
    new[1:] = ordered[1:] != ordered[:-1]
    group = np.empty(len(keys), dtype=np.int64)
    group[order] = np.cumsum(new) - 1
    return order[new], group


@dataclass(frozen=True)
class _Plan:
    """The player side of :func:`contract` for one batch of removals, the same for every up
    card (a full-shoe batch removes the same multisets whatever the up card), computed once: per
    chunk of rows and step, each new prefix's parent and its count of the step's rank, then
    each row's last prefix and its number of cards out."""

    chunks: tuple[tuple[IntArray, tuple[tuple[IntArray, IntArray], ...], IntArray, IntArray], ...]


_PLANS: OrderedDict[bytes, _Plan] = OrderedDict()
_PLANS_LOCK = threading.Lock()


def _plan(removed: IntArray) -> _Plan:
    key = hashlib.blake2b(removed.tobytes(), digest_size=16).digest() + str(removed.shape).encode()
    with _PLANS_LOCK:
        plan = _PLANS.get(key)
    if plan is not None:
        return plan
    # Rows sharing their first ranks' counts in one chunk: they share the early steps.
    order = np.lexsort([removed[:, r] for r in reversed(_ORDER)])
    chunks = []
    for start in range(0, len(removed), _CHUNK):
        rows = order[start : start + _CHUNK]
        part = removed[rows]
        group = np.zeros(len(rows), dtype=np.int64)  # each row's prefix
        steps = []
        width = 1
        for r in _ORDER:
            v = part[:, r]
            first, new_group = _group(v * width + group)
            steps.append((group[first], v[first]))
            group, width = new_group, len(first)
        chunks.append((rows, tuple(steps), group, part.sum(axis=1)))
    plan = _Plan(tuple(chunks))
    with _PLANS_LOCK:
        _PLANS[key] = plan
        while len(_PLANS) > 4:
            _PLANS.popitem(last=False)
    return plan


def contract(up: int, h17: bool, comps: IntArray) -> FloatArray:
    """Unconditioned outcome probabilities for a batch of compositions, as
    :func:`dealer_matrix` gives them (the same sums in another order).

    A multiset's sequence probability is a product of one factor per rank, ``ff(c_r, m_r)``
    (falling factorials), over ``ff(N, size)``.  Summed over the multisets of an outcome and a
    size, the ranks can be summed out one at a time: after a step the player side needs only
    the distinct counts of the ranks summed so far (a few hundred shoes where the batch has
    thousands), the dealer side only the multisets' counts of the ranks left (ever fewer).
    Each step is a gather, a product and a sum into fewer dealer states: about a quarter of the
    work of taking every shoe against every multiset."""
    comps = np.asarray(comps, dtype=np.int64).reshape(-1, 10)
    s = _steps(up, h17)
    out = np.zeros((len(comps), 7))
    if not len(comps):
        return out
    base = comps.max(axis=0)
    # falling[r][v, m]: ff(base_r - v, m), the factor of rank r for a shoe v cards short.
    falling = [_falling(base[r] - np.arange(base[r] + 1), int(s.most[r])) for r in range(10)]
    total = int(base.sum())
    below = _falling(total - np.arange(total + 1), int(s.final_size.max()))
    norm = np.divide(1.0, below, out=np.zeros_like(below), where=below > 0)
    for rows, steps, group, size in _plan(base - comps).chunks:
        x = s.weights[:, None]  # (dealer states, player prefixes)
        for r, merges, (parent, value) in zip(_ORDER, s.merges, steps, strict=True):
            y = np.take(x, parent, axis=1)
            x = np.zeros((merges[0], len(parent)))
            for m, olds, news in merges[1]:
                if m:
                    x[news] += y[olds] * falling[r][value, m]
                else:  # the first: x is still 0 there, and ff(c, 0) = 1
                    x[news] = y[olds]
        final = x[:, group] * norm[size][:, s.final_size].T
        out[rows[None, :], s.outcome_columns[:, None]] = np.add.reduceat(
            final, s.outcome_starts, axis=0
        )
    return out


def prepare_table(up: int, h17: bool) -> None:
    """Build the drawing tables of one up card now."""
    _table(up, h17)
    _steps(up, h17)


@cache
def _play_layout(limit: int) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """The multisets of at most ``limit`` points (:func:`multiset_array`) with their codes,
    their points and, for each rank, the index of the multiset with one card of it more
    (-1 past ``limit``): the hands :meth:`Engine._solve` grows from one hand."""
    cards = multiset_array(limit)
    codes = encode_rows(cards)
    points: IntArray = cards @ np.arange(1, 11, dtype=np.int64)
    order = np.argsort(codes)
    known = codes[order]
    child = np.full((len(cards), 10), -1, dtype=np.int64)
    for i in range(10):
        wanted = codes + UNITS[i]
        at = np.minimum(np.searchsorted(known, wanted), len(known) - 1)
        found = known[at] == wanted
        child[found, i] = order[at[found]]
    return cards, codes, points, child


def solve_hands(
    dealer: DealerCache,
    families: Sequence[tuple[Composition, int, bool]],
    memos: int,
    peek: bool,
    bj_index: int,
) -> tuple[
    list[tuple[int, list[int], list[float]]], list[tuple[int, int, int, float, float, float]]
]:
    """The hit-or-stand values of every hand that can grow from each family ``(shoe, hard,
    ace)`` by drawing cards (:meth:`blackjack.maths.engine.Engine._solve`), one numpy step per
    hard total, from 21 down.  Returns, for the first ``memos`` families, ``(2 * hard + ace,
    shoe codes, values)`` per memo key, and for each other family (a split hand's shoe,
    ``hard`` the pair card) ``(family, second card, shoe code, hit-or-stand, stand, double)``
    of each one-card hand there."""
    lefts, codes, hards, aces, kids = [], [], [], [], []
    offset = 0
    offsets = []
    for comp, hard, ace in families:
        offsets.append(offset)
        cards, card_codes, points, child = _play_layout(21 - hard)
        lefts.append(np.array(comp, dtype=np.int64) - cards)
        codes.append(encode(comp) - card_codes)
        hards.append(hard + points)
        aces.append(cards[:, 0] > 0 if not ace else np.ones(len(cards), dtype=bool))
        kids.append(np.where(child >= 0, child + offset, -1))
        offset += len(cards)
    left = np.concatenate(lefts)
    # Only the hands whose shoe exists (from one deck about half of them): a hand drawing
    # a card the shoe lacks is weighed by its count 0, so it becomes "no child" (-1).
    kept = np.flatnonzero((left >= 0).all(axis=1))
    renumber = np.full(len(left) + 1, -1, dtype=np.int64)  # the last: -1 stays -1
    renumber[kept] = np.arange(len(kept))
    left = left[kept]
    code = np.concatenate(codes)[kept]
    hard_of = np.concatenate(hards)[kept]
    ace_of = np.concatenate(aces)[kept]
    child = renumber[np.concatenate(kids)[kept]]
    n = left.sum(axis=1)
    total = np.where(ace_of & (hard_of <= 11), hard_of + 10, hard_of)
    rows = dealer.rows_for(code, peek=peek)
    stand = rows[np.arange(len(code)), np.maximum(total - 16, 0)]
    # Drawing a card that busts costs the mass of the shoe it leaves.
    if peek and bj_index >= 0:
        b = left[:, bj_index, None] - (np.arange(10) == bj_index)
        bust = b / np.maximum(n - 1, 1)[:, None] - 1.0
    else:
        bust = np.full(left.shape, -1.0)
    value = np.zeros(len(code))
    order = np.argsort(-hard_of, kind="stable")
    levels = np.flatnonzero(np.diff(hard_of[order])) + 1
    for level in np.split(order, levels):
        kid = child[level]
        worth = np.where(kid >= 0, value[kid], bust[level])
        hit = (left[level] * worth).sum(axis=1) / np.maximum(n[level], 1)
        value[level] = np.where(total[level] < 21, np.maximum(stand[level], hit), stand[level])
    memo_rows = []
    if memos:
        end = offsets[memos] if memos < len(families) else len(renumber) - 1
        mine = np.arange(int(np.searchsorted(kept, end)))
        keys = 2 * hard_of[mine] + ace_of[mine]
        for key in range(44):
            these = mine[keys == key]
            if len(these):
                memo_rows.append((key, code[these].tolist(), value[these].tolist()))
    # The split hands [pair, second]: their one-card nodes, hit-or-stand and double.
    nodes: list[int] = []
    of_family, seconds = [], []
    for f in range(memos, len(families)):
        pair = families[f][1]
        first_card = _play_layout(21 - pair)[3][0]  # the empty hand's children
        for second in range(1, 11):
            nodes.append(offsets[f] + int(first_card[second - 1]))
            of_family.append(f)
            seconds.append(second)
    if not nodes:
        return memo_rows, []
    found = renumber[np.array(nodes, dtype=np.int64)]
    node = np.maximum(found, 0)  # the rows of the hands whose shoe lacks the card: unused
    kid = child[node]
    after = np.where(kid >= 0, stand[np.maximum(kid, 0)], bust[node])
    double = 2.0 * (left[node] * after).sum(axis=1) / np.maximum(n[node], 1)
    ok = ((found >= 0) & (n[node] > 0)).tolist()
    hits, stands = value[node].tolist(), stand[node].tolist()
    doubles, shoes = double.tolist(), code[node].tolist()
    solved = [
        (of_family[j], seconds[j], shoes[j], hits[j], stands[j], doubles[j])
        for j in range(len(nodes))
        if ok[j]
    ]
    return memo_rows, solved
