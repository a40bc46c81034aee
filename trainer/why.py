"""The drill's "why" line: the one sentence under the EV table that explains the best move.

Every line states figures and comparisons, and each is chosen only when what it says is true
of the numbers it explains: :data:`LINES` pairs each line with that condition
(:attr:`Line.holds`), and :func:`choose` takes the first line whose condition holds, in the
order given (the specific before the general; :data:`FALLBACK`, which only names the best and
the next best move with their EVs, is always true).  ``tests/trainer/test_why.py`` checks every
line's claims against the engine's numbers in every chart cell of the house rules.

The figures (:class:`Facts`) come from the situation's stored EVs and from counting the cards
left in the shoe: the dealer's final totals, the chance that one more card busts the hand or
raises its total, the share of ten-value cards.  Where the chart's move (one move for a whole
chart cell: every 16 against a 10 alike) differs from the exact best move for these cards, the
line says so with the chart cell's EVs and with the figure the hand's own cards moved, against
its average over the cell's hands (:class:`CellAverage`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from django.template.defaultfilters import floatformat
from django.utils.functional import Promise
from django.utils.translation import gettext

from blackjack import (
    Move,
    Rules,
    dealer_probabilities,
    decision_shoe,
    full_composition,
    points_total,
)
from core.display import signed
from core.numbers import percent

DEALER_WEAK = 0.35  # the dealer busts at least this often: up cards 2-6 in every preset
EV_TIE = 1e-9  # two EVs closer than this are equal


@dataclass(frozen=True)
class CellAverage:
    """The figures of :class:`Facts` averaged over the hands of the chart cell, each weighted
    by the chance of being dealt it (as the chart weighs them)."""

    risk: float
    bust: float
    tens: float


@dataclass(frozen=True)
class Facts:
    """What a "why" line may say, per unit (not percent)."""

    category: str  # "hard", "soft", "pair", "insurance", "even_money"
    points: tuple[int, ...]  # the hand's cards, ace = 1
    up: int
    total: int
    soft: bool
    ev: Mapping[Move, float]
    best: Move
    chart: Move
    bust: float  # the dealer busts (after the peek where there is one)
    win_stand: float  # standing wins: the dealer busts or ends below the total
    risk: float  # one more card busts the hand
    improve: float  # one more card raises the total without busting it
    tens: float  # share of ten-value cards among the unseen cards
    # Where the chart's move is not the best: the chart cell's EVs and its averages.
    cell_kind: str = ""
    cell_row: int = 0
    cell_ev: Mapping[Move, float] | None = None
    average: CellAverage | None = None

    @property
    def runner(self) -> Move | None:
        """The next best move."""
        others = {m: v for m, v in self.ev.items() if m != self.best}
        return max(others, key=lambda m: others[m]) if others else None

    def beats(self, a: Move, b: Move) -> bool:
        return a in self.ev and b in self.ev and self.ev[a] > self.ev[b] + EV_TIE

    @property
    def differs(self) -> bool:
        """The chart's move is worth less than the best move for these cards."""
        return self.chart != self.best and self.beats(self.best, self.chart)


# --- figures ------------------------------------------------------------------------------


def one_card(comp: Sequence[int], points: Sequence[int]) -> tuple[float, float]:
    """The chance that one more card from ``comp`` busts the hand, and that it raises its
    total without busting it.

    >>> one_card([4] * 9 + [16], [10, 6])[0] == 32 / 52
    True
    """
    total, _soft = points_total(points)
    n = sum(comp)
    risk = improve = 0
    for card in range(1, 11):
        after, _ = points_total([*points, card])
        if after > 21:
            risk += comp[card - 1]
        elif after > total:
            improve += comp[card - 1]
    return risk / n, improve / n


def cell_members(kind: str, row: int) -> list[tuple[int, ...]]:
    """The hands a chart cell averages (as :func:`blackjack.build_cell` does): its two-card
    hands that are no pair and no blackjack, or its three-card hands where there are none.

    >>> cell_members("hard", 16), cell_members("soft", 17)
    ([(6, 10), (7, 9)], [(1, 6)])
    """
    if kind == "pair":
        return [(row, row)]
    soft = kind == "soft"
    two: list[tuple[int, ...]] = [
        (a, b)
        for a, b in itertools.combinations_with_replacement(range(1, 11), 2)
        if a != b and points_total([a, b]) == (row, soft) and sorted((a, b)) != [1, 10]
    ]
    if two:
        return two
    return [
        h
        for h in itertools.combinations_with_replacement(range(1, 11), 3)
        if points_total(h) == (row, soft)
    ]


