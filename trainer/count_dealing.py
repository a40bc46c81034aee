"""What the counting drills deal (issue 31): pure choices over a shuffled shoe and an index
table, no database.  The services store what is dealt and judge the answer against it.

* *Running count*: the first cards of a freshly shuffled shoe of the table's decks; the
  answer is their running count from 0.
* *True count*: a freshly shuffled shoe dealt down to a random depth between one card and
  the reshuffle point; shown are the running count of the cards dealt (from 0 at the
  shuffle) and the cards left; the answer is the true count by the project's conventions
  (:func:`blackjack.counting.true_count`: decks to the nearest half deck, floored).
* *Index plays*: a play of the stored index table, at a true count on one side of its index
  or the other, with the hand the index computation used for its cell.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from blackjack import Card, Move, Rules, full_composition, new_shoe
from blackjack.counting import COUNTS, CountSystem, IndexPlay, IndexTable, running_count
from blackjack.counting import true_count as floored_true_count
from blackjack.counting.indices import HARD_HANDS, SOFT_HANDS

# How far from the index the count is put, on each side: at least one whole count, so that
# the exact EVs at that count agree with the table (the index is the crossing rounded).
SIDE_OFFSETS: tuple[int, ...] = (1, 2, 3)


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


def index_deal(*, table: IndexTable, rng: Random) -> IndexDeal | None:
    """An index play of ``table`` (insurance left out: its answer is not a playing move) at a
    true count on a random side of its index; ``None`` for a table without any."""
    plays = [p for p in table.plays if p.kind in ("hard", "soft", "pair")]
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
    return IndexDeal(play, index_hand(play), play.up, t, expected)


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
