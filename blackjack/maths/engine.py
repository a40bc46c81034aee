"""The memoized EV computations behind :mod:`blackjack.maths.ev`, in mass units.

See :mod:`blackjack.maths.ev` for the mass formulation, how splits are valued and the choices made.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Protocol

from blackjack.cards import Composition, full_composition, remove_cards

# Imported under the names the split code below was written with (the split EV is being
# rewritten apart; the names stay so that the two changes merge without touching it).
from blackjack.hand import is_points_blackjack as is_blackjack
from blackjack.maths.backend import KernelDealerCache, clear_dealers, dealer_cache
from blackjack.maths.dealer import MASKS, SHIFTS, UNITS, decode, encode
from blackjack.maths.splits import largest_removal, split_value
from blackjack.moves import MOVE_ORDER, Move
from blackjack.round.legal import legal_moves_for_points as legal_moves
from blackjack.rules import Rules


class HandChart(Protocol):
    """What the engine asks of a strategy chart when it plays one instead of the best move."""

    def move_for(self, hand: Sequence[int], up: int, legal: frozenset[Move]) -> Move: ...

    def move_for_total(self, total: int, soft: bool, up: int, legal: frozenset[Move]) -> Move: ...


class Engine:
    """Memoized EV computations for one rule set and one up card, in mass units (see the module
    docstring).  Memos are keyed by the composition, so analyses of different hands share work.
    With ``chart`` the hands are played by the chart instead of by the best move.

    The public methods take compositions; inside, a shoe is its integer code
    (:func:`blackjack.dealer.encode`) and its size, so that drawing a card is one subtraction
    and every memo lookup hashes one integer."""

    def __init__(self, rules: Rules, up: int, chart: HandChart | None = None) -> None:
        self.rules = rules
        self.up = up
        self.chart = chart
        self.h17 = rules.dealer_hits_soft_17
        self.peek = rules.peeks_under(up)
        self.bj_index = 9 if up == 1 else 0 if up == 10 else -1  # hole card giving blackjack
        self._bj_shift = SHIFTS[self.bj_index]
        self._bj_mask = MASKS[self.bj_index]
        self.dealer = dealer_cache(up, self.h17)
        # The compiled kernel's hand values (:meth:`_solve`), where the kernel computes.
        self._hands = (
            self.dealer.hands()
            if isinstance(self.dealer, KernelDealerCache) and chart is None
            else None
        )
        self._prepared: set[tuple[Composition, int, bool, int]] = set()
        self.full_shoe_ready = False
        self._rows = self.dealer.rows[self.peek]
        # play() memos, one per (hard total, ace held): index 2 * hard + ace, by shoe code.
        self._play: list[dict[int, float]] = [{} for _ in range(44)]
        self._split_hand: dict[tuple[int, int, int], float] = {}
        self._split_legal: dict[tuple[int, int], frozenset[Move]] = {}
        # split() by (shoe code, pair, hands, forced): the chart asks for the pairs the
        # two-card analyses have valued already.
        self._split: dict[tuple[int, int, int, bool], float] = {}

    # --- batching the dealer work ------------------------------------------------------

    def prepare(self, comp: Composition, cards: Sequence[int], split_hands: int = 1) -> None:
        """Compute at once the dealer vectors every option of this hand will ask for: the shoe
        less any cards the hand can still draw, and for a pair the split hands' shoes; for a pair
        also the hit-or-stand values of every hand that can grow from the split hands
        (:meth:`_solve`), where thousands of them would otherwise cost a Python call each.
        This only saves time; the results are the same without it."""
        key = (comp, sum(cards), len(cards) == 2 and cards[0] == cards[1], split_hands)
        if key in self._prepared:
            return
        self._prepared.add(key)
        need = [(comp, 21 - sum(cards))]
        families = [(comp, sum(cards), 1 in cards)]
        if len(cards) == 2 and cards[0] == cards[1]:
            pair = cards[0]
            split_bases = self._split_bases(comp, pair, self.rules.max_hands - split_hands)
            need += [(base, 21 - pair) for base in split_bases]
            if pair != 1 or self.rules.hit_split_aces:
                families += [(base, pair, pair == 1) for base in split_bases]
        self.dealer.fill_less(need)
        if len(families) > 1 and self.chart is None and sum(comp) >= _SOLVE_MIN_CARDS:
            self._solve(families, memos=1)

    def prepare_full_shoe(self) -> None:
        """:meth:`prepare` for every two-card hand dealt from a full shoe against this up."""
        base = remove_cards(full_composition(self.rules.decks), [self.up])
        need = [(base, 21)]
        # Every hand dealt from this shoe first (its hit-or-stand values fill the play() memos:
        # the two-card hands' hits and the chart's three-card rows walk none in Python), then
        # the split hands'.
        families: list[tuple[Composition, int, bool]] = [(base, 0, False)]
        for p in range(1, 11):
            if base[p - 1] >= 2:
                comp = remove_cards(base, [p, p])
                bases = self._split_bases(comp, p, self.rules.max_hands - 1)
                need += [(b, 21 - p) for b in bases]
                if p != 1 or self.rules.hit_split_aces:
                    families += [(b, p, p == 1) for b in bases]
        # The hands' values in bulk (blackjack.splits asks for the hands of up to
        # 2 * max_hands - 2 shoes; one Python call each was most of the time).
        self.dealer.fill_less(need)
        if self.chart is None and sum(base) >= _SOLVE_MIN_CARDS:
            self._solve(families, memos=1)
        self.full_shoe_ready = True

    def _split_bases(self, comp: Composition, pair: int, splits: int) -> list[Composition]:
        """The shoes a split hand's second card is drawn from: ``comp`` less 0, 1, … more
        pair cards, one for each resplit still allowed."""
        out: list[Composition] = []
        # Every shoe blackjack.splits asks for: up to largest_removal() more pair cards out.
        resplits = pair != 1 or self.rules.resplit_aces
        extra = largest_removal(splits + 1 if resplits else 2) if splits > 0 else 0
        for k in range(max(extra, 0)):
            if comp[pair - 1] < k:
                break
            out.append((*comp[: pair - 1], comp[pair - 1] - k, *comp[pair:]))
        return out

    def _solve(self, families: Sequence[tuple[Composition, int, bool]], *, memos: int) -> None:
        """Value every hand that can grow from each family ``(shoe, hard, ace)`` by drawing
        cards, in bulk (the kernel, or numpy one step per hard total from 21 down) instead of
        one Python call per hand.  The first ``memos`` families fill the :meth:`play` memos (the
        kernel keeps those values itself: :meth:`_play_code` asks it); each other family is a
        split hand's shoe (``hard`` the pair card) and fills the :meth:`split_hand` memo of
        every second card (hit, stand or double), so that Python walks none of its hands.  Only
        saves time; :meth:`_play_code` and :meth:`split_hand` compute the same values (up to
        the order of the sums).  The caller makes sure the shoes are large enough that no hand
        here empties them, and has filled the dealer vectors."""
        if self._hands is not None:
            assert isinstance(self.dealer, KernelDealerCache)
            kernel, peek, bj = self.dealer.kernel, self.peek, self.bj_index
            for f, second, shoe, hit, stand, double in self._hands.solve(
                kernel, families, memos, peek, bj
            ):
                self._keep_split_hand(families[f][1], second, shoe, hit, stand, double)
            return
        from blackjack.maths.batch import DealerCache, solve_hands

        assert isinstance(self.dealer, DealerCache)
        kept, solved = solve_hands(self.dealer, families, memos, self.peek, self.bj_index)
        for key, codes, values in kept:
            self._play[key].update(zip(codes, values, strict=True))
        for f, second, shoe, hit, stand, double in solved:
            self._keep_split_hand(families[f][1], second, shoe, hit, stand, double)

    def _keep_split_hand(
        self, pair: int, second: int, shoe: int, hit: float, stand: float, double: float
    ) -> None:
        """The :meth:`split_hand` memo of [pair, second] on the shoe ``shoe`` from the values
        :meth:`_solve` found: the best legal move after a split."""
        legal = self._legal_after_split(pair, second)
        hand_ev = hit if Move.HIT in legal else stand
        if Move.DOUBLE in legal:
            hand_ev = max(hand_ev, double)
        if Move.SURRENDER in legal:
            hand_ev = max(hand_ev, self.surrender(decode(shoe)))
        self._split_hand[(shoe, pair, second)] = hand_ev

    def _legal_after_split(self, pair: int, second: int) -> frozenset[Move]:
        """The moves of a split hand [pair, second] (not split again here)."""
        legal = self._split_legal.get((pair, second))
        if legal is None:
            cards = (pair, second)
            rules = self.rules
            legal = legal_moves(rules, cards, self.up, split_hands=rules.max_hands, from_split=True)
            legal = self._split_legal[cards] = legal - {Move.SPLIT}
        return legal

    # --- the dealer --------------------------------------------------------------------

    def p_blackjack(self, comp: Composition) -> float:
        """Unconditioned chance that the hole card completes a dealer blackjack."""
        return comp[self.bj_index] / sum(comp) if self.bj_index >= 0 else 0.0

    def _p_blackjack(self, code: int, n: int) -> float:
        if self.bj_index < 0:
            return 0.0
        return ((code >> self._bj_shift) & self._bj_mask) / n

    def mass(self, comp: Composition) -> float:
        """P(no dealer blackjack) under a peek, else 1: the mass of every payoff."""
        return 1.0 - self.p_blackjack(comp) if self.peek else 1.0

    def _mass(self, code: int, n: int) -> float:
        return 1.0 - self._p_blackjack(code, n) if self.peek else 1.0

    def stand_row(self, comp: Composition) -> tuple[float, ...]:
        """Mass EV of standing on ≤16, 17, …, 21."""
        return self._stand_row(encode(comp))

    def _stand_row(self, code: int) -> tuple[float, ...]:
        return self._rows.get(code) or self.dealer.stand_row(code, peek=self.peek)

    def blackjack_value(self, comp: Composition) -> float:
        """Mass EV of a player blackjack: paid unless the dealer has one too (a push)."""
        return float(self.rules.blackjack_pays) * (1.0 - self.p_blackjack(comp))

    def stand(self, comp: Composition, total: int) -> float:
        return self._stand_row(encode(comp))[max(total - 16, 0)]

    # --- hit, stand, double ------------------------------------------------------------

    def play(self, comp: Composition, hard: int, ace: bool) -> float:
        """Mass EV of a hand that may hit or stand, played best (or by the chart)."""
        return self._play_code(encode(comp), sum(comp), hard, ace)

    def _play_code(self, code: int, n: int, hard: int, ace: bool) -> float:
        if hard > 21:
            return -self._mass(code, n)
        memo = self._play[2 * hard + ace]
        value = memo.get(code)
        if value is None and self._hands is not None:
            value = self._hands.get(code, 2 * hard + ace)
            if value is not None:
                memo[code] = value
        if value is None:
            total = hard + 10 if ace and hard <= 11 else hard
            row = self._rows.get(code) or self.dealer.stand_row(code, peek=self.peek)
            value = row[max(total - 16, 0)]
            if total < 21 and n > 0:
                if self.chart is None:
                    value = max(value, self._hit(code, n, hard, ace))
                else:
                    soft = total != hard
                    move = self.chart.move_for_total(total, soft, self.up, _HIT_STAND)
                    if move == Move.HIT:
                        value = self._hit(code, n, hard, ace)
            memo[code] = value
        return value

    def _children(self, code: int, n: int, limit: int) -> list[tuple[int, int, int]]:
        """(rank index, its count, code less that card) for the cards of the shoe ``code``
        of ``n`` cards worth up to ``limit`` points, their dealer vectors computed."""
        out = []
        for i, shift, mask, unit in _RANKS[max(min(limit, 10), 0)]:
            count = (code >> shift) & mask
            if count:
                out.append((i, count, code - unit))
        self.dealer.ensure(code, n, out)
        return out

    def _bust_mass(self, code: int, n: int, room: int, busting: int) -> float:
        """Sum over the ``busting`` cards worth more than ``room`` points of count × mass
        after drawing it: what busting costs, without building the shoes it leaves."""
        if not busting or not self.peek:
            return float(busting)
        b = (code >> self._bj_shift) & self._bj_mask
        # Drawing the blackjack card itself leaves one fewer for the hole.
        own = b if self.bj_index >= room else 0
        return (busting * (n - 1 - b) + own) / (n - 1)

    def hit(self, comp: Composition, hard: int, ace: bool) -> float:
        return self._hit(encode(comp), sum(comp), hard, ace)

    def _hit(self, code: int, n: int, hard: int, ace: bool) -> float:
        room = 21 - hard
        total = 0.0
        play = self._play_code
        drawn = 0
        for i, count, child in self._children(code, n, room):
            total += count * play(child, n - 1, hard + i + 1, ace or i == 0)
            drawn += count
        if room < 10:
            total -= self._bust_mass(code, n, room, n - drawn)
        return total / n

    def double(self, comp: Composition, hard: int, ace: bool) -> float:
        return self._double(encode(comp), sum(comp), hard, ace)

    def _double(self, code: int, n: int, hard: int, ace: bool) -> float:
        room = 21 - hard
        total = 0.0
        drawn = 0
        for i, count, after in self._children(code, n, room):
            h = hard + i + 1
            t = h + 10 if (ace or i == 0) and h <= 11 else h
            total += count * self._stand_row(after)[max(t - 16, 0)]
            drawn += count
        if room < 10:
            total -= self._bust_mass(code, n, room, n - drawn)
        return 2.0 * total / n

    def surrender(self, comp: Composition) -> float:
        if self.peek:
            return -0.5 * self.mass(comp)
        pbj = self.p_blackjack(comp)
        return -0.5 * (1.0 - pbj) - pbj

    # --- two-card decisions and splits -------------------------------------------------

    def options(
        self,
        comp: Composition,
        cards: Sequence[int],
        legal: frozenset[Move],
        *,
        split_hands: int = 1,
        from_split: bool = False,
    ) -> dict[Move, float]:
        """Mass EV of each legal move of a hand whose cards are already out of ``comp``."""
        hard = sum(cards)
        ace = 1 in cards
        total = hard + 10 if ace and hard <= 11 else hard
        code, n = encode(comp), sum(comp)
        out: dict[Move, float] = {}
        for move in MOVE_ORDER:
            if move not in legal:
                continue
            if move == Move.STAND:
                bj = is_blackjack(cards, from_split=from_split) and split_hands == 1
                out[move] = self.blackjack_value(comp) if bj else self.stand(comp, total)
            elif move == Move.HIT:
                out[move] = self._hit(code, n, hard, ace)
            elif move == Move.DOUBLE:
                out[move] = self._double(code, n, hard, ace)
            elif move == Move.SURRENDER:
                out[move] = self.surrender(comp)
            else:
                out[move] = self.split(comp, cards[0], split_hands + 1)
        return out

    def value(
        self,
        comp: Composition,
        cards: Sequence[int],
        legal: frozenset[Move],
        *,
        split_hands: int = 1,
        from_split: bool = False,
    ) -> float:
        """Mass EV of the move played: the best, or the chart's (computing only that one)."""
        if self.chart is not None:
            move = self.chart.move_for(cards, self.up, legal)
            legal = frozenset({move})
        values = self.options(comp, cards, legal, split_hands=split_hands, from_split=from_split)
        return max(values.values())

    def split_hand(self, comp: Composition, pair: int, second: int) -> float:
        """Mass EV of one split hand ``[pair, second]``, played best for its own cards; it is
        not split again here (resplits are counted in :meth:`split`)."""
        key = (encode(comp), pair, second)
        value = self._split_hand.get(key)
        if value is None:
            cards = (pair, second)
            value = self.value(comp, cards, self._legal_after_split(pair, second), from_split=True)
            self._split_hand[key] = value
        return value

    def split(self, comp: Composition, pair: int, hands: int, *, forced: bool = False) -> float:
        """Mass EV of splitting a pair into ``hands`` hands (the box's count after the split),
        summed over every hand that results; ``comp`` excludes both pair cards.  Resplits are
        decided (``forced``: every pair card resplit, for comparison); see
        :mod:`blackjack.splits` for the model."""
        key = (encode(comp), pair, hands, forced)
        value = self._split.get(key)
        if value is None:
            value = self._split[key] = split_value(self, comp, pair, hands, forced=forced)
        return value


