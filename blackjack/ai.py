"""The AI seat-mates: *easy*, *normal* and *hard* players answering every decision from what a
player at the table can see (their own cards, the up card, the cards already played).

>>> from blackjack.rules import PRESETS
>>> legal = frozenset({Move.HIT, Move.STAND, Move.DOUBLE})
>>> POLICIES["easy"].choose(cards=[6, 5], up=6, legal=legal, rules=PRESETS["thoth"])
<Move.HIT: 'hit'>
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from blackjack.hand import points_total
from blackjack.maths.ev import decision_shoe, insurance_gain
from blackjack.maths.store import TableStore
from blackjack.maths.strategy import basic_chart, best_move
from blackjack.moves import Move
from blackjack.rules import Rules


class Policy(Protocol):
    """An AI seat-mate: answers every decision from what a player at the table can see."""

    @property
    def name(self) -> str: ...

    def choose(
        self,
        *,
        cards: Sequence[int],
        up: int,
        legal: frozenset[Move],
        rules: Rules,
        seen: Sequence[int] = (),
        split_hands: int = 1,
        from_split: bool = False,
    ) -> Move: ...


_INSURANCE_OFFER = frozenset({Move.INSURE, Move.DECLINE})


def _fallback(legal: frozenset[Move]) -> Move:
    return Move.STAND if Move.STAND in legal else min(legal, key=lambda m: str(m))


@dataclass(frozen=True)
class EasyPolicy:
    """Hits below 17, otherwise stands; never insures, doubles or splits."""

    name: str = "easy"

    def choose(self, *, cards: Sequence[int], up: int, legal: frozenset[Move], rules: Rules,
               seen: Sequence[int] = (), split_hands: int = 1, from_split: bool = False,
               ) -> Move:  # fmt: skip
        if legal == _INSURANCE_OFFER:
            return Move.DECLINE
        total, _ = points_total(cards)
        if total < 17 and Move.HIT in legal:
            return Move.HIT
        return _fallback(legal)


@dataclass(frozen=True)
class NormalPolicy:
    """Follows the basic-strategy chart of the table's rules; never insures."""

    name: str = "normal"
    store: TableStore | None = None

    def choose(self, *, cards: Sequence[int], up: int, legal: frozenset[Move], rules: Rules,
               seen: Sequence[int] = (), split_hands: int = 1, from_split: bool = False,
               ) -> Move:  # fmt: skip
        if legal == _INSURANCE_OFFER:
            return Move.DECLINE
        return basic_chart(rules, store=self.store).move_for(cards, up, legal)


@dataclass(frozen=True)
class HardPolicy:
    """The best move by exact EV for its own cards, the up card and the cards already played
    (``seen``); never the hole card or the shoe.  Insures when the bet is worth it then."""

    name: str = "hard"

    def choose(self, *, cards: Sequence[int], up: int, legal: frozenset[Move], rules: Rules,
               seen: Sequence[int] = (), split_hands: int = 1, from_split: bool = False,
               ) -> Move:  # fmt: skip
        if legal == _INSURANCE_OFFER:
            gain = insurance_gain(rules, cards, decision_shoe(rules, cards, up, seen))
            return Move.INSURE if gain > 0 else Move.DECLINE
        return best_move(rules, cards, up, removed=seen, legal=legal,
                         split_hands=split_hands, from_split=from_split)  # fmt: skip


EASY = EasyPolicy()
NORMAL = NormalPolicy()
HARD = HardPolicy()
POLICIES: dict[str, Policy] = {"easy": EASY, "normal": NORMAL, "hard": HARD}
