"""``python -m blackjack analyze | dealer | edge | chart``: the mathematics on the command line.

Output with ``--json`` is a contract other tools rely on: EVs per unit of the initial bet,
conditioned on no dealer blackjack where the dealer peeks.  Charts and house edges are read from
the table store (``BLACKJACK_CACHE_DIR``, else ``var/blackjack-cache``) and computed once.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Callable
from typing import Any

from blackjack.cards import RANK_POINTS, full_composition, parse_points, remove_cards
from blackjack.cli.args import add_rules_arguments, rules_from_args
from blackjack.hand import is_pair
from blackjack.maths import (
    FileStore,
    TableStore,
    analyze,
    basic_chart,
    dealer_probabilities,
    default_store,
    house_edge,
    prepare_full_shoe,
    rule_effects,
)
from blackjack.round import legal_moves_for_points
from blackjack.rules import Rules


def _ranks(text: str) -> list[str]:
    """``"10,6"`` or ``"A,k"`` → normalized rank names; refuses unknown ranks."""
    out = []
    for part in text.replace(" ", "").split(","):
        if part:
            parse_points(part)
            rank = part.upper()
            out.append("10" if rank == "T" else rank)
    return out


def _points(ranks: list[str]) -> list[int]:
    return [RANK_POINTS[r] for r in ranks]


def _store(args: argparse.Namespace) -> TableStore | None:
    if args.no_store:
        return None
    return FileStore(args.cache_dir) if args.cache_dir else default_store()


def _situation(
    rules: Rules, hand: list[str], up: str, removed: list[str], store: TableStore | None
) -> dict[str, Any]:
    points = _points(hand)
    pair = is_pair(hand, rules)  # by rank or by value, as the rules say
    a = analyze(rules, points, RANK_POINTS[up], removed=_points(removed), pair=pair)
    chart = basic_chart(rules, store=store)
    legal = legal_moves_for_points(rules, points, RANK_POINTS[up], pair=pair)
    out: dict[str, Any] = {
        "hand": hand,
        "dealer": up,
        "ev": {str(m): v for m, v in a.ev.items()},
        "best": str(a.best),
        "chart": str(chart.move_for(points, RANK_POINTS[up], legal)),
    }
    if removed:
        out["removed"] = removed
    if a.insurance is not None:
        out["insurance"] = a.insurance
    return out


def all_situations(rules: Rules, store: TableStore | None) -> list[dict[str, Any]]:
    names = ["A", *(str(p) for p in range(2, 11))]
    prepare_full_shoe(rules)
    return [
        _situation(rules, [a, b], up, [], store)
        for up in names
        for a, b in itertools.combinations_with_replacement(names, 2)
    ]


def _print_situation(s: dict[str, Any]) -> None:
    evs = "  ".join(f"{m} {v:+.6f}" for m, v in s["ev"].items())
    ins = f"  insurance {s['insurance']:+.6f}" if "insurance" in s else ""
    print(f"{','.join(s['hand'])} vs {s['dealer']}: best {s['best']} (chart {s['chart']})  "
          f"{evs}{ins}")  # fmt: skip


def cmd_analyze(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    store = _store(args)
    if args.all:
        result: Any = all_situations(rules, store)
    else:
        if not args.hand or not args.dealer:
            raise SystemExit("analyze needs --hand and --dealer, or --all")
        up = _ranks(args.dealer)
        if len(up) != 1:
            raise SystemExit("--dealer takes one card")
        result = _situation(rules, _ranks(args.hand), up[0], _ranks(args.removed or ""), store)
    if args.json:
        json.dump(result, sys.stdout)
        print()
    else:
        for s in result if isinstance(result, list) else [result]:
            _print_situation(s)
    return 0


def cmd_dealer(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    up = RANK_POINTS[_ranks(args.dealer)[0]]
    comp = remove_cards(full_composition(rules.decks), [up, *_points(_ranks(args.removed or ""))])
    out = dealer_probabilities(rules, up, comp, no_blackjack=args.no_blackjack).to_dict()
    if args.json:
        json.dump(out, sys.stdout)
        print()
    else:
        for name, p in out.items():
            print(f"{name:>9}  {100 * p:8.4f} %")
    return 0


def cmd_edge(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    store = _store(args)
    edge = house_edge(rules, store=store)
    out: dict[str, Any] = {
        "basic_strategy": edge.basic_strategy,
        "composition_dependent": edge.composition_dependent,
    }
    if args.effects:
        out["rule_effects"] = rule_effects(rules, store=store)
    if args.json:
        json.dump(out, sys.stdout)
        print()
    else:
        print(f"basic strategy         {100 * edge.basic_strategy:+.4f} %")
        print(f"composition-dependent  {100 * edge.composition_dependent:+.4f} %")
        for name, delta in out.get("rule_effects", {}).items():
            print(f"  {name:<24} {100 * delta:+.4f} %")
    return 0


def cmd_chart(args: argparse.Namespace) -> int:
    chart = basic_chart(rules_from_args(args), store=_store(args))
    if args.json:
        json.dump(chart.to_dict(), sys.stdout)
        print()
    else:
        print(chart.text())
    return 0


def _friendly(func: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Bad cards or impossible shoes end with a one-line message, not a traceback."""

    def run(args: argparse.Namespace) -> int:
        try:
            return func(args)
        except ValueError as e:
            raise SystemExit(f"error: {e}") from None

    return run


def _common(p: argparse.ArgumentParser) -> None:
    add_rules_arguments(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--cache-dir", help="table store directory (default: $BLACKJACK_CACHE_DIR "
                   "or var/blackjack-cache)")  # fmt: skip
    p.add_argument("--no-store", action="store_true", help="neither read nor write the store")


def register(add_parser: Callable[..., argparse.ArgumentParser]) -> None:
    """Add this module's subcommands through ``add_parser`` (the subparsers' own)."""
    p = add_parser("analyze", help="EV of every option of a hand against an up card")
    p.add_argument("--hand", help="the player's cards, e.g. 10,6 or A,K")
    p.add_argument("--dealer", help="the dealer's up card, e.g. 10 or A")
    p.add_argument("--removed", help="other cards seen, e.g. 5,5")
    p.add_argument("--all", action="store_true", help="every two-card hand vs every up card")
    _common(p)
    p.set_defaults(func=_friendly(cmd_analyze))

    p = add_parser("dealer", help="the dealer's final-total probabilities")
    p.add_argument("--dealer", required=True, help="the dealer's up card")
    p.add_argument("--removed", help="other cards seen")
    p.add_argument("--no-blackjack", action="store_true",
                   help="given the dealer has no blackjack (after the peek)")  # fmt: skip
    _common(p)
    p.set_defaults(func=_friendly(cmd_dealer))

    p = add_parser("edge", help="house edge with basic strategy and exact play")
    p.add_argument("--effects", action="store_true",
                   help="also each single rule change's effect (slow the first time)")  # fmt: skip
    _common(p)
    p.set_defaults(func=_friendly(cmd_edge))

    p = add_parser("chart", help="the basic-strategy chart")
    _common(p)
    p.set_defaults(func=_friendly(cmd_chart))