def dealt_chance(rules: Rules, hand: Sequence[int], up: int) -> float:
    """The chance of being dealt exactly this multiset from a full shoe less the up card."""
    comp = list(full_composition(rules.decks))
    comp[up - 1] -= 1
    n = sum(comp)
    chance = 1.0
    for i, card in enumerate(hand):
        chance *= comp[card - 1] / (n - i)
        comp[card - 1] -= 1
    ways = math.factorial(len(hand))
    for card in set(hand):
        ways //= math.factorial(hand.count(card))
    return chance * ways


def cell_average(rules: Rules, kind: str, row: int, up: int) -> CellAverage:
    """:class:`CellAverage` of the chart cell ``(kind, row, up)``."""
    weights = risk = bust = tens = 0.0
    for hand in cell_members(kind, row):
        w = dealt_chance(rules, hand, up)
        comp = decision_shoe(rules, hand, up)
        dealer = dealer_probabilities(rules, up, comp, no_blackjack=rules.peeks_under(up))
        weights += w
        risk += w * one_card(comp, hand)[0]
        bust += w * dealer.bust
        tens += w * comp[9] / sum(comp)
    return CellAverage(risk / weights, bust / weights, tens / weights)


def facts_for(
    rules: Rules,
    points: Sequence[int],
    up: int,
    *,
    category: str,
    ev: Mapping[Move, float],
    best: Move,
    chart: Move,
    chart_cell: Callable[[], tuple[str, int, Mapping[Move, float]]] | None = None,
) -> Facts:
    """The facts of a hand against ``up`` with these EVs.  ``chart_cell`` gives the chart
    cell's kind, row and EVs; it is asked only when the chart's move is not the best."""
    comp = decision_shoe(rules, points, up)
    dealer = dealer_probabilities(rules, up, comp, no_blackjack=rules.peeks_under(up))
    total, soft = points_total(points)
    below = sum(
        p for t, p in zip(range(17, 22), dealer.probabilities[:5], strict=True) if t < total
    )
    risk, improve = one_card(comp, points)
    facts = Facts(
        category=category,
        points=tuple(points),
        up=up,
        total=total,
        soft=soft,
        ev=dict(ev),
        best=best,
        chart=chart,
        bust=dealer.bust,
        win_stand=dealer.bust + below if total <= 21 else 0.0,
        risk=risk,
        improve=improve,
        tens=comp[9] / sum(comp),
    )
    if category in ("hard", "soft", "pair") and facts.differs and chart_cell is not None:
        kind, row, cell_ev = chart_cell()
        facts = replace(
            facts,
            cell_kind=kind,
            cell_row=row,
            cell_ev=dict(cell_ev),
            average=cell_average(rules, kind, row, up),
        )
    return facts


# --- the lines ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Words:
    """How the sentences name things, in the active language."""

    total: str  # "16", "soft 13"
    up: str  # the up card's rank: "10", "A" (the language's letter)
    pair: str  # "8,8"
    moves: Mapping[Move, Promise]


def pc(value: float) -> str:
    """A chance as a percentage with one decimal: "40.3%" ("40,3 %" in Czech)."""
    return percent(floatformat(100.0 * value, 1))


def evp(value: float) -> str:
    """An EV as a signed percentage of the bet: "−21.34%"."""
    return percent(signed(100.0 * value))


def lost(value: float) -> str:
    """A loss (a negative EV) as an unsigned percentage of the bet: "47.49%"."""
    return percent(floatformat(-100.0 * value, 2))


def cell_words(f: Facts, w: Words) -> str:
    if f.cell_kind == "soft":
        return gettext("soft %(total)s") % {"total": f.cell_row}
    if f.cell_kind == "pair":
        return w.pair
    return gettext("hard %(total)s") % {"total": f.cell_row}


