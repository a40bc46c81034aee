"""What counting is worth at a table: a Monte Carlo of one player through the shoe.

**The table.**  One box, dealt alone (no seat-mates: the cards per round, and so the rounds
per shoe, are one player's), under ``rules``: a shuffled shoe of ``rules.decks`` decks dealt
until fewer than ``rules.reshuffle_point`` cards remain before a round (78 of 312 for the
house rules: 75 % penetration), then a new shuffle.  The round is the engine's
(:mod:`blackjack.round`): the same deal order (player, up card, player, hole card), peek,
insurance and even money, split hands taking their second card in turn, split aces, the
dealer drawing only when a hand needs the total, late surrender and the no-hole-card game.
A test plays random shoes through both and compares every round's result.

**The players.**

* *Flat*: one unit every round, the basic-strategy chart (``chart.move_for``: the Normal
  AI's moves), insurance and even money declined.
* *Counter*: the same chart, departing from it by the index table (``IndexTable``, the
  computed Hi-Lo indices of ``rules``) when the true count says so, insurance and even money
  taken at the insurance index; the bet by :class:`Ramp` at the round's true count.

**The count.**  The counter sees every card as it is dealt (the hole card when the dealer
turns it) and reads the true count of :mod:`blackjack.counting.systems`: the running count
over the decks of *unseen* cards (the hole card is unseen until turned) to the nearest half
deck, floored.  An index play is taken where the chart's move for the hand and its legal
moves is the play's basic move and the index move is legal (so 16 against a ten stands at
its index whether it holds two cards or more; a double's index needs two cards); a pair
whose chart move is not the split takes its total's row's indices.

**What is reported.**  The return per round in units (the flat bet is one unit), the
return as a fraction of the initial amount bet (doubles and splits are part of the result,
not of the amount: the usual convention), each with its standard error.  Rounds within one
shoe are not independent (a rich shoe stays rich), so the error is taken over shoes: a shoe
is the independent unit, and the ratio's variance is the usual delta-method one,
``S/(S−1) · Σ(X_s − r·B_s)² / (ΣB)²``.  The run is deterministic for a given ``Random``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from random import Random
from typing import Any

from blackjack.counting.indices import IndexTable
from blackjack.counting.systems import DECK, CountSystem
from blackjack.maths import Chart
from blackjack.moves import Move
from blackjack.rules import DoubleOn, PairsBy, Rules, Surrender

# Move codes and the bits of a legal-move mask, in the engine's MOVE_ORDER.
STAND, HIT, DOUBLE, SPLIT, SURRENDER = 0, 1, 2, 3, 4
MOVES: tuple[Move, ...] = (Move.STAND, Move.HIT, Move.DOUBLE, Move.SPLIT, Move.SURRENDER)
CODE: dict[Move, int] = {m: i for i, m in enumerate(MOVES)}
# Cards are ranks 1-13 (ace, 2-10, jack, queen, king): pairs by rank need the rank.
POINTS: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
# The playing totals a two-card hand may double on.
DOUBLE_TOTALS: dict[DoubleOn, frozenset[int]] = {
    DoubleOn.ANY_TWO: frozenset(range(4, 21)),
    DoubleOn.NINE_TO_ELEVEN: frozenset((9, 10, 11)),
    DoubleOn.TEN_TO_ELEVEN: frozenset((10, 11)),
}
# Cells are numbered: kind * 1000 + row * 16 + up.
HARD_CELL, SOFT_CELL, PAIR_CELL = 0, 1000, 2000
KIND_CELL = {"hard": HARD_CELL, "soft": SOFT_CELL, "pair": PAIR_CELL}

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Ramp:
    """The bet by true count: ``low`` units at a true count of ``start`` or less, then
    ``step`` units per point of true count above it, at most ``high`` units.  The default is
    the usual 1–8 ramp: 1 unit at TC ≤ +1, 2 at +2, 4 at +3, 6 at +4, 8 from +5 up.

    >>> [Ramp().units(tc) for tc in (-3, 1, 2, 3, 4, 5, 12)]
    [1, 1, 2, 4, 6, 8, 8]
    """

    low: int = 1
    high: int = 8
    start: int = 1
    step: int = 2

    def units(self, tc: int) -> int:
        if tc <= self.start:
            return self.low
        return min(self.high, max(self.low, self.step * (tc - self.start)))

    def to_dict(self) -> dict[str, int]:
        return {"low": self.low, "high": self.high, "start": self.start, "step": self.step}


FLAT = Ramp(1, 1, 0, 0)


@dataclass(frozen=True)
class Tally:
    """One player's result: sums over rounds and shoes (see the module's docstring)."""

    rounds: int
    shoes: int
    won: float  # net units won (negative: lost)
    bet: float  # initial units bet
    squares: float  # sum over rounds of the net squared
    # Sums over shoes for the standard errors: X net, B bet, N rounds of each shoe.
    xx: float
    xb: float
    bb: float
    xn: float
    nn: float
    cards: int  # cards dealt

    @property
    def per_round(self) -> float:
        """Expected return per round, in units."""
        return self.won / self.rounds

    @property
    def per_round_sigma(self) -> float:
        m = self.per_round
        return self._sigma(m, self.xn, self.nn, self.rounds)

    @property
    def of_bet(self) -> float:
        """Expected return as a fraction of the initial amount bet."""
        return self.won / self.bet

    @property
    def of_bet_sigma(self) -> float:
        r = self.of_bet
        return self._sigma(r, self.xb, self.bb, self.bet)

    @property
    def average_bet(self) -> float:
        return self.bet / self.rounds

    @property
    def sd_round(self) -> float:
        """The standard deviation of one round's result, in units."""
        m = self.per_round
        return math.sqrt(max(self.squares / self.rounds - m * m, 0.0))

    def _sigma(self, r: float, cross: float, square: float, total: float) -> float:
        s = self.shoes
        if s < 2:
            return math.inf
        resid = self.xx - 2 * r * cross + r * r * square
        return math.sqrt(max(resid, 0.0) * s / (s - 1)) / total

    def to_dict(self) -> dict[str, Any]:
        return {
            "rounds": self.rounds, "shoes": self.shoes, "won": self.won, "bet": self.bet,
            "squares": self.squares, "xx": self.xx, "xb": self.xb, "bb": self.bb,
            "xn": self.xn, "nn": self.nn, "cards": self.cards,
        }  # fmt: skip

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Tally:
        return cls(
            int(data["rounds"]), int(data["shoes"]), float(data["won"]), float(data["bet"]),
            float(data["squares"]), float(data["xx"]), float(data["xb"]), float(data["bb"]),
            float(data["xn"]), float(data["nn"]), int(data["cards"]),
        )  # fmt: skip


