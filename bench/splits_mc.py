"""A Monte Carlo of the engine's own post-split play: ``python bench/splits_mc.py``.

For each situation the engine's split EV (:mod:`blackjack.maths.splits`) is compared with rounds
dealt from the real shoe (the decision shoe: full shoe less the up card and the pair), numpy
over batches of rounds, each round's cards drawn without replacement in order (one uniform card
of what is left at each draw: a random permutation dealt from the front).  The hole card is
drawn first; under a peek, rounds where it completes a dealer blackjack are discarded (the
engine's split EV is conditioned on no blackjack).  The second cards follow, one hand at a
time, in the real order: a hand takes its second card, resplits or keeps it as the engine
decides in that state (hands in the box, hands waiting, pair cards and other cards dealt as
second cards: :func:`blackjack.maths.splits.split_value`'s ``decisions``), then plays out by the
engine's best move for its own cards on the shoe less the pair cards it knows of (what
:meth:`Engine.split_hand` assumes), then the next hand.  Then the dealer draws.

Prints computed, simulated, standard error and whether within 3 SE.  Run by hand, not by the
tests; ``--se`` sets the target standard error (5e-4), ``--only`` picks situations by label.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
import numpy.typing as npt

from blackjack import PRESETS, Composition, Move, Rules, analyze, decision_shoe, engine_for
from blackjack import legal_moves_for_points as legal_moves
from blackjack.maths.splits import split_value

# (preset, pair, up, resplits forced): the last is issue 11's check of the old policy.
SITUATIONS: list[tuple[str, int, int, bool]] = [
    ("thoth", 10, 5, False), ("thoth", 10, 10, False), ("thoth", 5, 6, False),
    ("thoth", 8, 10, False), ("thoth", 8, 1, False), ("thoth", 1, 6, False),
    ("thoth", 2, 4, False), ("european", 10, 6, False), ("thoth", 10, 5, True),
]  # fmt: skip

STAND, HIT, DOUBLE = 0, 1, 2
BASE = 22  # a hand's cards as counts, in base 22 per rank: one int64


def total(hard: npt.NDArray[np.int64], ace: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    return np.where(ace & (hard <= 11), hard + 10, hard)


@dataclass
class Policy:
    """The engine's play of split hands: resplit decisions and each hand's moves."""

    rules: Rules
    pair: int
    up: int
    comp: Composition
    resplit: dict[tuple[int, int, int, int], bool]
    keys: npt.NDArray[np.int64]  # sorted (k, hand code) keys
    moves: npt.NDArray[np.int8]

    @classmethod
    def build(
        cls, rules: Rules, pair: int, up: int, *, forced: bool = False
    ) -> tuple[Policy, float]:
        comp = decision_shoe(rules, [pair, pair], up)
        eng = engine_for(rules, up)
        decisions: dict[tuple[int, int, int, int], bool] = {}
        value = split_value(eng, comp, pair, 2, forced=forced, decisions=decisions)
        value /= eng.mass(comp)
        table: dict[int, int] = {}
        kmax = 2 * rules.max_hands - 2
        for k in range(kmax + 1):
            base = list(comp)
            base[pair - 1] -= k
            if base[pair - 1] < 0:
                break
            # every hand grown from [pair]: its other cards as a multiset, depth first
            stack: list[tuple[int, ...]] = [(0,) * 10]
            while stack:
                extra = stack.pop()
                hard = pair + sum((i + 1) * c for i, c in enumerate(extra))
                for i in range(10):
                    nxt = tuple(c + (r == i) for r, c in enumerate(extra))
                    h = hard + i + 1
                    if h > 21 or any(b - e < 0 for b, e in zip(base, nxt, strict=True)):
                        continue
                    if sum(nxt) > 1 and (pair == 1 and not rules.hit_split_aces):
                        continue
                    code = sum(c * BASE**r for r, c in enumerate(nxt))
                    key = k * BASE**10 + code
                    if key in table:
                        continue
                    shoe = tuple(b - e for b, e in zip(base, nxt, strict=True))
                    ace = pair == 1 or nxt[0] > 0
                    t = h + 10 if ace and h <= 11 else h
                    if sum(nxt) == 1:
                        cards = (pair, i + 1)
                        legal = legal_moves(
                            rules, cards, up, split_hands=rules.max_hands, from_split=True
                        ) - {Move.SPLIT}
                        opts = eng.options(shoe, cards, legal, from_split=True)
                        best = max(opts, key=opts.__getitem__)
                        move = {Move.STAND: STAND, Move.HIT: HIT, Move.DOUBLE: DOUBLE}[best]
                    elif t >= 21 or not sum(shoe):
                        move = STAND
                    else:
                        move = HIT if eng.hit(shoe, h, ace) > eng.stand(shoe, t) else STAND
                    table[key] = move
                    if move == HIT:
                        stack.append(nxt)
        keys = np.array(sorted(table), dtype=np.int64)
        moves = np.array([table[k] for k in keys.tolist()], dtype=np.int8)
        return cls(rules, pair, up, comp, decisions, keys, moves), value

    def move(self, k: npt.NDArray[np.int64], code: npt.NDArray[np.int64]) -> npt.NDArray[np.int8]:
        key = k * BASE**10 + code
        at = np.minimum(np.searchsorted(self.keys, key), len(self.keys) - 1)
        out = np.where(self.keys[at] == key, self.moves[at], STAND)
        return out.astype(np.int8)


def simulate(pol: Policy, rounds: int, rng: np.random.Generator) -> tuple[float, float, int]:
    """(sum, sum of squares, rounds kept) of the split's result per round."""
    rules, pair, up = pol.rules, pol.pair, pol.up
    b = rounds
    counts = np.tile(np.array(pol.comp, dtype=np.int64), (b, 1))

    def draw(mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
        """The next card of each round's shoe where ``mask`` (drawn without replacement: one
        uniform card of what is left, which is a random permutation dealt in order)."""
        cum = counts.cumsum(axis=1)
        u = (rng.random(b) * cum[:, -1]).astype(np.int64)
        card = (cum <= u[:, None]).sum(axis=1) + 1
        at = np.flatnonzero(mask)
        counts[at, card[at] - 1] -= 1
        return card

    hole = draw(np.ones(b, dtype=bool))
    peek = rules.peeks_under(up)
    bj_card = 10 if up == 1 else 1 if up == 10 else 0
    dealer_bj = hole == bj_card
    n = np.full(b, 2, dtype=np.int64)
    pending = np.full(b, 2, dtype=np.int64)
    k = np.zeros(b, dtype=np.int64)
    j = np.zeros(b, dtype=np.int64)
    can_resplit = pair != 1 or rules.resplit_aces
    totals: list[npt.NDArray[np.int64]] = []
    bets: list[npt.NDArray[np.int64]] = []
    # resplit decisions as an array over (n, pending, k, j)
    dmax = 2 * rules.max_hands + 2
    rs = np.zeros((rules.max_hands + 1, rules.max_hands + 2, dmax, dmax), dtype=bool)
    for (dn, dp, dk, dj), take in pol.resplit.items():
        rs[dn, dp, dk, dj] = take
    while (pending > 0).any():
        live = pending > 0
        # second card, resplitting while the engine says so
        waiting = live.copy()
        second = np.zeros(b, dtype=np.int64)
        hand_k = np.zeros(b, dtype=np.int64)
        while waiting.any():
            c = draw(waiting)
            may = waiting & (c == pair) & can_resplit & (n < rules.max_hands)
            take = np.zeros(b, dtype=bool)
            idx = np.flatnonzero(may)
            take[idx] = rs[n[idx], pending[idx], k[idx], j[idx]]
            n = n + take
            pending = pending + take
            k = k + take
            done = waiting & ~take
            second = np.where(done, c, second)
            hand_k = np.where(done, k, hand_k)
            k = k + (done & (c == pair))
            j = j + (done & (c != pair))
            pending = pending - done
            waiting = waiting & take
        # play the hand
        hard = np.where(live, pair + second, 0)
        ace = (second == 1) | (pair == 1)
        code = np.where(live, BASE ** np.maximum(second - 1, 0), 0)
        bet = np.where(live, 1, 0)
        move = np.where(live, pol.move(hand_k, code), STAND)
        bet = np.where(move == DOUBLE, 2, bet)
        drawing = live & (move != STAND)
        first = True
        while drawing.any():
            c = draw(drawing)
            hard = hard + np.where(drawing, c, 0)
            ace = ace | (drawing & (c == 1))
            code = code + np.where(drawing, BASE ** (c - 1), 0)
            if first:  # a doubled hand takes one card
                drawing = drawing & (move == HIT)
                first = False
            t = total(hard, ace)
            nxt = pol.move(hand_k, code)
            drawing = drawing & (t < 21) & (nxt == HIT)
        totals.append(np.where(live, total(hard, ace), 0))
        bets.append(bet)
    # the dealer: up, hole, then the cards after the player's
    d_hard = up + hole
    d_ace = (up == 1) | (hole == 1)
    h17 = rules.dealer_hits_soft_17
    while True:
        t = total(d_hard, d_ace)
        soft = d_ace & (d_hard <= 11)
        want = (t < 17) | (h17 & (t == 17) & soft)
        if not want.any():
            break
        c = draw(want)
        d_hard = d_hard + np.where(want, c, 0)
        d_ace = d_ace | (want & (c == 1))
    dealer = total(d_hard, d_ace)
    result = np.zeros(b)
    for t, bet in zip(totals, bets, strict=True):
        win = (t <= 21) & ((dealer > 21) | (t > dealer))
        lose = (t > 21) | ((dealer <= 21) & (t < dealer))
        result += bet * (win.astype(float) - lose.astype(float))
    if peek and bj_card:
        result = result[~dealer_bj]
    elif bj_card:
        lost = sum(bets).astype(float)
        result = np.where(dealer_bj, -lost, result)
    return float(result.sum()), float((result**2).sum()), len(result)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--se", type=float, default=5e-4)
    parser.add_argument("--batch", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--pilot", type=int, default=200_000, help="rounds to size the run")
    parser.add_argument("--minutes", type=float, default=None,
                        help="stop each situation after this long (SE above --se)")  # fmt: skip
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    print(f"{'situation':29} {'computed':>9} {'simulated':>9} {'SE':>8} {'rounds':>11}  ok")
    for name, pair, up, forced in SITUATIONS:
        label = f"{name} {pair},{pair} v {up}{' forced' if forced else ''}"
        if args.only and not any(o in label for o in args.only):
            continue
        rules = PRESETS[name]
        t0 = time.perf_counter()
        pol, computed = Policy.build(rules, pair, up, forced=forced)
        if not forced:
            assert abs(computed - analyze(rules, [pair, pair], up).ev[Move.SPLIT]) < 1e-12
        s = s2 = 0.0
        m = 0
        target = args.pilot
        while True:
            out_of_time = False
            while m < target:
                ds, ds2, dm = simulate(pol, args.batch, rng)
                s, s2, m = s + ds, s2 + ds2, m + dm
                if args.minutes and time.perf_counter() - t0 > 60 * args.minutes:
                    out_of_time = True
                    break
            mean = s / m
            sd = (s2 / m - mean**2) ** 0.5
            se = sd / m**0.5
            if se <= args.se or out_of_time:
                break
            target = int((sd / args.se) ** 2 * 1.02) + 1
            left = (time.perf_counter() - t0) / m * (target - m) / 60
            print(f"  {label}: sd {sd:.3f}, {target:,} rounds needed, {left:.1f} min to go",
                  file=sys.stderr, flush=True)  # fmt: skip
        ok = abs(mean - computed) <= 3 * se
        took = time.perf_counter() - t0
        full = f"; stopped early, full run {took * (se / args.se) ** 2 / 60:.0f} min"
        print(f"{label:29} {computed:9.5f} {mean:9.5f} {se:8.5f} {m:11,}  "
              f"{'yes' if ok else 'NO'}   ({took:.0f} s{full if se > args.se else ''})",
              flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