def _moves(f: Facts, w: Words, **names: Move | None) -> dict[str, str]:
    """``{name: the move's label, name_ev: its EV}`` for each move given."""
    out: dict[str, str] = {}
    for name, move in names.items():
        if move is not None:
            out[name] = str(w.moves[move])
            out[f"{name}_ev"] = evp(f.ev[move]) if move in f.ev else ""
    return out


@dataclass(frozen=True)
class Line:
    key: str
    holds: Callable[[Facts], bool]
    text: Callable[[Facts, Words], str]


def _insurance_no(f: Facts, w: Words) -> str:
    return gettext(
        "Insurance pays 2 to 1, so it pays off only when more than one card in three is a ten."
        " Here %(tens)s of the unseen cards are tens, fewer than one in three: insuring is"
        " worth %(gap)s of the bet less than not insuring."
    ) % {
        "tens": pc(f.tens),
        "gap": percent(floatformat(100.0 * (f.ev[Move.DECLINE] - f.ev[Move.INSURE]), 2)),
    }


def _insurance_yes(f: Facts, w: Words) -> str:
    return gettext(
        "Insurance pays 2 to 1, so it pays off only when more than one card in three is a ten."
        " Here %(tens)s of the unseen cards are tens, more than one in three: insuring is"
        " worth %(gap)s of the bet more than not insuring."
    ) % {
        "tens": pc(f.tens),
        "gap": percent(floatformat(100.0 * (f.ev[Move.INSURE] - f.ev[Move.DECLINE]), 2)),
    }


def _even_money_keep(f: Facts, w: Words) -> str:
    return gettext(
        "Even money pays the bet once, for sure. Keeping the blackjack is worth %(keep)s of"
        " the bet on average (it is paid more, unless the dealer has a blackjack too): more"
        " than the sure payment, so keep it."
    ) % {"keep": percent(floatformat(100.0 * f.ev[Move.DECLINE], 2))}


def _even_money_take(f: Facts, w: Words) -> str:
    return gettext(
        "Even money pays the bet once, for sure. Keeping the blackjack is worth only %(keep)s"
        " of the bet on average (it is paid more, unless the dealer has a blackjack too): less"
        " than the sure payment, so take even money."
    ) % {"keep": percent(floatformat(100.0 * f.ev[Move.DECLINE], 2))}


def _exact_intro(f: Facts, w: Words) -> str:
    assert f.cell_ev is not None
    return gettext(
        "The chart plays every %(cell)s against the up card %(up)s the same way: averaged over"
        " the hands it stands for, %(chart)s is worth %(chart_cell)s and %(best)s"
        " %(best_cell)s."
    ) % {
        "cell": cell_words(f, w),
        "up": w.up,
        "chart": str(w.moves[f.chart]),
        "best": str(w.moves[f.best]),
        "chart_cell": evp(f.cell_ev[f.chart]),
        "best_cell": evp(f.cell_ev[f.best]),
    }


def _exact_outro(f: Facts, w: Words) -> dict[str, str]:
    return _moves(f, w, best=f.best, chart=f.chart)


def _exact_risk(f: Facts, w: Words) -> str:
    assert f.average is not None
    more = f.risk > f.average.risk
    text = (
        gettext(
            "Your own cards change what is left in the shoe: one more card would bust this"
            " %(total)s %(risk)s of the time, more often than the chart's average of"
            " %(average)s, so here %(best)s (%(best_ev)s) beats %(chart)s (%(chart_ev)s)."
        )
        if more
        else gettext(
            "Your own cards change what is left in the shoe: one more card would bust this"
            " %(total)s only %(risk)s of the time, less often than the chart's average of"
            " %(average)s, so here %(best)s (%(best_ev)s) beats %(chart)s (%(chart_ev)s)."
        )
    )
    values = {"total": w.total, "risk": pc(f.risk), "average": pc(f.average.risk)}
    return _exact_intro(f, w) + " " + text % {**values, **_exact_outro(f, w)}