class Table:
    """One box at ``rules``, dealt from a shoe shuffled by ``rng``; :meth:`run` plays rounds.

    ``chart``: the rules' basic-strategy chart; ``indices``: the counter's index table (its
    system is the count), ``None`` for a player who does not count; ``ramp``: the bet."""

    def __init__(
        self,
        rules: Rules,
        chart: Chart,
        rng: Random,
        *,
        indices: IndexTable | None = None,
        ramp: Ramp = FLAT,
    ) -> None:
        if indices is not None and not indices.system.balanced:
            raise ValueError("the simulation counts with a balanced system")
        if indices is not None and indices.rules != rules:
            raise ValueError("the index table is another rule set's")
        self.rules = rules
        self.chart = chart
        self.rng = rng
        self.ramp = ramp
        self.counting = indices is not None
        self.system: CountSystem | None = indices.system if indices is not None else None
        self.full = [r for r in range(1, 14) for _ in range(4 * rules.decks)]
        self.end = len(self.full)
        self.cards: list[int] = []
        self.pos = self.end  # no shoe yet: the first round shuffles
        tags = self.system.tags if self.system is not None else (0,) * 10
        self.tag = tuple([0] + [tags[POINTS[r] - 1] for r in range(1, 14)])
        # Half decks of the unseen cards (nearest half deck, a quarter up, at least one).
        self.halves = [max((2 * n + DECK // 2) // DECK, 1) for n in range(self.end + 2)]
        self.picks: dict[tuple[int, int], int] = {}
        self.plays: dict[int, tuple[tuple[int, int, int, bool], ...]] = {}
        self.insure_at: int | None = None  # the insurance index (taken at TC ≥ it)
        if indices is not None:
            self._index(indices)
        self.running = 0
        # The rules' answers the round asks every time, looked up once.
        self.peeks = tuple(up > 0 and rules.peeks_under(up) for up in range(11))
        self.pays = float(rules.blackjack_pays)

    def _index(self, table: IndexTable) -> None:
        found: dict[int, list[tuple[int, int, int, bool]]] = {}
        for p in table.plays:
            if p.kind == "insurance":
                if p.move == Move.INSURE and p.above:
                    self.insure_at = p.index
                continue
            cell = KIND_CELL[p.kind] + p.row * 16 + p.up
            found.setdefault(cell, []).append((CODE[p.basic], CODE[p.move], p.index, p.above))
        self.plays = {cell: tuple(plays) for cell, plays in found.items()}

    # --- the chart's move, once per cell and legal set --------------------------------

    def _pick(self, cell: int, legal: int) -> int:
        kind, rest = divmod(cell, 1000)
        row, up = divmod(rest, 16)
        moves = frozenset(m for i, m in enumerate(MOVES) if legal >> i & 1)
        if kind == 2:
            move = self.chart.move_for([row, row], up, moves)
        else:
            move = self.chart.move_for_total(row, kind == 1, up, moves)
        code = CODE[move]
        self.picks[(cell, legal)] = code
        return code

    # --- the shoe ---------------------------------------------------------------------

    def _shuffle(self) -> None:
        # A uniform shuffle by sorting on random keys: Random.shuffle draws each index in
        # Python and took two thirds of the run's time.
        draw = self.rng.random
        keys = [draw() for _ in self.full]
        self.cards = [card for _key, card in sorted(zip(keys, self.full, strict=True))]
        self.end = len(self.cards)
        self.pos = 0
        self.running = 0

    # --- one round --------------------------------------------------------------------

    def round(self, bet: int) -> float:
        """Play one round of ``bet`` units from the current shoe position; the net result in
        units.  The caller reshuffles (see :meth:`run`)."""
        rules = self.rules
        cards, pos, tag, P = self.cards, self.pos, self.tag, POINTS
        counting = self.counting
        run = self.running
        c1, upc, c2, hole = cards[pos], cards[pos + 1], cards[pos + 2], cards[pos + 3]
        pos += 4
        run += tag[c1] + tag[upc] + tag[c2]
        up, a, b, hp = P[upc], P[c1], P[c2], P[hole]
        natural = a + b == 11 and (a == 1 or b == 1)
        dealer_bj = up + hp == 11 and (up == 1 or hp == 1)
        net = 0.0
        insured = 0.0
        halves, end = self.halves, self.end
        if up == 1 and rules.insurance:
            take = False
            if counting and self.insure_at is not None:
                take = (2 * run) // halves[end - pos + 1] >= self.insure_at
            if take and natural:  # even money: one to one at once
                self.running = run + tag[hole]
                self.pos = pos
                return float(bet)
            if take:
                insured = 0.5 * bet
        peeked = self.peeks[up]
        if peeked:
            if dealer_bj:
                self.running = run + tag[hole]
                self.pos = pos
                return 2 * insured + (0.0 if natural else -float(bet))
            net -= insured
            insured = 0.0
        if natural:
            self.running = run + tag[hole]
            self.pos = pos
            if dealer_bj:  # not peeked: a push
                return net + (2 * insured if insured else 0.0)
            return net - insured + bet * self.pays

        # The player's hands: [hard, ace, cards, first card, second card, stake, from split,
        # split aces, state (0 open, 1 stood, 2 bust, 3 surrendered)].
        hands: list[list[Any]] = [[a + b, a == 1 or b == 1, 2, c1, c2, bet, False, False, 0]]
        by_rank = rules.pairs_by is PairsBy.RANK
        max_hands = rules.max_hands
        das, dsoft = rules.double_after_split, rules.double_soft
        double_totals = DOUBLE_TOTALS[rules.double_on]
        hit_aces, resplit_aces = rules.hit_split_aces, rules.resplit_aces
        surrender = rules.surrender is not Surrender.NONE
        surrender_here = surrender and (up != 1 or rules.surrender_vs_ace)
        picks, plays, pick = self.picks, self.plays, self._pick
        i = 0
        while i < len(hands):
            h = hands[i]
            if h[2] == 1:  # a split hand takes its second card now
                c = cards[pos]
                pos += 1
                run += tag[c]
                p = P[c]
                h[0] += p
                h[1] = h[1] or p == 1
                h[2] = 2
                h[4] = c
            while True:
                hard, ace, n = h[0], h[1], h[2]
                soft = ace and hard <= 11
                total = hard + 10 if soft else hard
                if total >= 21:
                    if hard > 21:
                        h[8] = 2
                    else:
                        h[8] = 1
                    break
                # The legal moves (blackjack.round.legal.hand_verdicts, written out).
                if n != 2:
                    legal = 0b11
                    pair = False
                else:
                    from_split, split_aces = h[6], h[7]
                    locked = split_aces and not hit_aces
                    legal = 0b1 if locked else 0b11
                    if (
                        total in double_totals
                        and not (from_split and not das)
                        and not locked
                        and (dsoft or not soft)
                    ):
                        legal |= 0b100
                    x, y = h[3], h[4]
                    pair = x == y if by_rank else P[x] == P[y]
                    if pair and len(hands) < max_hands and not (split_aces and not resplit_aces):
                        legal |= 0b1000
                    if surrender_here and len(hands) == 1 and not from_split:
                        legal |= 0b10000
                    if legal == 0b1:
                        h[8] = 1
                        break
                    pair = P[x] == P[y]  # the chart's cell: a pair of equal points
                if pair:
                    cell = PAIR_CELL + P[h[3]] * 16 + up
                elif soft:
                    cell = SOFT_CELL + max(total, 13) * 16 + up
                else:
                    cell = HARD_CELL + max(hard, 5) * 16 + up
                move = picks.get((cell, legal))
                if move is None:
                    move = pick(cell, legal)
                if counting:
                    found = plays.get(cell, ())
                    if pair:
                        row = SOFT_CELL + max(total, 13) * 16 if soft else HARD_CELL + hard * 16
                        found = found + plays.get(row + up, ())
                    if found:
                        tc = (2 * run) // halves[end - pos + 1]
                        for basic, other, index, above in found:
                            if basic == move and legal >> other & 1 and (tc >= index) == above:
                                move = other
                                break
                if move == STAND:
                    h[8] = 1
                    break
                if move in (HIT, DOUBLE):
                    c = cards[pos]
                    pos += 1
                    run += tag[c]
                    p = P[c]
                    h[0] += p
                    h[1] = ace or p == 1
                    h[2] = n + 1
                    if move == DOUBLE:
                        h[5] *= 2
                        h[8] = 2 if h[0] > 21 else 1
                        break
                    continue
                if move == SPLIT:
                    x, y = h[3], h[4]
                    aces = P[x] == 1
                    hands.insert(i + 1, [P[y], aces, 1, y, 0, bet, True, aces, 0])
                    h[:] = [P[x], aces, 1, x, 0, bet, True, aces, 0]
                    c = cards[pos]
                    pos += 1
                    run += tag[c]
                    p = P[c]
                    h[0] += p
                    h[1] = aces or p == 1
                    h[2] = 2
                    h[4] = c
                    continue
                h[8] = 3  # surrender
                break
            i += 1

        # The dealer turns the hole card, and draws only when a hand needs the total.
        run += tag[hole]
        dealer = up + hp
        dace = up == 1 or hp == 1
        if any(h[8] == 1 for h in hands):
            h17 = rules.dealer_hits_soft_17
            while True:
                soft = dace and dealer <= 11
                total = dealer + 10 if soft else dealer
                if total > 17 or (total == 17 and not (soft and h17)):
                    break
                c = cards[pos]
                pos += 1
                run += tag[c]
                dealer += P[c]
                dace = dace or P[c] == 1
        soft = dace and dealer <= 11
        dealer_total = dealer + 10 if soft else dealer
        for h in hands:
            stake, state = h[5], h[8]
            if state == 3:
                net -= stake if dealer_bj else 0.5 * stake
            elif state == 2 or dealer_bj:
                net -= stake
            else:
                total = h[0] + 10 if h[1] and h[0] <= 11 else h[0]
                if dealer_total > 21 or total > dealer_total:
                    net += stake
                elif total < dealer_total:
                    net -= stake
        if insured:  # not peeked: insurance settles with the hands
            net += 2 * insured if dealer_bj else -insured
        self.running = run
        self.pos = pos
        return net

    # --- many rounds ------------------------------------------------------------------

    def true_count(self) -> int:
        """The true count before a round (every card of the shoe so far seen)."""
        return (2 * self.running) // self.halves[self.end - self.pos]

    def run(self, rounds: int, progress: Progress | None = None, every: int = 100_000) -> Tally:
        """Play ``rounds`` rounds; ``progress(done, rounds)`` every ``every`` rounds."""
        reshuffle = self.rules.reshuffle_point
        ramp, counting = self.ramp, self.counting
        won = bet_sum = squares = 0.0
        xx = xb = bb = xn = nn = 0.0
        x = b = 0.0
        k = shoes = cards = 0
        start = self.pos
        for done in range(1, rounds + 1):
            left = self.end - self.pos
            if left < reshuffle:
                if k:
                    xx += x * x
                    xb += x * b
                    bb += b * b
                    xn += x * k
                    nn += k * k
                    shoes += 1
                cards += self.pos - start
                x = b = 0.0
                k = 0
                self._shuffle()
                start = 0
            bet = ramp.units(self.true_count()) if counting else ramp.low
            try:
                net = self.round(bet)
            except IndexError:
                # The shoe ran out mid-round (a reshuffle point of a few cards): the engine
                # refills it with the discards, shuffled; the round, which changed nothing
                # yet, is played again with them behind the shoe.
                extra = self.cards[: self.pos]
                self.rng.shuffle(extra)
                self.cards = self.cards[: self.end] + extra
                net = self.round(bet)
            if self.pos > self.end:
                self.pos = self.end  # the shoe ran out: shuffle before the next round
            won += net
            squares += net * net
            bet_sum += bet
            x += net
            b += bet
            k += 1
            if progress is not None and done % every == 0:
                progress(done, rounds)
        if k:
            xx += x * x
            xb += x * b
            bb += b * b
            xn += x * k
            nn += k * k
            shoes += 1
        cards += self.pos - start
        return Tally(rounds, shoes, won, bet_sum, squares, xx, xb, bb, xn, nn, cards)


def simulate(
    rules: Rules,
    chart: Chart,
    rng: Random,
    rounds: int,
    *,
    indices: IndexTable | None = None,
    ramp: Ramp = FLAT,
    progress: Progress | None = None,
) -> Tally:
    """``rounds`` rounds of one player (see the module's docstring), from a shoe shuffled by
    ``rng``: the flat player without ``indices``, the counter with them and a ``ramp``."""
    if rounds < 1:
        raise ValueError("simulate at least one round")
    return Table(rules, chart, rng, indices=indices, ramp=ramp).run(rounds, progress)


FORMAT_VERSION = 1


def study(
    rules: Rules,
    chart: Chart,
    indices: IndexTable,
    *,
    rounds: int,
    seed: int,
    ramp: Ramp | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """The flat player and the counter, ``rounds`` rounds each, from ``Random(seed)`` (the
    flat player first): the document the articles' figures are read from (plain data; the
    timing is the one thing in it that differs between two runs)."""
    ramp = ramp if ramp is not None else Ramp()
    rng = Random(seed)
    every = max(1, min(100_000, rounds // 20))

    def step(offset: int) -> Progress:
        def report(done: int, _total: int) -> None:
            if progress is not None:
                progress(offset + done, 2 * rounds)

        return report

    started = time.perf_counter()
    flat = Table(rules, chart, rng).run(rounds, step(0), every)
    counter = Table(rules, chart, rng, indices=indices, ramp=ramp).run(rounds, step(rounds), every)
    seconds = time.perf_counter() - started
    return {
        "version": FORMAT_VERSION,
        "rules": rules.to_dict(),
        "system": indices.system.key,
        "seed": seed,
        "rounds": rounds,
        "ramp": ramp.to_dict(),
        "flat": flat.to_dict(),
        "counter": counter.to_dict(),
        "seconds": seconds,
        "rounds_per_second": 2 * rounds / seconds if seconds > 0 else 0.0,
    }
