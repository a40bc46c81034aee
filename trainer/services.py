"""Writes of the trainer app: dealing a drill situation and recording its answer.

The answer is stored as a decision through :mod:`decisions.services`; the tables a deal
reads come from :mod:`computed`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from random import Random

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from blackjack import (
    Card,
    Move,
    Rules,
    analyze,
    best_by_ev,
    insurance_gain,
    insurance_options,
    is_pair,
    legal_moves_for_points,
)
from blackjack.counting import SYSTEMS, CountSystem, count_shoe
from computed.indices import indices_get
from computed.selectors import tables_get
from computed.services import chart_job_ensure
from computed.tables import Tables, chart_move_with, live_cell
from core.writes import Writes
from decisions.models import Decision
from decisions.selectors import weak_cell
from decisions.services import count_answer_record, decision_record, next_decision_id
from trainer.count_dealing import index_deal, removed_for, running_deal, true_count_deal
from trainer.dealing import (
    MULTI_CARD_CHANCE,
    DrillCell,
    card_of,
    cards_for,
    dealable_cell,
    insurance_points,
    pick_cell,
    points_for,
)
from trainer.models import CountQuestion, Situation

FOCUSES: tuple[str, ...] = (
    "all", "hard", "soft", "pair", "up", "insurance", "exact", "weak", "cells", "index"
)  # fmt: skip
# The counting drills whose answer is a number (a CountQuestion, not a Situation).
COUNT_FOCUSES: tuple[str, ...] = (CountQuestion.Kind.RUNNING, CountQuestion.Kind.TRUE_COUNT)
INDEX_FOCUS = "index"
ILLEGAL_MOVE = _("That move is not one of the options in this situation.")
UNKNOWN_FOCUS = "Unknown drill focus."
NOT_A_COUNT = _("Type the count as a whole number, such as 3, −2 or 0.")
COUNT_LIMIT = 9999  # no count of an eight-deck shoe comes near it
INDEX_EV_SECONDS = 24 * 3600  # the EVs at a count never change; a day keeps the cache small


class NotAnOption(ValueError):
    """A move that is not an option of the situation answered."""


class NotACount(ValueError):
    """An answer to a counting question that is not a whole number in range."""


class NoIndexTable(LookupError):
    """The index table of the rule set and system is not stored yet (the index page computes
    it); an index drill cannot be dealt until it is."""


def situation_evaluate(
    *, rules: Rules, hand: Sequence[Card], up: Card, tables: Tables | None
) -> tuple[dict[Move, float], Move, float]:
    """The EV of every legal option of a drill hand (full shoe less the cards shown), the
    chart's move and the dealer's bust chance.  Hands the stored tables hold are read, others
    analysed now."""
    points = [c.points for c in hand]
    pair = is_pair(hand, rules)
    legal = legal_moves_for_points(rules, points, up.points, pair=pair)
    stored = tables.lookup(points, up.points, pair=pair) if tables is not None else None
    if stored is not None:
        ev, bust = dict(stored[0]), stored[1]
    else:
        analysis = analyze(rules, points, up.points, pair=pair)
        ev, bust = analysis.ev, analysis.dealer.bust
    if tables is not None:
        chart = tables.chart_move(points, up.points, legal, pair=pair)
    else:
        chart = chart_move_with(
            lambda kind, row: live_cell(rules, kind, row, up.points), points, legal, pair=pair
        )
    return ev, chart, bust


def even_money_ev(rules: Rules) -> dict[Move, float]:
    """The two answers to even money, per unit of the bet, seen before the dealer looks at the
    hole card: INSURE takes 1:1 at once; DECLINE keeps the blackjack, paid at
    ``rules.blackjack_pays`` unless the dealer has one too.  Their difference is what
    :func:`blackjack.analyze` gives as the blackjack's ``insurance``."""
    gain = analyze(rules, [1, 10], 1).insurance
    assert gain is not None  # an ace up under rules with insurance
    return {Move.INSURE: 1.0, Move.DECLINE: 1.0 - gain}