def _exact_bust(f: Facts, w: Words) -> str:
    assert f.average is not None
    more = f.bust > f.average.bust
    text = (
        gettext(
            "Your own cards change what is left in the shoe: here the dealer busts %(bust)s of"
            " the time, more often than the chart's average of %(average)s, so %(best)s"
            " (%(best_ev)s) beats %(chart)s (%(chart_ev)s)."
        )
        if more
        else gettext(
            "Your own cards change what is left in the shoe: here the dealer busts only"
            " %(bust)s of the time, less often than the chart's average of %(average)s, so"
            " %(best)s (%(best_ev)s) beats %(chart)s (%(chart_ev)s)."
        )
    )
    values = {"bust": pc(f.bust), "average": pc(f.average.bust)}
    return _exact_intro(f, w) + " " + text % {**values, **_exact_outro(f, w)}


def _exact_tens(f: Facts, w: Words) -> str:
    assert f.average is not None
    more = f.tens > f.average.tens
    text = (
        gettext(
            "Your own cards change what is left in the shoe: %(tens)s of the unseen cards are"
            " tens, more than the chart's average of %(average)s, so here %(best)s"
            " (%(best_ev)s) beats %(chart)s (%(chart_ev)s)."
        )
        if more
        else gettext(
            "Your own cards change what is left in the shoe: only %(tens)s of the unseen cards"
            " are tens, fewer than the chart's average of %(average)s, so here %(best)s"
            " (%(best_ev)s) beats %(chart)s (%(chart_ev)s)."
        )
    )
    values = {"tens": pc(f.tens), "average": pc(f.average.tens)}
    return _exact_intro(f, w) + " " + text % {**values, **_exact_outro(f, w)}


def _exact_plain(f: Facts, w: Words) -> str:
    text = gettext(
        "Your own cards change what is left in the shoe, and for these cards %(best)s"
        " (%(best_ev)s) beats %(chart)s (%(chart_ev)s)."
    )
    return _exact_intro(f, w) + " " + text % _exact_outro(f, w)


def _surrender(f: Facts, w: Words) -> str:
    runner = f.runner
    assert runner is not None
    return gettext(
        "Played on, this hand loses %(loss)s of the bet on average even at its best"
        " (%(runner)s): more than the half bet that %(best)s gives up."
    ) % {"loss": lost(f.ev[runner]), "runner": str(w.moves[runner]), "best": str(w.moves[f.best])}


def _split_gain(f: Facts, w: Words) -> str:
    runner = f.runner
    return gettext(
        "Split into two hands, %(pair)s is worth %(split_ev)s of the bet against the up card"
        " %(up)s; played as one %(total)s it is worth at most %(runner_ev)s (%(runner)s)."
    ) % {
        "pair": w.pair,
        "up": w.up,
        "total": w.total,
        **_moves(f, w, split=Move.SPLIT, runner=runner),
    }


def _split_save(f: Facts, w: Words) -> str:
    runner = f.runner
    assert runner is not None
    return gettext(
        "%(total)s is a poor hand against the up card %(up)s: played as one hand it loses"
        " %(runner_loss)s of the bet even at its best (%(runner)s). Split into two hands,"
        " %(pair)s loses less: %(split_loss)s."
    ) % {
        "pair": w.pair,
        "up": w.up,
        "total": w.total,
        "runner": str(w.moves[runner]),
        "runner_loss": lost(f.ev[runner]),
        "split_loss": lost(f.ev[Move.SPLIT]),
    }


def _double_weak(f: Facts, w: Words) -> str:
    return gettext(
        "With the up card %(up)s the dealer busts %(bust)s of the time, and your %(total)s"
        " wins more than it loses even with just one more card: doubling is worth"
        " %(double_ev)s of the bet, hitting %(hit_ev)s."
    ) % {
        "up": w.up,
        "bust": pc(f.bust),
        "total": w.total,
        **_moves(f, w, double=Move.DOUBLE, hit=Move.HIT),
    }


def _double_draw(f: Facts, w: Words) -> str:
    return gettext(
        "%(tens)s of the unseen cards are tens, each making your %(total)s a %(made)s, so even"
        " with just one more card it wins more than it loses against the up card %(up)s:"
        " doubling is worth %(double_ev)s of the bet, hitting %(hit_ev)s."
    ) % {
        "tens": pc(f.tens),
        "total": w.total,
        "made": f.total + 10,
        "up": w.up,
        **_moves(f, w, double=Move.DOUBLE, hit=Move.HIT),
    }


