"""What the drill page shows of a counting question (issue 31) and of an index drill's hand:
values only, the sentences are the templates'."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.template.defaultfilters import floatformat

from blackjack import Rules
from blackjack.counting import SYSTEMS, CountSystem, IndexPlay, decks_remaining
from blackjack.counting.systems import DECK
from core.display import MOVE_LABELS, CardView, card_view
from trainer.display import rules_label
from trainer.models import CountQuestion, Situation
from trainer.presenters import play_hand, signed_count


@dataclass(frozen=True)
class CountedAnswer:
    """An answer recorded with a count, as every page shows it (the drill's verdict, the
    teacher's list of a student's mistakes): the system's name and the numbers signed as a
    player writes a count.  ``answer`` / ``right`` for a running-count or true-count answer,
    ``true_count`` for a move made at a count (an index drill, a count-mode table)."""

    kind: str  # "running", "true_count" or "index" (a move made at a count)
    system: str  # the count system's name: "Hi-Lo"
    answer: str = ""
    right: str = ""
    true_count: str = ""


COUNT_KINDS = (CountQuestion.Kind.RUNNING.value, CountQuestion.Kind.TRUE_COUNT.value)


def counted_answer(
    *,
    category: str,
    count_system: str,
    answer: int | None = None,
    right_answer: int | None = None,
    true_count: int | None = None,
) -> CountedAnswer | None:
    """The one presentation of a recorded count (``decisions.models.Decision``'s counting
    fields); ``None`` for an answer made without a count (or with a system no longer known)."""
    system = SYSTEMS.get(count_system)
    if system is None:
        return None
    if category in COUNT_KINDS:
        return CountedAnswer(
            kind=category,
            system=system.name,
            answer=signed_count(answer if answer is not None else 0),
            right=signed_count(right_answer) if right_answer is not None else "",
        )
    shown = signed_count(true_count) if true_count is not None else ""
    return CountedAnswer(kind="index", system=system.name, true_count=shown)


@dataclass(frozen=True)
class CountResultView:
    correct: bool
    answer: str  # signed, as a player writes a count
    right: str
    seconds: str  # the answer time, one decimal; "" when not known
    # The true-count working: decks left (to the half deck), the running count less an
    # unbalanced system's drift, and their quotient before the floor.
    decks_left: str = ""
    adjusted: str = ""
    quotient: str = ""


@dataclass(frozen=True)
class CountView:
    question: CountQuestion
    kind: str  # "running" or "true_count"
    system: CountSystem
    rules_label: object
    steps: list[list[CardView]]  # the cards, grouped as shown (one step per card or round)
    card_total: int
    pace_ms: int
    running: str  # signed: the running count shown (true-count question)
    cards_left: int | None
    decks: int
    decks_dealt: str  # one decimal: the decks dealt, for an unbalanced system's drift
    unbalanced: bool
    result: CountResultView | None


def _decimal(value: Fraction | float, places: int = 1) -> str:
    return str(floatformat(float(value), places))


def count_view(question: CountQuestion) -> CountView:
    rules = Rules.from_dict(question.rules)
    system = SYSTEMS[question.system]
    cards = [card_view(c) for c in question.cards]
    step = max(question.per_step, 1)
    steps = [cards[i : i + step] for i in range(0, len(cards), step)]
    dealt = rules.decks * DECK - (question.cards_left or 0)
    return CountView(
        question=question,
        kind=question.kind,
        system=system,
        rules_label=rules_label(rules),
        steps=steps,
        card_total=len(cards),
        pace_ms=question.pace_ms,
        running=signed_count(question.running_count),
        cards_left=question.cards_left,
        decks=rules.decks,
        decks_dealt=_decimal(Fraction(dealt, DECK)),
        unbalanced=not system.balanced,
        result=_result(question, rules, system) if question.decision is not None else None,
    )


def _result(question: CountQuestion, rules: Rules, system: CountSystem) -> CountResultView:
    decision = question.decision
    assert decision is not None
    taken = decision.time_taken_ms
    seconds = _decimal(taken / 1000) if taken is not None else ""
    shown = counted_answer(
        category=question.kind,
        count_system=question.system,
        answer=decision.answer,
        right_answer=question.right_answer,
    )
    assert shown is not None
    answer, right = shown.answer, shown.right
    if question.kind != CountQuestion.Kind.TRUE_COUNT or question.cards_left is None:
        return CountResultView(decision.correct, answer, right, seconds)
    decks = decks_remaining(question.cards_left)
    drift = Fraction(system.per_deck * (rules.decks * DECK - question.cards_left), DECK)
    adjusted = question.running_count - drift
    return CountResultView(
        decision.correct,
        answer,
        right,
        seconds,
        decks_left=_decimal(decks),
        adjusted=_decimal(adjusted),
        quotient=_decimal(adjusted / decks, 2),
    )


@dataclass(frozen=True)
class IndexView:
    """An index drill's hand: the system, the true count, and (after the answer) the play."""

    system: str
    true_count: str
    hand: str  # "16", "A-7", "8-8"; "Insurance" for the insurance play
    rule: str  # "≥ +3" / "< 0"
    basic: object
    move: object
    applies: bool  # the count is on the index play's side
    insurance: bool = False  # the insurance play: its sentences name no hand


def index_view(situation: Situation) -> IndexView | None:
    if situation.true_count is None or not situation.index_play:
        return None
    play = IndexPlay.from_list(situation.index_play)
    t = situation.true_count
    applies = t >= play.index if play.above else t < play.index
    shown = counted_answer(category="", count_system=situation.count_system, true_count=t)
    assert shown is not None
    return IndexView(
        system=shown.system,
        true_count=shown.true_count,
        hand=play_hand(play),
        rule=play.rule(),
        basic=MOVE_LABELS[play.basic],
        move=MOVE_LABELS[play.move],
        applies=applies,
        insurance=play.kind == "insurance",
    )
