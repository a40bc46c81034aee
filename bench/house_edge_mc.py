"""Monte Carlo of the round engine played by the chart, against the computed house edge.

``python bench/house_edge_mc.py --rounds 200000 [--rules thoth ...] [--seed 1]``

Each round is dealt from a freshly shuffled shoe (the computed edge is that of a full shoe),
one box, played by the Normal AI (the basic-strategy chart), insurance declined.  Prints the
mean return per initial bet with its 95 % confidence interval and the computed figure, which
should lie inside it.  Written against ``blackjack.round`` (start_round, legal_moves, apply,
Shoe.shuffled); run by hand, not by the tests.
"""

from __future__ import annotations

import argparse
import math
import os
import time
from random import Random

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from blackjack import NORMAL, Move, basic_chart, default_store, house_edge
from blackjack import round as engine
from blackjack.cli import add_rules_arguments, rules_from_args

BET = 100


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    add_rules_arguments(parser)
    parser.add_argument("--rounds", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = rules_from_args(args)
    store = default_store()
    basic_chart(rules, store=store)  # computed or read once, before the clock starts
    rng = Random(args.seed)

    total = 0.0
    squares = 0.0
    started = time.perf_counter()
    for _ in range(args.rounds):
        state = engine.start_round(
            rules=rules, bets={0: BET}, shoe=engine.Shoe.shuffled(rules, rng)
        )
        while state.phase is not engine.Phase.SETTLED:
            legal = engine.legal_moves(state)
            if state.phase is engine.Phase.INSURANCE:
                state = engine.apply(state, Move.DECLINE)
                continue
            hand = state.current_hand
            assert hand is not None and state.turn is not None
            box = state.box(state.turn[0])
            move = NORMAL.choose(
                cards=[c.points for c in hand.cards],
                up=state.up_card.points,
                legal=legal,
                rules=rules,
                split_hands=len(box.hands),
                from_split=hand.from_split,
            )
            state = engine.apply(state, move)
        net = float(state.paid(0) - state.staked(0)) / BET
        total += net
        squares += net * net
    elapsed = time.perf_counter() - started

    n = args.rounds
    mean = total / n
    sd = math.sqrt(max(squares / n - mean * mean, 0.0))
    half = 1.96 * sd / math.sqrt(n)
    computed = house_edge(rules, store=store).basic_strategy
    inside = mean - half <= computed <= mean + half
    print(f"rules {args.rules}: {n} rounds in {elapsed:.1f} s ({n / elapsed:,.0f} rounds/s)")
    print(f"simulated return {mean:+.5f} ± {half:.5f} (95 %), sd per round {sd:.3f}")
    print(f"computed (basic strategy) {computed:+.5f}: {'inside' if inside else 'OUTSIDE'}"
          " the interval")  # fmt: skip


if __name__ == "__main__":
    main()