def _stand_pair(f: Facts, w: Words) -> str:
    return gettext(
        "Standing, your %(total)s is worth %(stand_ev)s of the bet against the up card %(up)s;"
        " split into two hands, %(pair)s would be worth %(split_ev)s."
    ) % {
        "total": w.total,
        "up": w.up,
        "pair": w.pair,
        **_moves(f, w, stand=Move.STAND, split=Move.SPLIT),
    }


def _stand_dealer(f: Facts, w: Words) -> str:
    return gettext(
        "With the up card %(up)s the dealer busts %(bust)s of the time, while one more card"
        " would bust your %(total)s %(risk)s of the time: standing (%(stand_ev)s) leaves the"
        " risk to the dealer and beats hitting (%(hit_ev)s)."
    ) % {
        "up": w.up,
        "bust": pc(f.bust),
        "total": w.total,
        "risk": pc(f.risk),
        **_moves(f, w, stand=Move.STAND, hit=Move.HIT),
    }


def _stand_risk(f: Facts, w: Words) -> str:
    return gettext(
        "One more card would bust your %(total)s %(risk)s of the time: standing is worth"
        " %(stand_ev)s of the bet, hitting only %(hit_ev)s."
    ) % {"total": w.total, "risk": pc(f.risk), **_moves(f, w, stand=Move.STAND, hit=Move.HIT)}


def _stand_soft(f: Facts, w: Words) -> str:
    return gettext(
        "One more card cannot bust your %(total)s, but only %(improve)s of the cards would"
        " raise it: standing is worth %(stand_ev)s of the bet, hitting %(hit_ev)s."
    ) % {"total": w.total, "improve": pc(f.improve), **_moves(f, w, stand=Move.STAND, hit=Move.HIT)}


def _hit_soft(f: Facts, w: Words) -> str:
    return gettext(
        "Standing on %(total)s wins only %(win)s of the time against the up card %(up)s, and"
        " one more card cannot bust it: hitting is worth %(hit_ev)s of the bet, standing"
        " %(stand_ev)s."
    ) % {
        "total": w.total,
        "win": pc(f.win_stand),
        "up": w.up,
        **_moves(f, w, stand=Move.STAND, hit=Move.HIT),
    }


def _hit_safe_weak(f: Facts, w: Words) -> str:
    return gettext(
        "The dealer busts %(bust)s of the time with the up card %(up)s, but one more card"
        " cannot bust your %(total)s: hitting is worth %(hit_ev)s of the bet, standing"
        " %(stand_ev)s."
    ) % {
        "bust": pc(f.bust),
        "up": w.up,
        "total": w.total,
        **_moves(f, w, stand=Move.STAND, hit=Move.HIT),
    }


def _hit_safe(f: Facts, w: Words) -> str:
    return gettext(
        "One more card cannot bust your %(total)s: hitting is worth %(hit_ev)s of the bet,"
        " standing %(stand_ev)s."
    ) % {"total": w.total, **_moves(f, w, stand=Move.STAND, hit=Move.HIT)}


def _hit_dealer(f: Facts, w: Words) -> str:
    return gettext(
        "With the up card %(up)s the dealer busts only %(bust)s of the time, so standing on"
        " %(total)s wins only %(win)s of the time: hitting is worth %(hit_ev)s of the bet,"
        " standing %(stand_ev)s."
    ) % {
        "up": w.up,
        "bust": pc(f.bust),
        "total": w.total,
        "win": pc(f.win_stand),
        **_moves(f, w, stand=Move.STAND, hit=Move.HIT),
    }


def _hit_dealer_stiff(f: Facts, w: Words) -> str:
    return gettext(
        "With the up card %(up)s the dealer busts only %(bust)s of the time, and standing on"
        " %(total)s wins only when the dealer busts: hitting is worth %(hit_ev)s of the bet,"
        " standing %(stand_ev)s."
    ) % {
        "up": w.up,
        "bust": pc(f.bust),
        "total": w.total,
        **_moves(f, w, stand=Move.STAND, hit=Move.HIT),
    }


