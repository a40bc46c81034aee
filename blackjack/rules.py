"""The rule set of a table, and the presets of RULES.md.

``Rules`` is a frozen value: the engine, the EV calculator and the stored rounds all take one.
Anything not fixed by the sources is chosen as a real casino with these rules would do it, and
said here.

>>> PRESETS["thoth"].decks
6
>>> Rules.from_dict(PRESETS["live"].to_dict()) == PRESETS["live"]
True
"""

from __future__ import annotations

import argparse
import hashlib
import json
from dataclasses import asdict, dataclass, fields, replace
from enum import StrEnum
from fractions import Fraction
from typing import Any


class Peek(StrEnum):
    """When the dealer checks the hole card for blackjack before the players act."""

    ACE_AND_TEN = "ace_and_ten"
    ACE_ONLY = "ace_only"
    # The European no-hole-card game: a dealer blackjack, found only after the players have
    # acted, takes doubles and splits too.  The same holds for an up card the dealer does not
    # peek under (a ten under ACE_ONLY).
    NONE = "none"


class DoubleOn(StrEnum):
    ANY_TWO = "any_two"
    NINE_TO_ELEVEN = "9-11"
    TEN_TO_ELEVEN = "10-11"


class Surrender(StrEnum):
    NONE = "none"
    LATE = "late"


class PairsBy(StrEnum):
    """Which first two cards may be split: equal value (K♥ 10♣ is a pair) or equal rank."""

    VALUE = "value"
    RANK = "rank"


@dataclass(frozen=True, slots=True)
class Rules:
    decks: int = 6
    dealer_hits_soft_17: bool = False
    peek: Peek = Peek.ACE_AND_TEN
    blackjack_pays: Fraction = Fraction(3, 2)
    double_on: DoubleOn = DoubleOn.ANY_TWO
    double_soft: bool = True
    double_after_split: bool = True
    max_hands: int = 4
    pairs_by: PairsBy = PairsBy.VALUE
    resplit_aces: bool = False
    hit_split_aces: bool = False
    surrender: Surrender = Surrender.NONE
    surrender_vs_ace: bool = True
    insurance: bool = True
    # A player blackjack against a 2-9 up card is paid at once (the live game); it changes
    # when, never how much, so the mathematics ignores it.
    early_blackjack_payout: bool = False
    # Reshuffle before a round when fewer than this many cards remain; None: a quarter of
    # the shoe (78 of 312 for six decks).
    reshuffle_below: int | None = None

    def __post_init__(self) -> None:
        # A plain string ("none") equals its enum member, so Rules(surrender="none") == Rules(),
        # but the legality code tests members by identity (``is``) on its hot path and would
        # then allow surrender, split K-10 by rank, and so on: store the members themselves.
        for name, enum in _ENUM_FIELDS:
            object.__setattr__(self, name, enum(getattr(self, name)))
        if self.decks not in (1, 2, 4, 6, 8):
            raise ValueError("decks must be 1, 2, 4, 6 or 8")
        if not 2 <= self.max_hands <= 4:
            raise ValueError("max_hands must be 2, 3 or 4")
        if self.blackjack_pays not in (Fraction(3, 2), Fraction(6, 5)):
            raise ValueError("blackjack pays 3:2 or 6:5")
        if self.reshuffle_below is not None and not 0 < self.reshuffle_below < self.decks * 52:
            raise ValueError("reshuffle point must lie inside the shoe")

    @property
    def reshuffle_point(self) -> int:
        return self.reshuffle_below if self.reshuffle_below is not None else self.decks * 13

    def peeks_under(self, up_points: int) -> bool:
        """Does the dealer check for blackjack with this up card (1 = ace, 10 = ten)?"""
        if up_points == 1:
            return self.peek != Peek.NONE
        if up_points == 10:
            return self.peek == Peek.ACE_AND_TEN
        return False

    # --- serialization and cache keys -------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["blackjack_pays"] = f"{self.blackjack_pays.numerator}:{self.blackjack_pays.denominator}"
        for f in ("peek", "double_on", "surrender", "pairs_by"):
            d[f] = str(d[f])
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Inverse of :meth:`to_dict`; unknown keys are refused, missing ones take defaults."""
        names = {f.name for f in fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise ValueError(f"unknown rule options: {sorted(unknown)}")
        kw = dict(data)
        if "blackjack_pays" in kw and not isinstance(kw["blackjack_pays"], Fraction):
            num, _, den = str(kw["blackjack_pays"]).partition(":")
            kw["blackjack_pays"] = Fraction(int(num), int(den or 1))
        return cls(**kw)  # the enum options are converted by __post_init__

    def key(self) -> str:
        """A short stable digest naming this rule set, for caches and stored tables."""
        blob = json.dumps(self.to_dict(), sort_keys=True).encode()
        return hashlib.sha256(blob).hexdigest()[:16]

    def preset_name(self) -> str | None:
        """The preset this rule set is, if any."""
        return next((name for name, r in PRESETS.items() if r == self), None)


# The options whose values are enum members (see Rules.__post_init__).
_ENUM_FIELDS: tuple[tuple[str, type[StrEnum]], ...] = (
    ("peek", Peek), ("double_on", DoubleOn), ("surrender", Surrender), ("pairs_by", PairsBy),
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class TableStakes:
    """Bet limits and chip denominations of one table, and how many boxes one player may bet
    on in a round (empty: any number)."""

    slug: str
    min_bet: int
    max_bet: int
    chips: tuple[int, ...]
    box_counts: tuple[int, ...] = ()


PRESETS: dict[str, Rules] = {
    # Source 000: the house rules.
    "thoth": Rules(),
    # Source 001: eight decks is not stated in the source; it is the usual live-casino shoe.
    "live": Rules(
        decks=8, double_after_split=False, max_hands=2, pairs_by=PairsBy.RANK,
        early_blackjack_payout=True,
    ),
    # Source 002: split pairs by value is not stated; we take value as the thoth table does.
    "sixdeck": Rules(
        peek=Peek.ACE_ONLY, double_soft=False, resplit_aces=True,
        surrender=Surrender.LATE, surrender_vs_ace=False,
    ),
    # Source 003.
    "free": Rules(insurance=False),
    # Source 004: the European no-hole-card game.
    "european": Rules(peek=Peek.NONE, insurance=False),
}  # fmt: skip

DEFAULT_PRESET = "thoth"

# The house's three tables (RULES.md) all deal the thoth rules.
HOUSE_TABLES: tuple[TableStakes, ...] = (
    TableStakes("scribes", 100, 5_000, (100, 500, 1_000, 5_000)),
    TableStakes("priests", 1_000, 50_000, (1_000, 5_000, 10_000, 50_000)),
    TableStakes("pharaohs", 10_000, 500_000, (10_000, 50_000, 100_000, 500_000)),
)

# Stakes that a source gives for its own preset; others play at the Scribes' limits.
PRESET_STAKES: dict[str, TableStakes] = {
    "sixdeck": TableStakes("sixdeck", 1, 200, (1, 5, 25, 100), box_counts=(1, 5)),
    "free": TableStakes("free", 5, 500, (5, 25, 100, 500)),
}


def stakes_for_preset(name: str) -> TableStakes:
    return PRESET_STAKES.get(name, HOUSE_TABLES[0])


# --- command line ---------------------------------------------------------------------


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
