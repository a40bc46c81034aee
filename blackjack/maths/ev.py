"""Exact expected values of every option of a player hand against an up card.

Everything works on compositions (see :mod:`blackjack.cards`) and point values (ace = 1).  The
shoe a decision is taken from is the full shoe of ``rules.decks`` less the up card, the hand and
every other card seen.

**Conditioning.**  When the dealer peeks under the up card, the player decides knowing the
dealer has no blackjack.  Rather than condition each distribution, the engine computes the
*mass* ``E[payoff · 1{no dealer blackjack}]``: since every unseen card is exchangeable, the hole
card can be treated as drawn after the player's cards, so the player's draws keep their plain
probabilities and only the dealer vector loses its blackjack entry.  Dividing by
``P(no blackjack)`` of the decision's shoe gives the conditioned EV; the best move is the same
under both, because one positive factor scales every option.  Where the dealer does not peek
(the no-hole-card game, or a ten up under ace-only peek) a dealer blackjack is an outcome like
the others: it beats every hand that is not a blackjack and takes doubles and splits.

**Play.**  Hitting, standing and doubling are played optimally for the exact cards
(composition-dependent), or by a chart when one is given (:mod:`blackjack.strategy`).

**Splits.**  Each split hand is played by the strategy that is best for its own cards, knowing
the pair cards removed but not the other hands' cards.  Without resplitting this is exact: by
exchangeability each hand's expectation is that of the first hand.  With resplits, the number of
hands follows the pair cards drawn as second cards; a hand that receives its second card after
``k`` resplits is valued on the shoe less ``k`` more pair cards, and the other hands' non-pair
cards are not removed.  This is the usual approximation of exact analyzers: the house edges
it gives lie within 3·10⁻⁶ of Wizard of Odds' appendix 9 (whose splits are approximate too;
exact analyzers land within 10⁻⁵ of them).  Under rank pairing a pair of ten-value cards
resplits on any ten-value card (the composition does not tell the ranks).

**Small shoes.**  A line of play that needs more cards than the shoe holds has probability 0;
in the few-card shoes where the dealer could run out, that lost mass counts as a push.

**Surrender** returns half the bet.  Where the dealer has not peeked under the up card, a dealer
blackjack found later takes the whole bet of a surrendered hand, as it takes doubles (our
reading of "late" surrender: it is decided after a peek when there is one).

>>> a = analyze(Rules(), [10, 6], 10)
>>> a.best, round(a.ev[Move.STAND], 4), round(a.ev[Move.HIT], 4)
(<Move.HIT: 'hit'>, -0.541, -0.5347)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from blackjack.cards import Composition, full_composition, remove_cards
from blackjack.hand import is_pair, is_points_blackjack
from blackjack.maths.backend import dealer_probabilities
from blackjack.maths.dealer import DealerOutcome
from blackjack.maths.engine import HandChart, engine_for
from blackjack.moves import MOVE_ORDER, Move
from blackjack.round.legal import legal_moves_for_points
from blackjack.rules import Rules


@dataclass(frozen=True)
class Analysis:
    """Every option of one hand against one up card.

    ``ev`` holds the legal options, each per unit of the initial bet (a won double is +2),
    conditioned on no dealer blackjack when the dealer has peeked (``conditioned``).
    ``insurance`` is what taking insurance (or, holding a blackjack, even money) *adds* to the
    hand's EV per unit of the initial bet, seen before the peek; ``None`` when not offered.
    ``dealer`` is the dealer's distribution, conditioned like the EVs.
    """

    hand: tuple[int, ...]
    up: int
    ev: dict[Move, float]
    best: Move
    insurance: float | None
    dealer: DealerOutcome
    conditioned: bool
    p_dealer_blackjack: float  # before the peek, from the decision's shoe

    def to_dict(self) -> dict[str, object]:
        return {
            "hand": list(self.hand),
            "up": self.up,
            "ev": {str(m): v for m, v in self.ev.items()},
            "best": str(self.best),
            "insurance": self.insurance,
            "conditioned": self.conditioned,
            "dealer": self.dealer.to_dict(),
        }


def insurance_return(comp: Composition) -> float:
    """Expected return of an insurance bet per unit of that bet, the up card an ace and
    ``comp`` the unseen cards: it pays 2:1 when the hole card is a ten.

    >>> from blackjack.cards import full_composition, remove_cards
    >>> round(insurance_return(remove_cards(full_composition(6), [1])) * 311, 9)
    -23.0
    """
    return 3.0 * comp[9] / sum(comp) - 1.0


def insurance_gain(
    rules: Rules, hand: Sequence[int], comp: Composition, *, p_blackjack: float | None = None
) -> float:
    """What taking insurance (or, holding a blackjack, even money) adds to the hand's EV per
    unit of the initial bet, the up card an ace and ``comp`` the unseen cards: the one
    insurance formula.  Insurance stakes half the bet; even money takes 1:1 for a blackjack
    that would pay ``rules.blackjack_pays`` unless the dealer has one too.  ``p_blackjack``:
    the dealer's chance of a blackjack when the caller has it (else the share of tens).

    >>> from blackjack.cards import full_composition, remove_cards
    >>> comp = remove_cards(full_composition(6), [1, 10, 6])
    >>> round(insurance_gain(Rules(), [10, 6], comp), 4), round(insurance_gain(Rules(), [1, 10],
    ...     remove_cards(full_composition(6), [1, 1, 10])), 4)
    (-0.0388, -0.0388)
    """
    if is_points_blackjack(hand):
        p = comp[9] / sum(comp) if p_blackjack is None else p_blackjack
        return 1.0 - float(rules.blackjack_pays) * (1.0 - p)
    return 0.5 * insurance_return(comp)


def insurance_options(rules: Rules, hand: Sequence[int]) -> dict[Move, float]:
    """The insurance (or, holding a blackjack, even-money) decision of ``hand`` against an
    ace, before the peek: INSURE is what taking it adds (:func:`insurance_gain`), DECLINE 0.

    >>> {m.value: round(v, 4) for m, v in insurance_options(Rules(), [10, 6]).items()}
    {'insure': -0.0388, 'decline': 0.0}
    """
    comp = decision_shoe(rules, hand, 1)
    return {Move.INSURE: insurance_gain(rules, hand, comp), Move.DECLINE: 0.0}


# The insurance question ranks too; on a tie declining is taken (nothing more at stake).
_TIE_ORDER = (*MOVE_ORDER, Move.DECLINE, Move.INSURE)


def rank_by_ev(ev: Mapping[Move, float]) -> tuple[Move, ...]:
    """The moves of ``ev`` best first: the one EV tie rule, of two equal EVs the move earlier
    in :data:`~blackjack.moves.MOVE_ORDER` first (then DECLINE before INSURE).

    >>> rank_by_ev({Move.HIT: 0.1, Move.DOUBLE: 0.1, Move.STAND: -0.2})
    (<Move.HIT: 'hit'>, <Move.DOUBLE: 'double'>, <Move.STAND: 'stand'>)
    """
    moves = [m for m in _TIE_ORDER if m in ev]
    return tuple(sorted(moves, key=lambda m: (-ev[m], _TIE_ORDER.index(m))))


# Two EVs closer than this are the same decision: a choice within it of the best is correct
# (float sums of the same probabilities in another order differ in the last bits).
EV_TIE = 1e-9


def is_best_choice(ev: Mapping[Move, float], move: Move) -> bool:
    """Whether ``move`` is as good as the best move of ``ev``, within :data:`EV_TIE`: the one
    rule for "correct" in the drill, at the table and in coach mode.

    >>> is_best_choice({Move.HIT: 0.1, Move.STAND: 0.1 - 1e-12}, Move.STAND)
    True
    """
    return max(ev.values()) - ev[move] <= EV_TIE


def best_by_ev(ev: Mapping[Move, float], allowed: Collection[Move] | None = None) -> Move | None:
    """The best move of ``ev`` among ``allowed`` (default: all), by :func:`rank_by_ev`;
    ``None`` when none is allowed.

    >>> best_by_ev({Move.HIT: 0.1, Move.DOUBLE: 0.3}, (Move.HIT, Move.STAND))
    <Move.HIT: 'hit'>
    """
    for move in rank_by_ev(ev):
        if allowed is None or move in allowed:
            return move
    return None


def decision_shoe(
    rules: Rules, hand: Sequence[int], up: int, removed: Sequence[int] = ()
) -> Composition:
    """The full shoe less the up card, the hand and the other cards seen."""
    return remove_cards(full_composition(rules.decks), [up, *hand, *removed])


def can_deal(rules: Rules, cards: Sequence[int]) -> bool:
    """Whether the shoe of ``rules.decks`` decks holds all of ``cards`` (points, ace = 1).

    A one-deck shoe has four threes, so 3,3,3,3 against a 3 is no hand: ``analyze`` refuses it
    (``ValueError('card not in the shoe')``) and a table of hands must leave it out.

    >>> can_deal(Rules(decks=1), [3, 3, 3, 3, 3]), can_deal(Rules(decks=2), [3, 3, 3, 3, 3])
    (False, True)
    """
    full = full_composition(rules.decks)
    return all(cards.count(c) <= full[c - 1] for c in set(cards))


def analyze(
    rules: Rules,
    hand: Sequence[int],
    up: int,
    *,
    removed: Sequence[int] = (),
    split_hands: int = 1,
    from_split: bool = False,
    pair: bool | None = None,
) -> Analysis:
    """The EV of every legal option of ``hand`` (points, ace = 1) against ``up``.

    ``removed`` are other cards seen (other boxes, earlier split hands); ``split_hands`` and
    ``from_split`` describe a hand that is part of a split (``hand[0]`` the card split from).

    >>> a = analyze(Rules(), [1, 10], 1)
    >>> a.ev, round(a.insurance, 4)
    ({<Move.STAND: 'stand'>: 1.5}, -0.0388)
    """
    hand = tuple(hand)
    if pair is None:  # as the legality asks it: the same answer, one key for the kept ones
        pair = is_pair(hand, rules)
    if not removed:
        # From the full shoe: kept (the chart, the tables and the drill ask for the same ones).
        return _full_shoe(rules, hand, up, split_hands, from_split, pair)
    return _analyze(rules, hand, up, tuple(removed), split_hands, from_split, pair)


@lru_cache(maxsize=4096)
def _full_shoe(
    rules: Rules,
    hand: tuple[int, ...],
    up: int,
    split_hands: int,
    from_split: bool,
    pair: bool,
) -> Analysis:
    return _analyze(rules, hand, up, (), split_hands, from_split, pair)


def forget_analyses() -> None:
    """Forget the full-shoe analyses kept (:func:`analyze`)."""
    _full_shoe.cache_clear()


def _analyze(
    rules: Rules,
    hand: tuple[int, ...],
    up: int,
    removed: tuple[int, ...],
    split_hands: int,
    from_split: bool,
    pair: bool,
) -> Analysis:
    if len(hand) < 2:
        raise ValueError("a hand has at least two cards")
    legal = legal_moves_for_points(
        rules, hand, up, split_hands=split_hands, from_split=from_split, pair=pair
    )
    if not legal:
        raise ValueError("the hand is bust")
    comp = decision_shoe(rules, hand, up, removed)
    eng = engine_for(rules, up)
    if removed or not eng.full_shoe_ready:
        eng.prepare(comp, hand, split_hands)
    values = eng.options(comp, hand, legal, split_hands=split_hands, from_split=from_split)
    norm = eng.mass(comp)
    ev = {m: v / norm for m, v in values.items()}
    pbj = eng.p_blackjack(comp)
    if is_points_blackjack(hand, from_split=from_split) and split_hands == 1:
        # Exact, not a ratio of two rounded masses.
        ev = {Move.STAND: float(rules.blackjack_pays) * (1.0 if eng.peek else 1.0 - pbj)}
    best = best_by_ev(ev)
    assert best is not None  # a hand that is not bust has a legal move
    insurance = None
    if up == 1 and rules.insurance and len(hand) == 2 and not from_split and split_hands == 1:
        insurance = insurance_gain(rules, hand, comp, p_blackjack=pbj)
    return Analysis(
        hand=hand,
        up=up,
        ev=ev,
        best=best,
        insurance=insurance,
        dealer=dealer_probabilities(rules, up, comp, no_blackjack=eng.peek),
        conditioned=eng.peek,
        p_dealer_blackjack=pbj,
    )


def prepare_full_shoe(rules: Rules, ups: Sequence[int] = tuple(range(1, 11))) -> None:
    """Batch the dealer work of every two-card hand from a full shoe (for charts and tables):
    the same results as without, several times sooner."""
    for up in ups:
        eng = engine_for(rules, up)
        if not eng.full_shoe_ready:
            eng.prepare_full_shoe()


def round_ev(rules: Rules, hand: Sequence[int], up: int, chart: HandChart | None = None) -> float:
    """Expected return of a round dealt ``hand`` against ``up`` from a full shoe, before any
    peek: a dealer blackjack found by the peek costs the bet (a player blackjack pushes);
    otherwise the hand is played best for its cards, or by ``chart``.  Insurance is declined.
    """
    eng = engine_for(rules, up, chart)
    comp = decision_shoe(rules, hand, up)
    if is_points_blackjack(hand):
        return eng.blackjack_value(comp)
    legal = legal_moves_for_points(rules, hand, up)
    value = eng.value(comp, tuple(hand), legal)
    if eng.peek:
        value -= eng.p_blackjack(comp)
    return value