def situation_deal(
    *,
    user: User,
    rules: Rules,
    focus: str = "all",
    up: int | None = None,
    rng: Random | None = None,
    cells: Sequence[tuple[str, int, int]] = (),
    context: str | None = None,
    system: str = "",
) -> Situation:
    """Deal the next drill situation for ``focus`` and store it with its exact analysis.

    Focus ``"index"`` deals an index play of the stored index table of ``rules`` and
    ``system`` at a true count on one side of its index, with the exact EVs at that count
    (:func:`index_evs`; for the insurance play, an insurance question with
    :func:`index_insurance_evs`); :class:`NoIndexTable` when the table is not stored yet.

    Focus ``"cells"`` deals from the chart cells given, ``(kind, row, up)`` (cells no two-card
    hand falls in are skipped); ``context`` is stored on the situation and then on its decision.

    A focus that cannot be served (insurance under rules without it, "chart or exact" before
    the tables are computed, weak spots before any miss) deals from all hands instead and
    keeps the asked focus on the row, so the page can say so.
    """
    if focus not in FOCUSES:
        raise ValueError(UNKNOWN_FOCUS)
    rng = rng if rng is not None else Random()
    if focus == INDEX_FOCUS:
        return _index_situation(user=user, rules=rules, system=system, rng=rng, context=context)
    tables = tables_get(rules)
    if tables is None:
        chart_job_ensure(rules)
    kind = Situation.Kind.PLAY
    pair = False
    points: list[int] | None = None
    up_points: int
    if focus == "insurance" and rules.insurance:
        up_points = 1
        points = insurance_points(rng, rules=rules)
        pair = points[0] == points[1]
        blackjack = sorted(points) == [1, 10]
        kind = Situation.Kind.EVEN_MONEY if blackjack else Situation.Kind.INSURANCE
    elif focus == "exact" and tables is not None and tables.exact:
        cards_, up_points, _best, _chart = rng.choice(tables.exact)
        points = list(cards_)
        rng.shuffle(points)
    else:
        weak = weak_cell(user=user, rng=rng) if focus == "weak" else None
        dealable = [c for c in (dealable_cell(*x) for x in cells) if c is not None]
        if weak is not None:
            (kind_, row, up_), example = weak
            cell = DrillCell(kind_, row, up_)
            points = example or None
        elif focus == "cells" and dealable:
            cell = rng.choice(dealable)  # the merge of the classes branch had lost this
        else:
            cell = pick_cell(
                rng,
                kind=focus if focus in ("hard", "soft", "pair") else None,
                up=up if focus == "up" else None,
            )
        up_points = cell.up
        pair = cell.kind == "pair"
        if points is None:
            multi = cell.kind == "hard" and rng.random() < MULTI_CARD_CHANCE
            points = points_for(cell, rng, multi=multi)
    hand = cards_for(points, rng, rules, pair=pair)
    up_card = card_of(up_points, rng)
    bust: float | None = None
    if kind == Situation.Kind.INSURANCE:
        ev, chart = insurance_options(rules, points), Move.DECLINE
    elif kind == Situation.Kind.EVEN_MONEY:
        ev, chart = even_money_ev(rules), Move.DECLINE
    else:
        ev, chart, bust = situation_evaluate(rules=rules, hand=hand, up=up_card, tables=tables)
    return Situation.objects.create(
        user=user,
        rules=rules.to_dict(),
        rules_key=rules.key(),
        hand=[c.code for c in hand],
        dealer_up=up_card.code,
        focus=focus,
        kind=kind,
        ev={str(m): v for m, v in ev.items()},
        chart_move=chart.value,
        dealer_bust=bust,
        context=context or None,
    )


def situation_answer(
    *, user: User, situation_id: int, move: str, time_taken_ms: int | None = None
) -> tuple[Situation, bool]:
    """Record the learner's answer; returns the situation and whether this call recorded it.

    Raises ``Situation.DoesNotExist`` for an id that is not the user's, :class:`NotAnOption`
    for a move that is not an option.  A situation already answered is returned unchanged:
    a second click or a second tab never stores a second decision.
    """
    with transaction.atomic():
        found = Situation.objects.select_for_update()
        if (next_id := next_decision_id()) is not None:  # one round trip for the writes
            found = found.annotate(next_decision_id=next_id)
        situation = found.get(pk=situation_id, user=user)
        if situation.decision_id is not None:
            return situation, False
        try:
            choice = Move(move)
        except ValueError:
            raise NotAnOption(ILLEGAL_MOVE) from None
        if choice.value not in situation.ev:
            raise NotAnOption(ILLEGAL_MOVE)
        if time_taken_ms is None:
            elapsed = timezone.now() - situation.dealt_at
            time_taken_ms = int(elapsed.total_seconds() * 1000)
        rules = Rules.from_dict(situation.rules)
        hand = [Card.parse(c) for c in situation.hand]
        pk = getattr(situation, "next_decision_id", None)
        writes = Writes() if pk is not None else None
        decision = decision_record(
            user=user,
            source=Decision.Source.DRILL,
            rules=rules,
            hand=hand,
            up=Card.parse(situation.dealer_up),
            choice=choice,
            ev={Move(m): v for m, v in situation.ev.items()},
            chart_move=Move(situation.chart_move),
            time_taken_ms=max(0, min(time_taken_ms, 2_000_000_000)),
            source_ref=f"situation:{situation.pk}",
            context=situation.context,
            writes=writes,
            pk=pk,
            count_system=situation.count_system,
            true_count=situation.true_count,
        )
        situation.decision = decision
        if writes is None:
            situation.save(update_fields=["decision"])
        else:  # the decision, its Leitner box and this pointer to it: one statement
            writes.update(situation, ["decision"])
            writes.send()
    return situation, True