# Shoes at least this large: no hand :meth:`Engine._solve` grows empties them.
_SOLVE_MIN_CARDS = 30

# (rank index, shift, mask, unit) of the ranks worth up to each number of points.
_RANKS: tuple[tuple[tuple[int, int, int, int], ...], ...] = tuple(
    tuple((i, SHIFTS[i], MASKS[i], UNITS[i]) for i in range(limit)) for limit in range(11)
)
_HIT_STAND = frozenset({Move.HIT, Move.STAND})
_ENGINES: OrderedDict[tuple[Rules, int, int], Engine] = OrderedDict()
# The app's request threads and its background chart job share the engines: without the lock
# one thread's eviction or clear_caches() between another's lookup and move_to_end() raised
# KeyError.  Only the bookkeeping is locked; the engines compute outside it.
_ENGINES_LOCK = threading.Lock()


def engine_for(rules: Rules, up: int, chart: HandChart | None = None) -> Engine:
    """A shared engine per rule set, up card and chart, the most recent few kept."""
    key = (rules, up, id(chart))
    with _ENGINES_LOCK:
        eng = _ENGINES.get(key)
        if eng is None or eng.chart is not chart:
            eng = _ENGINES[key] = Engine(rules, up, chart)
            while len(_ENGINES) > 48:
                _ENGINES.popitem(last=False)
        else:
            _ENGINES.move_to_end(key)
        return eng


def clear_caches() -> None:
    """Forget every memoized EV and dealer vector (to free memory, or to time a cold start)."""
    with _ENGINES_LOCK:
        _ENGINES.clear()
        clear_dealers()
