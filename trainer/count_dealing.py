"""What the counting drills deal (issue 31): pure choices over a shuffled shoe and an index
table, no database.  The services store what is dealt and judge the answer against it.

* *Running count*: the first cards of a freshly shuffled shoe of the table's decks; the
  answer is their running count from 0.
* *True count*: a freshly shuffled shoe dealt down to a random depth between one card and
  the reshuffle point; shown are the running count of the cards dealt (from 0 at the
  shuffle) and the cards left; the answer is the true count by the project's conventions
  (:func:`blackjack.counting.true_count`: decks to the nearest half deck, floored).
* *Index plays*: a play of the stored index table, at a true count on one side of its index
  or the other, with the hand the index computation used for its cell; the insurance play
  (where the rules offer insurance) with any two cards but a blackjack against an ace.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from blackjack import Card, Move, Rules, full_composition, new_shoe
from blackjack.counting import (
    COUNTS,
    CountSystem,
    IndexPlay,
    IndexTable,
    count_shoe,
    running_count,
)
from blackjack.counting import true_count as floored_true_count
from blackjack.counting.indices import HARD_HANDS, SOFT_HANDS
from trainer.dealing import insurance_points

# How far the count is put on each side of the index: the first to the third count at which
# the table says the move of that side (from the index up, or below it).  The exact EVs at
# such a count can still favour the other move (the index is the crossing rounded, and one
# count's shoe is a little off the smooth curve): the service keeps only the deals whose EVs
# agree with the table (trainer.services._index_situation).
SIDE_OFFSETS: tuple[int, ...] = (1, 2, 3)
PLAY_KINDS: tuple[str, ...] = ("hard", "soft", "pair")
INSURANCE_KIND = "insurance"
# The hand the index computation asked insurance with (blackjack.counting.indices), dealt
# should no random hand fit beside the shoe at the count (a very shallow shoe).
INSURANCE_HAND: tuple[int, ...] = (10, 6)


@dataclass(frozen=True)
class RunningDeal:
    cards: list[Card]
    running: int


@dataclass(frozen=True)
class TrueCountDeal:
    running: int
    cards_left: int
    true_count: int


@dataclass(frozen=True)
class IndexDeal:
    play: IndexPlay
    hand: tuple[int, ...]  # points, ace = 1
    up: int
    true_count: int
    expected: Move  # the move the table says at this count

    @property
    def insurance(self) -> bool:
        return self.play.kind == INSURANCE_KIND


def running_deal(*, rules: Rules, system: CountSystem, cards: int, rng: Random) -> RunningDeal:
    """The first ``cards`` cards of a freshly shuffled shoe and their running count."""
    shoe = new_shoe(rules.decks, rng)
    shown = [shoe.pop() for _ in range(min(cards, len(shoe)))]
    return RunningDeal(shown, running_count(system, shown))


def true_count_deal(*, rules: Rules, system: CountSystem, rng: Random) -> TrueCountDeal:
    """A shoe dealt to a random depth up to the reshuffle point: its running count, the cards
    left and the true count they make."""
    shoe = new_shoe(rules.decks, rng)
    full = len(shoe)
    dealt = rng.randint(1, max(1, full - rules.reshuffle_point))
    seen = shoe[-dealt:]
    running = running_count(system, seen)
    left = full - dealt
    tc = floored_true_count(system, running=running, cards_left=left, decks=rules.decks)
    return TrueCountDeal(running, left, tc)


def index_hand(play: IndexPlay) -> tuple[int, ...]:
    """The hand (points) the index computation used for the play's cell."""
    if play.kind == "hard":
        return HARD_HANDS[play.row]
    if play.kind == "soft":
        return SOFT_HANDS[play.row]
    return (play.row, play.row)


def insurance_hand(table: IndexTable, t: int, rng: Random) -> tuple[int, ...]:
    """Two cards facing an ace for the insurance index play at true count ``t``: any hand but
    a blackjack (:func:`trainer.dealing.insurance_points`), one whose cards, with the ace,
    are among the cards seen besides the shoe the index table takes at that count."""
    rules = table.rules
    shoe = count_shoe(table.system, rules.decks, table.cards_left, t)
    for _ in range(50):
        points = tuple(insurance_points(rng))
        if removed_for(rules, shoe, [*points, 1]) is not None:
            return points
    return INSURANCE_HAND


def index_deal(*, table: IndexTable, rng: Random) -> IndexDeal | None:
    """An index play of ``table`` at a true count on a random side of its index: a playing
    move's with its cell's hand, or (where the table's rules offer insurance) the insurance
    play's with two cards against an ace; ``None`` for a table without any."""
    kinds = (*PLAY_KINDS, INSURANCE_KIND) if table.rules.insurance else PLAY_KINDS
    plays = [p for p in table.plays if p.kind in kinds]
    if not plays:
        return None
    play = rng.choice(plays)
    offset = rng.choice(SIDE_OFFSETS)
    index_side = rng.random() < 0.5
    # "above": the index move from the index up; below it, the basic move (and the reverse).
    if play.above:
        t = play.index - 1 + offset if index_side else play.index - offset
    else:
        t = play.index - offset if index_side else play.index - 1 + offset
    t = min(max(t, COUNTS[0]), COUNTS[-1])
    expected = play.move if index_side else play.basic
    hand = insurance_hand(table, t, rng) if play.kind == INSURANCE_KIND else index_hand(play)
    return IndexDeal(play, hand, play.up, t, expected)


def removed_for(rules: Rules, unseen: tuple[int, ...], cards: list[int]) -> list[int] | None:
    """The cards seen besides ``cards`` when ``unseen`` is the shoe's unseen part (points,
    for ``analyze(removed=...)``); ``None`` when they do not fit in the full shoe.

    >>> from blackjack import PRESETS
    >>> removed_for(PRESETS["thoth"], (24,) * 9 + (95,), [10])
    []
    """
    full = full_composition(rules.decks)
    out: list[int] = []
    for i in range(10):
        n = full[i] - unseen[i] - cards.count(i + 1)
        if n < 0:
            return None
        out += [i + 1] * n
    return out