def _hit_risk(f: Facts, w: Words) -> str:
    return gettext(
        "The dealer busts %(bust)s of the time with the up card %(up)s, but one more card"
        " would bust your %(total)s only %(risk)s of the time: hitting is worth %(hit_ev)s of"
        " the bet, standing %(stand_ev)s."
    ) % {
        "bust": pc(f.bust),
        "up": w.up,
        "total": w.total,
        "risk": pc(f.risk),
        **_moves(f, w, stand=Move.STAND, hit=Move.HIT),
    }


def _only_21(f: Facts, w: Words) -> str:
    return gettext(
        "No card can improve %(total)s: standing is the only option, worth %(best_ev)s of the bet."
    ) % {"total": w.total, **_moves(f, w, best=f.best)}


def _fallback(f: Facts, w: Words) -> str:
    runner = f.runner
    if runner is None:
        return gettext(
            "With %(total)s, %(best)s is the only option: it is worth %(best_ev)s of the bet."
        ) % {
            "total": w.total,
            **_moves(f, w, best=f.best),
        }
    return gettext(
        "%(best)s is worth %(best_ev)s of the bet here; the next best move, %(runner)s,"
        " %(runner_ev)s."
    ) % _moves(f, w, best=f.best, runner=runner)


# --- when each line is true ---------------------------------------------------------------


def _play(f: Facts) -> bool:
    return f.category in ("hard", "soft", "pair")


def _best_over_all(f: Facts) -> bool:
    runner = f.runner
    return runner is None or f.beats(f.best, runner)


def _exact(f: Facts) -> bool:
    return (
        _play(f)
        and f.differs
        and f.cell_ev is not None
        and f.average is not None
        and f.chart in f.cell_ev
        and f.best in f.cell_ev
        and f.cell_ev[f.chart] >= f.cell_ev[f.best] - EV_TIE
    )


def _risk_explains(f: Facts) -> bool:
    """One more card busting this hand more often than the cell's hands favours not hitting
    (standing, surrendering) over hitting; less often, hitting over not hitting."""
    if f.average is None or f.risk == 0:
        return False
    passive = (Move.STAND, Move.SURRENDER)
    if f.best in passive and f.chart == Move.HIT:
        return f.risk > f.average.risk + EV_TIE
    if f.best == Move.HIT and f.chart in passive:
        return f.risk < f.average.risk - EV_TIE
    return False


def _bust_explains(f: Facts) -> bool:
    """A dealer who busts more often favours standing or doubling over hitting or
    surrendering; less often, the reverse."""
    if f.average is None:
        return False
    bold, meek = (Move.STAND, Move.DOUBLE), (Move.HIT, Move.SURRENDER)
    if f.best in bold and f.chart in meek:
        return f.bust > f.average.bust + EV_TIE
    if f.best in meek and f.chart in bold:
        return f.bust < f.average.bust - EV_TIE
    return False


def _tens_explain(f: Facts) -> bool:
    """More tens favour doubling a hard 9-11 over hitting it; fewer, hitting over doubling."""
    if f.average is None or f.soft or not 9 <= f.total <= 11:
        return False
    if f.best == Move.DOUBLE and f.chart == Move.HIT:
        return f.tens > f.average.tens + EV_TIE
    if f.best == Move.HIT and f.chart == Move.DOUBLE:
        return f.tens < f.average.tens - EV_TIE
    return False


def _is(f: Facts, best: Move, *over: Move) -> bool:
    return _play(f) and f.best == best and all(f.beats(best, m) for m in over)


