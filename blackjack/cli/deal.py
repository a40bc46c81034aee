"""``python -m blackjack deal``: play rounds in the terminal.

Each card and each move is printed as it happens; the hole card stays face down until the
dealer reveals it.  Answer with the keyboard letters of the table (h hit, s stand, d double,
p split, r surrender, y / n for insurance or even money); ``--auto`` plays a simple strategy
without asking, for scripts.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from random import Random
from typing import TextIO

from blackjack.cli.args import add_rules_arguments, rules_from_args
from blackjack.hand import hand_total
from blackjack.moves import KEYS, Move
from blackjack.round import (
    Event,
    EventKind,
    Phase,
    RoundState,
    Shoe,
    apply,
    legal_moves,
    prepare_shoe,
    start_round,
)

_BY_KEY = {key: move for move, key in KEYS.items()}


def register(add_parser: Callable[..., argparse.ArgumentParser]) -> None:
    """Add this module's subcommands through ``add_parser`` (the subparsers' own)."""
    p = add_parser(
        "deal",
        help="play rounds of blackjack in the terminal",
        description="Deal rounds at a table and play them from the keyboard: h hit, s stand, "
        "d double, p split, r surrender, y/n to answer insurance or even money.",
    )
    add_rules_arguments(p)
    p.add_argument("--seed", type=int, help="seed a reproducible shuffle (default: secure)")
    p.add_argument(
        "--boxes",
        type=int,
        default=1,
        choices=range(1, 6),
        metavar="1-5",
        help="how many boxes to bet on (default: %(default)s)",
    )
    p.add_argument("--bet", type=int, default=100, help="bet per box (default: %(default)s)")
    p.add_argument("--rounds", type=int, default=1, help="rounds to deal (default: %(default)s)")
    p.add_argument("--auto", action="store_true", help="play a simple strategy without prompting")
    p.set_defaults(func=run)


def _describe(e: Event, revealed: bool) -> str | None:
    where = f"box {e.seat}" + (f" hand {e.hand + 1}" if e.hand else "")
    kind = e.kind
    if kind is EventKind.DEAL:
        return f"{where}: {e.card}"
    if kind is EventKind.DEALER_UP:
        return f"dealer: {e.card}"
    if kind is EventKind.HOLE:
        return "dealer: (face down)"
    if kind is EventKind.MOVE:
        extra = f" (+{e.staked})" if e.staked else ""
        return f"{where}: {e.move}{extra}"
    if kind is EventKind.PEEK:
        return "dealer peeks: " + ("blackjack!" if e.blackjack else "no blackjack")
    if kind is EventKind.REVEAL:
        return f"dealer reveals: {e.card}"
    if kind is EventKind.DRAW:
        return f"dealer draws: {e.card}"
    if kind is EventKind.RESHUFFLE:
        return "the discards are shuffled"
    if kind is EventKind.SETTLE:
        return f"{where}: {e.outcome}, paid {e.paid}"
    if kind is EventKind.INSURANCE:
        return f"box {e.seat} insurance: paid {e.paid}"
    return None


def auto_move(state: RoundState) -> Move:
    """A simple total-based strategy for scripts: close to basic strategy, not exact."""
    legal = legal_moves(state)
    if state.phase is Phase.INSURANCE:
        return Move.DECLINE
    hand = state.current_hand
    assert hand is not None
    up = state.up_card.points
    up = 11 if up == 1 else up
    t = hand_total(hand.cards)
    first = hand.cards[0].points
    if Move.SPLIT in legal and (first in (1, 8) or (first in (2, 3, 6, 7, 9) and up <= 6)):
        return Move.SPLIT
    if Move.DOUBLE in legal and not t.soft and (t.best == 11 or (t.best == 10 and up <= 9)):
        return Move.DOUBLE
    if t.soft:
        return Move.HIT if t.best <= 17 or (t.best == 18 and up >= 9) else Move.STAND
    if t.best <= 11 or (t.best <= 16 and up >= 7) or (t.best == 12 and up <= 3):
        return Move.HIT if Move.HIT in legal else Move.STAND
    return Move.STAND


def _ask(state: RoundState, read: Callable[[], str], out: TextIO) -> Move:
    legal = legal_moves(state)
    keys = " ".join(f"{KEYS[m]}={m}" for m in Move if m in legal)
    hand = state.current_hand
    assert hand is not None and state.turn is not None
    if state.phase is Phase.INSURANCE:
        prompt = f"box {state.turn[0]}: insurance? [{keys}] "
    else:
        prompt = f"box {state.turn[0]} {hand_total(hand.cards).display}: [{keys}] "
    while True:
        out.write(prompt)
        out.flush()
        line = read()
        if line == "":  # end of input: take the move that risks nothing more
            return Move.DECLINE if state.phase is Phase.INSURANCE else Move.STAND
        move = _BY_KEY.get(line.strip().lower()[:1])
        if move in legal:
            assert move is not None
            return move
        out.write(f"  choose one of: {keys}\n")


def run(args: argparse.Namespace, *, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    rules = rules_from_args(args)
    rng = Random(args.seed) if args.seed is not None else None
    inp = stdin if stdin is not None else sys.stdin
    out = out if out is not None else sys.stdout
    shoe: Shoe | None = None
    for _ in range(args.rounds):
        shoe, fresh = prepare_shoe(shoe, rules, rng)
        if fresh:
            out.write(f"-- a fresh shoe of {rules.decks} decks\n")
        state = start_round(rules=rules, bets=dict.fromkeys(range(args.boxes), args.bet), shoe=shoe)
        shown = 0
        while True:
            for e in state.events[shown:]:
                line = _describe(e, state.revealed)
                if line:
                    out.write(line + "\n")
            shown = len(state.events)
            if state.phase is Phase.SETTLED:
                break
            move = auto_move(state) if args.auto else _ask(state, inp.readline, out)
            state = apply(state, move)
        staked = sum(b.staked for b in state.boxes)
        paid = sum(b.paid for b in state.boxes)
        out.write(
            f"dealer: {hand_total(state.dealer).display}; staked {staked}, "
            f"paid {paid}, net {paid - staked:+}; {state.shoe.remaining} cards left\n"
        )
        shoe = state.shoe
    return 0
