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

import hashlib
import json
from dataclasses import asdict, dataclass, fields
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
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
        # Every stored round writes its rules and reads them back on each move: the few rule
        # sets in use are converted once per process (a copy each time: the caller may edit it).
        return dict(_to_dict(self))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Inverse of :meth:`to_dict`; unknown keys are refused, missing ones take defaults."""
        # Read once per rule set and process, like to_dict.
        try:
            return _from_items(tuple(sorted(data.items())))
        except TypeError:  # a value that cannot be a cache key (a list): refused uncached
            return cls._from_dict(data)

    @classmethod
    def _from_dict(cls, data: dict[str, Any]) -> Rules:
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
        return _key(self)

    def preset_name(self) -> str | None:
        """The preset this rule set is, if any."""
        return next((name for name, r in PRESETS.items() if r == self), None)


@lru_cache(maxsize=256)
def _to_dict(rules: Rules) -> dict[str, Any]:
    d = asdict(rules)
    d["blackjack_pays"] = f"{rules.blackjack_pays.numerator}:{rules.blackjack_pays.denominator}"
    for f in ("peek", "double_on", "surrender", "pairs_by"):
        d[f] = str(d[f])
    return d


@lru_cache(maxsize=256)
def _from_items(items: tuple[tuple[str, Any], ...]) -> Rules:
    return Rules._from_dict(dict(items))


@lru_cache(maxsize=256)
def _key(rules: Rules) -> str:
    blob = json.dumps(_to_dict(rules), sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


# The options whose values are enum members (see Rules.__post_init__).
_ENUM_FIELDS: tuple[tuple[str, type[StrEnum]], ...] = (
    ("peek", Peek), ("double_on", DoubleOn), ("surrender", Surrender), ("pairs_by", PairsBy),
)  # fmt: skip


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