def situations_delete(*, user: User) -> int:
    """Delete every drill question dealt to the user (the account deletion's part)."""
    deleted, _ = Situation.objects.filter(user=user).delete()
    counted, _ = CountQuestion.objects.filter(user=user).delete()
    return deleted + counted


# --- counting drills (issue 31) ----------------------------------------------------------


def index_evs(
    *, rules: Rules, system: CountSystem, cards_left: int, t: int, hand: Sequence[int], up: int
) -> tuple[dict[Move, float], float]:
    """The exact EV of every option of ``hand`` against ``up`` at true count ``t``, on the
    shoe the index computation used for that count (:func:`blackjack.counting.count_shoe`
    at the table's depth), and the dealer's bust chance there.  Kept in the cache: a few
    hundred cells and counts per rule set and system, each a few tens of milliseconds."""
    points = list(hand)
    cells = "-".join(map(str, points))
    key = f"trainer:index-ev:{rules.key()}:{system.key}:{cards_left}:{t}:{cells}:{up}"
    kept = cache.get(key)
    if kept is not None:
        return {Move(m): float(v) for m, v in kept[0].items()}, float(kept[1])
    shoe = count_shoe(system, rules.decks, cards_left, t)
    removed = removed_for(rules, shoe, [*points, up])
    if removed is None:  # the count shoe always holds the hand's cards: a broken table
        raise NoIndexTable(f"{points} v {up} do not fit the shoe at {t}")
    pair = len(points) == 2 and points[0] == points[1]
    analysis = analyze(rules, points, up, removed=removed, pair=pair)
    ev, bust = dict(analysis.ev), float(analysis.dealer.bust)
    cache.set(key, ({m.value: v for m, v in ev.items()}, bust), INDEX_EV_SECONDS)
    return ev, bust


def index_insurance_evs(
    *, rules: Rules, system: CountSystem, cards_left: int, t: int, hand: Sequence[int]
) -> dict[Move, float]:
    """The insurance decision of ``hand`` against an ace at true count ``t``: INSURE is what
    taking insurance adds (:func:`blackjack.insurance_gain`), DECLINE 0, on the shoe the index
    computation used for that count (:func:`blackjack.counting.count_shoe` at the table's
    depth), as the index table's insurance play was found.  Not cached: a few sums over the
    shoe (the hand fixes only which shoes fit)."""
    points = list(hand)
    shoe = count_shoe(system, rules.decks, cards_left, t)
    if removed_for(rules, shoe, [*points, 1]) is None:
        raise NoIndexTable(f"{points} v 1 do not fit the shoe at {t}")
    return {Move.INSURE: float(insurance_gain(rules, points, shoe)), Move.DECLINE: 0.0}


# How many index plays and counts are tried for one deal whose exact EVs agree with the
# table's move at that count (see :func:`_index_situation`).
INDEX_DEAL_TRIES = 12


def _index_situation(
    *, user: User, rules: Rules, system: str, rng: Random, context: str | None
) -> Situation:
    """An index drill's situation.  The exact EVs at a whole true count can disagree with the
    table's move there: the index is the crossing of the table's smoothed EVs rounded to the
    nearest count (a crossing of +3.3 makes the index +3, and on the shoe of exactly +3
    declining insurance is still worth more), and one count's shoe, made of whole cards, is a
    little off the smooth curve.  The page would then say the index play applies and call it
    the wrong move; so a deal is kept only when its best move by the EVs shown is the table's
    at that count, trying another play or count otherwise (the last one tried is kept if none
    agrees: the answer is judged by the EVs either way)."""
    count_system = SYSTEMS.get(system)
    if count_system is None:
        raise ValueError(UNKNOWN_FOCUS)
    table = indices_get(rules, count_system)
    deal = index_deal(table=table, rng=rng) if table is not None else None
    if table is None or deal is None:
        raise NoIndexTable(rules.key())
    for tried in range(1, INDEX_DEAL_TRIES + 1):
        left, t = table.cards_left, deal.true_count
        bust: float | None = None
        if deal.insurance:  # asked like the insurance drill's question, at the count
            ev = index_insurance_evs(
                rules=rules, system=count_system, cards_left=left, t=t, hand=deal.hand
            )
        else:
            ev, bust = index_evs(
                rules=rules, system=count_system, cards_left=left, t=t, hand=deal.hand,
                up=deal.up,
            )  # fmt: skip
        if best_by_ev(ev) is deal.expected or tried == INDEX_DEAL_TRIES:
            break  # the EVs are this deal's: the last one tried is kept with its own
        deal = index_deal(table=table, rng=rng) or deal
    if deal.insurance:
        kind, pair = Situation.Kind.INSURANCE, deal.hand[0] == deal.hand[1]
    else:
        kind, pair = Situation.Kind.PLAY, deal.play.kind == "pair"
    hand = cards_for(list(deal.hand), rng, rules, pair=pair)
    return Situation.objects.create(
        user=user,
        rules=rules.to_dict(),
        rules_key=rules.key(),
        hand=[c.code for c in hand],
        dealer_up=card_of(deal.up, rng).code,
        focus=INDEX_FOCUS,
        kind=kind,
        ev={str(m): v for m, v in ev.items()},
        chart_move=deal.play.basic.value,
        dealer_bust=bust,
        context=context or None,
        count_system=count_system.key,
        true_count=deal.true_count,
        index_play=deal.play.to_list(),
    )


