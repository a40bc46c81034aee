"""``python -m blackjack``: the engine's command line.

Each group of subcommands lives in its own module with a ``register(subparsers)`` function:
``cli_deal`` plays rounds in the terminal, ``cli_math`` prints the mathematics.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence


def build_parser() -> argparse.ArgumentParser:
    from blackjack import cli_deal, cli_math

    parser = argparse.ArgumentParser(
        prog="python -m blackjack",
        description="Hall of Thoth blackjack engine: play rounds and compute exact EVs.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    cli_deal.register(sub)
    cli_math.register(sub)
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
