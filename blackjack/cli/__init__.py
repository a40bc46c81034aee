"""``python -m blackjack``: the engine's command line.

Each group of subcommands lives in its own module with a ``register(add_parser)`` function:
``deal`` plays rounds in the terminal, ``maths`` prints the mathematics; ``args`` reads
the rules from the command line.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from blackjack.cli import deal, maths
from blackjack.cli.args import add_rules_arguments, rules_from_args

__all__ = [
    "add_rules_arguments",
    "all_situations",
    "build_parser",
    "main",
    "rules_from_args",
    "run_deal",
]

# The commands' own entry points, for the tests and the benches.
run_deal = deal.run
all_situations = maths.all_situations


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m blackjack",
        description="Hall of Thoth blackjack engine: play rounds and compute exact EVs.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    deal.register(sub.add_parser)
    maths.register(sub.add_parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        result: int = args.func(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader closed the pipe (``… | head``): not an error.  Point stdout at devnull so
        # that the interpreter's final flush does not raise again (Python's signal docs).
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return result
