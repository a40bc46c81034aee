"""Writes of the trainer app: dealing a drill situation and recording its answer.

The answer is stored as a decision through :mod:`decisions.services`; the tables a deal
reads come from :mod:`computed`.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from blackjack import (
    Card,
    Move,
    Rules,
    analyze,
    insurance_options,
    is_pair,
    legal_moves_for_points,
)
from computed.selectors import tables_get
from computed.services import chart_job_ensure
from computed.tables import Tables, chart_move_with, live_cell
from core.writes import Writes
from decisions.models import Decision
from decisions.selectors import weak_cell
from decisions.services import decision_record, next_decision_id
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
from trainer.models import Situation

FOCUSES: tuple[str, ...] = (
    "all", "hard", "soft", "pair", "up", "insurance", "exact", "weak", "cells"
)  # fmt: skip
ILLEGAL_MOVE = _("That move is not one of the options in this situation.")
UNKNOWN_FOCUS = "Unknown drill focus."


class NotAnOption(ValueError):
    """A move that is not an option of the situation answered."""


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
) -> Situation:
    """Deal the next drill situation for ``focus`` and store it with its exact analysis.

    Focus ``"cells"`` deals from the chart cells given, ``(kind, row, up)`` (cells no two-card
    hand falls in are skipped); ``context`` is stored on the situation and then on its decision.

    A focus that cannot be served (insurance under rules without it, "chart or exact" before
    the tables are computed, weak spots before any miss) deals from all hands instead and
    keeps the asked focus on the row, so the page can say so.
    """
    if focus not in FOCUSES:
        raise ValueError(UNKNOWN_FOCUS)
    rng = rng if rng is not None else Random()
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
    return deleted
