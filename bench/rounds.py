"""Benchmark: complete five-box rounds through the real ``start_round`` / ``apply`` path.

Run by hand: ``python bench/rounds.py [--seconds 5] [--rules thoth] [--profile]``.  Prints
rounds per second on one core.  The players follow basic strategy when
``blackjack.strategy`` provides ``basic_move(cards, up_card, rules, legal) -> Move``; until
then they hit below 17 and stand otherwise, and decline insurance.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from collections.abc import Callable, Sequence
from random import Random

from blackjack.cards import Card
from blackjack.hand import best_total
from blackjack.moves import Move
from blackjack.round import Phase, RoundState, apply, legal_moves, prepare_shoe, start_round
from blackjack.rules import PRESETS, Rules

Strategy = Callable[[Sequence[Card], Card, Rules, frozenset[Move]], Move]


def hit_below_17(cards: Sequence[Card], up: Card, rules: Rules, legal: frozenset[Move]) -> Move:
    return Move.HIT if best_total(cards) < 17 and Move.HIT in legal else Move.STAND


def find_strategy() -> tuple[str, Strategy]:
    try:
        from blackjack.strategy import basic_move  # type: ignore[attr-defined]
    except ImportError:
        return "hit below 17", hit_below_17
    return "basic strategy", basic_move  # type: ignore[no-any-return]


def play_round(state: RoundState, strategy: Strategy) -> RoundState:
    rules = state.rules
    while state.phase is not Phase.SETTLED:
        legal = legal_moves(state)
        if state.phase is Phase.INSURANCE:
            move = Move.DECLINE
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
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rules", default="thoth", choices=sorted(PRESETS))
    parser.add_argument("--profile", action="store_true", help="print the top of a profile")
    args = parser.parse_args()
    name, strategy = find_strategy()
    rules = PRESETS[args.rules]
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        run(rules, args.seconds, strategy)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)
        return
    rounds, elapsed = run(rules, args.seconds, strategy)
    print(f"rules {args.rules}, five boxes, players: {name}")
    print(f"{rounds} rounds in {elapsed:.2f} s of CPU: {rounds / elapsed:,.0f} rounds per second")


if __name__ == "__main__":
    main()