LINES: tuple[Line, ...] = (
    Line(
        "insurance_no",
        lambda f: (
            f.category == "insurance"
            and f.best == Move.DECLINE
            and f.tens < 1 / 3
            and f.beats(Move.DECLINE, Move.INSURE)
        ),
        _insurance_no,
    ),
    Line(
        "insurance_yes",
        lambda f: (
            f.category == "insurance"
            and f.best == Move.INSURE
            and f.tens > 1 / 3
            and f.beats(Move.INSURE, Move.DECLINE)
        ),
        _insurance_yes,
    ),
    Line(
        "even_money_keep",
        lambda f: (
            f.category == "even_money"
            and f.best == Move.DECLINE
            and f.ev[Move.DECLINE] > f.ev[Move.INSURE] == 1.0
        ),
        _even_money_keep,
    ),
    Line(
        "even_money_take",
        lambda f: (
            f.category == "even_money"
            and f.best == Move.INSURE
            and f.ev[Move.DECLINE] < f.ev[Move.INSURE] == 1.0
        ),
        _even_money_take,
    ),
    Line(
        "only_21",
        lambda f: _play(f) and f.total == 21 and list(f.ev) == [Move.STAND] == [f.best],
        _only_21,
    ),
    Line("exact_risk", lambda f: _exact(f) and _risk_explains(f), _exact_risk),
    Line("exact_bust", lambda f: _exact(f) and _bust_explains(f), _exact_bust),
    Line("exact_tens", lambda f: _exact(f) and _tens_explain(f), _exact_tens),
    Line("exact", _exact, _exact_plain),
    Line(
        "surrender",
        lambda f: (
            _is(f, Move.SURRENDER)
            and _best_over_all(f)
            and f.runner is not None
            and f.ev[f.runner] < -0.5
        ),
        _surrender,
    ),
    Line(
        "split_save",
        lambda f: (
            _is(f, Move.SPLIT)
            and _best_over_all(f)
            and f.runner is not None
            and f.ev[Move.SPLIT] < 0
        ),
        _split_save,
    ),
    Line(
        "split_gain",
        lambda f: _is(f, Move.SPLIT) and _best_over_all(f) and f.runner is not None,
        _split_gain,
    ),
    Line(
        "double_weak",
        lambda f: _is(f, Move.DOUBLE, Move.HIT) and f.bust >= DEALER_WEAK and f.ev[Move.DOUBLE] > 0,
        _double_weak,
    ),
    Line(
        "double_draw",
        lambda f: (
            _is(f, Move.DOUBLE, Move.HIT)
            and not f.soft
            and 9 <= f.total <= 11
            and f.ev[Move.DOUBLE] > 0
        ),
        _double_draw,
    ),
    Line(
        "stand_pair",
        lambda f: _is(f, Move.STAND, Move.SPLIT) and f.category == "pair",
        _stand_pair,
    ),
    Line(
        "stand_dealer",
        lambda f: _is(f, Move.STAND, Move.HIT) and f.risk > 0 and f.bust >= DEALER_WEAK,
        _stand_dealer,
    ),
    Line("stand_risk", lambda f: _is(f, Move.STAND, Move.HIT) and f.risk > 0, _stand_risk),
    Line(
        "stand_soft",
        lambda f: _is(f, Move.STAND, Move.HIT) and f.risk == 0 and f.improve < 0.5,
        _stand_soft,
    ),
    Line(
        "hit_soft",
        lambda f: _is(f, Move.HIT, Move.STAND) and f.soft and f.risk == 0 and f.win_stand < 0.5,
        _hit_soft,
    ),
    Line(
        "hit_safe_weak",
        lambda f: _is(f, Move.HIT, Move.STAND) and f.risk == 0 and f.bust >= DEALER_WEAK,
        _hit_safe_weak,
    ),
    Line("hit_safe", lambda f: _is(f, Move.HIT, Move.STAND) and f.risk == 0, _hit_safe),
    Line(
        "hit_dealer_stiff",
        lambda f: (
            _is(f, Move.HIT, Move.STAND)
            and f.bust < DEALER_WEAK
            and f.total <= 16
            and abs(f.win_stand - f.bust) < EV_TIE
        ),
        _hit_dealer_stiff,
    ),
    Line(
        "hit_dealer",
        lambda f: _is(f, Move.HIT, Move.STAND) and f.bust < DEALER_WEAK and f.win_stand < 0.5,
        _hit_dealer,
    ),
    Line(
        "hit_risk",
        lambda f: _is(f, Move.HIT, Move.STAND) and 0 < f.risk < 0.5,
        _hit_risk,
    ),
)
FALLBACK = Line(
    "fallback",
    lambda f: f.runner is None or f.ev[f.best] >= f.ev[f.runner] - EV_TIE,
    _fallback,
)


def choose(f: Facts) -> Line:
    """The first line of :data:`LINES` that is true of ``f``, else :data:`FALLBACK`."""
    for line in LINES:
        if line.holds(f):
            return line
    return FALLBACK
