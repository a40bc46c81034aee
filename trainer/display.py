"""What the drill page shows of a situation: cards, totals, the options and the "why" line.

The numbers for the "why" line come from the situation's stored EVs and from
:mod:`blackjack.dealer`; the sentences themselves live in the template, translated whole.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.template.defaultfilters import floatformat
from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from blackjack import (
    EV_TIE,
    KEYS,
    MOVE_ORDER,
    Card,
    Move,
    Rules,
    analyze,
    cell_key,
    decision_shoe,
    hand_total,
)
from computed.selectors import tables_get
from computed.tables import live_cell
from core.display import MOVE_LABELS, CardView, card_view, rank_label
from core.numbers import percent
from decisions.models import Decision
from decisions.services import chart_cell
from trainer.forms import PRESET_LABELS
from trainer.models import Situation
from trainer.why import Words, choose, facts_for

# Anchors of the article sections the "why" line links to (filled by the articles issue).
ARTICLE_ANCHORS: dict[str, str] = {
    "hard": "hard-totals",
    "soft": "soft-hands",
    "pair": "pairs",
    "insurance": "insurance",
    "even_money": "insurance",
}
# Holding a blackjack against an ace, the two answers are even money or keeping the blackjack.
EVEN_MONEY_LABELS: dict[Move, Promise] = {
    Move.INSURE: _("Even money"),
    Move.DECLINE: _("Keep the blackjack"),
}


@dataclass(frozen=True)
class OptionView:
    move: str
    label: Promise
    key: str
    percent: float  # EV in percent of the bet
    best: bool
    chosen: bool
    chart: bool


@dataclass(frozen=True)
class ResultView:
    options: list[OptionView]
    choice: Promise
    best: Promise
    chart: Promise
    correct: bool
    agrees: bool  # the chart's move is the exact best move
    lost: float  # percent of the bet
    gap: float  # best over the next best option, percent
    chart_gap: float  # best over the chart's move, percent
    why: str  # which sentence explains it (a key of :data:`trainer.why.LINES`)
    why_text: str  # that sentence, in the active language
    bust: float  # dealer's bust chance, percent
    p_ten: float  # share of ten-value cards among the unseen, percent (insurance)
    anchor: str
    # What resplitting does after a split that is best (``None`` when the rules allow none):
    # "never" (the split's value equals its value without resplits) or "again", with
    # ``resplit_gain`` the percent of the bet resplitting adds.
    resplit: str | None = None
    resplit_gain: str = ""
    keep: str = ""  # even money: what keeping the blackjack is worth, a percent of the bet


@dataclass(frozen=True)
class SituationView:
    situation: Situation
    rules: Rules
    rules_label: object
    hand: list[CardView]
    up: CardView
    total: str
    total_words: str  # the total as a sentence writes it: "16", "soft 13"
    soft: bool
    pair: bool
    category: str
    moves: list[OptionView]
    result: ResultView | None
    peeked: bool  # the dealer checked the hole card: the EVs are conditioned on no blackjack


def rules_label(rules: Rules) -> object:
    name = rules.preset_name()
    return PRESET_LABELS[name] if name in PRESET_LABELS else _("Rules set by hand")


def total_words(best: int, *, soft: bool) -> str:
    """The total as a sentence says it: a soft total is "soft 13", never "3 / 13"."""
    return gettext("soft %(total)s") % {"total": best} if soft else str(best)


def _labels(situation: Situation) -> dict[Move, Promise]:
    if situation.kind == Situation.Kind.EVEN_MONEY:
        return {**MOVE_LABELS, **EVEN_MONEY_LABELS}
    return MOVE_LABELS


def _category(situation: Situation, kind: str) -> str:
    if situation.kind == Situation.Kind.INSURANCE:
        return "insurance"
    if situation.kind == Situation.Kind.EVEN_MONEY:
        return "even_money"
    return kind


def _ordered(ev: dict[str, float]) -> list[Move]:
    order = (*MOVE_ORDER, Move.INSURE, Move.DECLINE)
    return sorted((Move(m) for m in ev), key=order.index)


def situation_view(situation: Situation) -> SituationView:
    rules = Rules.from_dict(situation.rules)
    cards = [Card.parse(c) for c in situation.hand]
    up = Card.parse(situation.dealer_up)
    total = hand_total(cards)
    kind, _row, _up = chart_cell(rules=rules, hand=cards, up=up)
    pair = kind == "pair"
    category = _category(situation, kind)
    labels = _labels(situation)
    ev = situation.ev
    moves = [
        OptionView(
            move=m.value,
            label=labels[m],
            key=KEYS[m].upper(),
            percent=100.0 * ev[m.value],
            best=False,
            chosen=False,
            chart=False,
        )
        for m in _ordered(ev)
    ]
    decision = situation.decision
    result = _result(situation, rules, cards, up, category, decision) if decision else None
    return SituationView(
        situation=situation,
        rules=rules,
        rules_label=rules_label(rules),
        hand=[card_view(c) for c in situation.hand],
        up=card_view(situation.dealer_up),
        total=total.display,
        total_words=total_words(total.best, soft=total.soft),
        soft=total.soft,
        pair=pair,
        category=category,
        moves=moves,
        result=result,
        peeked=situation.kind == Situation.Kind.PLAY and rules.peeks_under(up.points),
    )


def _result(
    situation: Situation,
    rules: Rules,
    cards: list[Card],
    up: Card,
    category: str,
    decision: Decision,
) -> ResultView:
    ev = {Move(m): v for m, v in situation.ev.items()}
    best = Move(decision.best)
    chart = Move(decision.chart_move)
    choice = Move(decision.choice)
    labels = _labels(situation)
    options = [
        OptionView(
            move=m.value,
            label=labels[m],
            key=KEYS[m].upper(),
            percent=100.0 * ev[m],
            best=m == best,
            chosen=m == choice,
            chart=m == chart,
        )
        for m in _ordered(situation.ev)
    ]
    others = [v for m, v in ev.items() if m != best]
    gap = 100.0 * (ev[best] - max(others)) if others else 0.0
    points = [c.points for c in cards]
    comp = decision_shoe(rules, points, up.points)
    p_ten = 100.0 * comp[9] / sum(comp)
    pair = category == "pair"

    def cell() -> tuple[str, int, dict[Move, float]]:
        kind, row, _up = cell_key(points, up.points, pair=pair and Move.SPLIT in ev)
        tables = tables_get(rules)
        found = tables.cell(kind, row, up.points) if tables is not None else None
        return kind, row, (found or live_cell(rules, kind, row, up.points)).ev

    facts = facts_for(
        rules, points, up.points, category=category, ev=ev, best=best, chart=chart, chart_cell=cell
    )
    line = choose(facts)
    words = Words(
        total=total_words(hand_total(cards).best, soft=hand_total(cards).soft),
        up=rank_label(up.rank),
        pair=f"{rank_label(cards[0].rank)},{rank_label(cards[1].rank)}" if pair else "",
        moves=labels,
    )
    resplit: tuple[str, str] | None = None
    if best == Move.SPLIT and situation.true_count is None:  # not at a count: the full shoe's
        resplit = _resplit(rules, points, up.points, ev[Move.SPLIT])
    keep = ""
    if category == "even_money":
        keep = percent(floatformat(100.0 * ev[Move.DECLINE], 2))
    return ResultView(
        options=options,
        choice=labels[choice],
        best=labels[best],
        chart=labels[chart],
        correct=decision.correct,
        agrees=chart == best or abs(ev[chart] - ev[best]) <= 1e-9,
        lost=100.0 * decision.ev_lost,
        gap=gap,
        chart_gap=100.0 * (ev[best] - ev[chart]),
        why=line.key,
        why_text=line.text(facts, words),
        bust=100.0 * facts.bust,
        p_ten=p_ten,
        anchor=ARTICLE_ANCHORS[category],
        resplit=resplit[0] if resplit else None,
        resplit_gain=resplit[1] if resplit else "",
        keep=keep,
    )


def _resplit(rules: Rules, points: list[int], up: int, split_ev: float) -> tuple[str, str] | None:
    """Whether the split's value counts resplits, from the numbers: the engine resplits a pair
    card only when that is worth more than playing on (:mod:`blackjack.maths.splits`), so the
    split's value above its value under the same rules with no resplit (two hands at most) is
    what resplitting adds; equal, the engine never resplits.  ``None`` when the rules allow no
    resplit of this pair."""
    if rules.max_hands <= 2 or (points[0] == 1 and not rules.resplit_aces):
        return None
    single = analyze(replace(rules, max_hands=2), points, up, pair=True).ev.get(Move.SPLIT)
    if single is None:
        return None
    gain = split_ev - single
    if gain <= EV_TIE:  # the engine's one tie: resplitting changed nothing
        return "never", ""
    return "again", percent(floatformat(100.0 * gain, 2))
