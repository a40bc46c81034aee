"""Benchmark: complete five-box rounds through the real ``start_round`` / ``apply`` path.

Run by hand: ``python bench/rounds.py [--seconds 3] [--runs 5] [--rules thoth] [--profile]``.
Prints rounds per second on one core for each run and their median, beside a figure of this
machine's Python speed (``sum(range(1000))``) so that figures from two machines compare.
The players follow the basic-strategy chart of the rules (``blackjack.strategy.basic_chart``,
computed or read from the store before the clock starts) and decline insurance; ``--naive``
makes them hit below 17 and stand otherwise instead.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time
from collections.abc import Callable, Sequence
from random import Random

from machine import describe  # bench/machine.py, beside this script

from blackjack import (
    PRESETS,
    Card,
    Move,
    Phase,
    RoundState,
    Rules,
    apply,
    best_total,
    legal_moves,
    prepare_shoe,
    start_round,
)

Strategy = Callable[[Sequence[Card], Card, Rules, frozenset[Move]], Move]


# Enum members looked up once, as a driver playing millions of hands would.
HIT, STAND, DECLINE = Move.HIT, Move.STAND, Move.DECLINE
SETTLED, INSURANCE = Phase.SETTLED, Phase.INSURANCE


def hit_below_17(cards: Sequence[Card], up: Card, rules: Rules, legal: frozenset[Move]) -> Move:
    return HIT if best_total(cards) < 17 and HIT in legal else STAND


def chart_strategy(rules: Rules) -> Strategy:
    from blackjack import basic_chart

    move_for = basic_chart(rules).move_for

    def basic_move(cards: Sequence[Card], up: Card, rules: Rules, legal: frozenset[Move]) -> Move:
        return move_for([c.points for c in cards], up.points, legal)

    return basic_move


def play_round(state: RoundState, strategy: Strategy) -> RoundState:
    rules = state.rules
    while state.phase is not SETTLED:
        legal = legal_moves(state)
        if state.phase is INSURANCE:
            move = DECLINE
        else:
            hand = state.current_hand
            assert hand is not None
            move = strategy(hand.cards, state.dealer[0], rules, legal)
        state = apply(state, move)
    return state


def run(rules: Rules, seconds: float, strategy: Strategy, seed: int = 1) -> tuple[int, float]:
    rng = Random(seed)
    shoe = None
    bets = dict.fromkeys(range(5), 100)
    rounds = 0
    # CPU time of this process: the figure is per core, and other work on the machine does
    # not count against it.
    start = time.process_time()
    deadline = start + seconds
    while True:
        for _ in range(200):
            shoe, _fresh = prepare_shoe(shoe, rules, rng)
            state = play_round(start_round(rules=rules, bets=bets, shoe=shoe), strategy)
            shoe = state.shoe
            rounds += 1
        now = time.process_time()
        if now >= deadline:
            return rounds, now - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds of each run")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rules", default="thoth", choices=sorted(PRESETS))
    parser.add_argument("--profile", action="store_true", help="print the top of a profile")
    parser.add_argument("--naive", action="store_true", help="players hit below 17, else stand")
    args = parser.parse_args()
    rules = PRESETS[args.rules]
    if args.naive:
        name, strategy = "hit below 17", hit_below_17
    else:
        name, strategy = "basic strategy", chart_strategy(rules)
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        run(rules, args.seconds, strategy)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)
        return
    print(f"rules {args.rules}, five boxes, players: {name}")
    print(describe())
    rates = []
    for i in range(args.runs):
        # Each run its own seed: the shoes differ, so the runs sample different hands.
        rounds, elapsed = run(rules, args.seconds, strategy, seed=i + 1)
        rates.append(rounds / elapsed)
        print(f"run {i + 1}: {rounds} rounds in {elapsed:.2f} s of CPU, {rates[-1]:,.0f}/s")
    print(f"median of {args.runs} runs: {statistics.median(rates):,.0f} rounds per second")


if __name__ == "__main__":
    main()