def count_deal(
    *,
    user: User,
    rules: Rules,
    kind: str,
    system: str,
    cards: int = 10,
    pace_ms: int = 0,
    per_step: int = 1,
    rng: Random | None = None,
    context: str | None = None,
) -> CountQuestion:
    """Deal a counting question (``kind`` running or true count) and store it with its
    right answer.  The bounds of ``cards``, ``pace_ms`` and ``per_step`` are the form's."""
    count_system = SYSTEMS.get(system)
    if count_system is None or kind not in COUNT_FOCUSES:
        raise ValueError(UNKNOWN_FOCUS)
    rng = rng if rng is not None else Random()
    common = {
        "user": user,
        "kind": kind,
        "system": count_system.key,
        "rules": rules.to_dict(),
        "rules_key": rules.key(),
        "context": context or None,
    }
    if kind == CountQuestion.Kind.RUNNING:
        running = running_deal(rules=rules, system=count_system, cards=cards, rng=rng)
        return CountQuestion.objects.create(
            **common,
            cards=[c.code for c in running.cards],
            pace_ms=pace_ms,
            per_step=per_step,
            running_count=running.running,
            right_answer=running.running,
        )
    shoe = true_count_deal(rules=rules, system=count_system, rng=rng)
    return CountQuestion.objects.create(
        **common,
        running_count=shoe.running,
        cards_left=shoe.cards_left,
        right_answer=shoe.true_count,
    )


_COUNT_RE = re.compile(r"[+\-−]?[0-9]{1,4}")


def parse_count(text: str) -> int:
    """A typed count: a whole number, signed or not (the minus sign or a hyphen), ASCII
    digits only; :class:`NotACount` for anything else or beyond :data:`COUNT_LIMIT`.

    >>> parse_count(" -3 "), parse_count("+2"), parse_count("−4"), parse_count("0")
    (-3, 2, -4, 0)
    """
    text = text.strip()
    if not _COUNT_RE.fullmatch(text):
        raise NotACount(NOT_A_COUNT)
    value = int(text.replace("−", "-"))
    if abs(value) > COUNT_LIMIT:
        raise NotACount(NOT_A_COUNT)
    return value


def showing_ms(question: CountQuestion) -> int:
    """How long the cards were being shown, by the pace chosen: not part of the answer time."""
    steps = math.ceil(len(question.cards) / max(question.per_step, 1))
    return question.pace_ms * steps


def count_answer(*, user: User, question_id: int, text: str) -> tuple[CountQuestion, bool]:
    """Record the number typed for a counting question; returns the question and whether
    this call recorded it.  ``CountQuestion.DoesNotExist`` for an id that is not the user's,
    :class:`NotACount` for text that is not a count; a question answered already is returned
    unchanged (a second click or tab never stores a second decision)."""
    value = parse_count(text)
    with transaction.atomic():
        question = CountQuestion.objects.select_for_update().get(pk=question_id, user=user)
        if question.decision_id is not None:
            return question, False
        elapsed = int((timezone.now() - question.dealt_at).total_seconds() * 1000)
        taken = max(0, min(elapsed - showing_ms(question), 2_000_000_000))
        category = (
            Decision.Category.RUNNING_COUNT
            if question.kind == CountQuestion.Kind.RUNNING
            else Decision.Category.TRUE_COUNT
        )
        question.decision = count_answer_record(
            user=user,
            source=Decision.Source.DRILL,
            category=category,
            count_system=question.system,
            rules=Rules.from_dict(question.rules),
            answer=value,
            right_answer=question.right_answer,
            shown=[Card.parse(c) for c in question.cards],
            running_count=question.running_count,
            true_count=question.right_answer if category == Decision.Category.TRUE_COUNT else None,
            cards_left=question.cards_left,
            time_taken_ms=taken,
            source_ref=f"count:{question.pk}",
            context=question.context,
        )
        question.save(update_fields=["decision"])
    return question, True
