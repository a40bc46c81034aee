"""The rules on the command line: ``--rules PRESET`` and one option per rule."""

from __future__ import annotations

import argparse
from dataclasses import replace
from fractions import Fraction
from typing import Any

from blackjack.rules import DEFAULT_PRESET, PRESETS, DoubleOn, PairsBy, Peek, Rules, Surrender


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--rules PRESET`` and one option per rule to a command-line parser."""
    g = parser.add_argument_group("rules (a preset, then any option changed by hand)")
    g.add_argument("--rules", default=DEFAULT_PRESET, choices=sorted(PRESETS),
                   help="rule-set preset (default: %(default)s)")  # fmt: skip
    g.add_argument("--decks", type=int, choices=(1, 2, 4, 6, 8))
    g.add_argument("--h17", dest="h17", action="store_true", default=None,
                   help="dealer hits soft 17")  # fmt: skip
    g.add_argument("--s17", dest="h17", action="store_false", help="dealer stands on soft 17")
    g.add_argument("--peek", choices=[p.value for p in Peek])
    g.add_argument("--bj-pays", choices=("3:2", "6:5"))
    g.add_argument("--double", choices=[d.value for d in DoubleOn])
    g.add_argument("--no-double-soft", dest="double_soft", action="store_false", default=None)
    g.add_argument("--das", dest="das", action="store_true", default=None,
                   help="double after split")  # fmt: skip
    g.add_argument("--no-das", dest="das", action="store_false")
    g.add_argument("--max-hands", type=int, choices=(2, 3, 4))
    g.add_argument("--pairs-by", choices=[p.value for p in PairsBy])
    g.add_argument("--rsa", dest="rsa", action="store_true", default=None,
                   help="resplit aces")  # fmt: skip
    g.add_argument("--no-rsa", dest="rsa", action="store_false")
    g.add_argument("--hsa", dest="hsa", action="store_true", default=None,
                   help="hit split aces")  # fmt: skip
    g.add_argument("--surrender", choices=[s.value for s in Surrender])
    g.add_argument("--no-insurance", dest="insurance", action="store_false", default=None)
    g.add_argument("--reshuffle-below", type=int)


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The preset named by ``--rules`` with every option given on the command line applied."""
    changes: dict[str, Any] = {}
    for arg, field in (("decks", "decks"), ("h17", "dealer_hits_soft_17"),
                       ("double_soft", "double_soft"), ("das", "double_after_split"),
                       ("max_hands", "max_hands"), ("rsa", "resplit_aces"),
                       ("hsa", "hit_split_aces"), ("insurance", "insurance"),
                       ("reshuffle_below", "reshuffle_below")):  # fmt: skip
        value = getattr(args, arg, None)
        if value is not None:
            changes[field] = value
    for arg, field, enum in (("peek", "peek", Peek), ("double", "double_on", DoubleOn),
                             ("pairs_by", "pairs_by", PairsBy),
                             ("surrender", "surrender", Surrender)):  # fmt: skip
        value = getattr(args, arg, None)
        if value is not None:
            changes[field] = enum(value)
    if getattr(args, "bj_pays", None):
        num, den = args.bj_pays.split(":")
        changes["blackjack_pays"] = Fraction(int(num), int(den))
    return replace(PRESETS[args.rules], **changes)
