"""Writes of the trainer app."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Mapping, Sequence
from datetime import timedelta
from random import Random
from typing import Any

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from blackjack.cards import Card
from blackjack.ev import analyze, decision_shoe, legal_moves
from blackjack.hand import hand_total, is_pair
from blackjack.moves import Move
from blackjack.rules import Rules
from trainer.charts import (
    Tables,
    chart_key,
    chart_move_with,
    compute_tables,
    is_pair_hand,
    live_cell,
    table_key,
)
from trainer.dealing import (
    MULTI_CARD_CHANCE,
    Cell,
    card_of,
    cards_for,
    dealable_cell,
    insurance_points,
    pick_cell,
    points_for,
)
from trainer.models import ChartJob, ComputedTable, Decision, Situation, WeakSpot
from trainer.selectors import tables_get
from trainer.store import DatabaseTableStore

logger = logging.getLogger(__name__)

# Two EVs closer than this are the same decision: a choice within it of the best is correct.
EV_TIE = 1e-9


def chart_cell(*, rules: Rules, hand: Sequence[Card], up: Card) -> tuple[str, int, int]:
    """The chart cell a hand falls in: ("pair", pair card points, up) for a splittable first two
    cards, else ("soft" | "hard", total, up)."""
    if len(hand) == 2 and is_pair(hand, rules):
        return "pair", hand[0].points, up.points
    total = hand_total(hand)
    return ("soft" if total.soft else "hard"), total.best, up.points


def decision_record(
    *,
    user: User,
    source: str,
    rules: Rules,
    hand: Sequence[Card],
    up: Card,
    choice: Move,
    ev: Mapping[Move, float],
    chart_move: Move,
    removed: Sequence[Card] = (),
    time_taken_ms: int | None = None,
    source_ref: str = "",
    context: str | None = None,
) -> Decision:
    """Store one decision.  ``ev`` holds the EV of every legal option (per unit of the initial
    bet); for an insurance decision its keys are INSURE and DECLINE.  ``context`` is the opaque
    tag of the drill it was answered in (see :mod:`trainer.context`)."""
    if choice not in ev:
        raise ValueError(f"{choice} is not among the options {sorted(ev)}")
    best = max(ev, key=lambda m: ev[m])
    kind, row, dealer = chart_cell(rules=rules, hand=hand, up=up)
    if choice in (Move.INSURE, Move.DECLINE):
        category = Decision.Category.INSURANCE
    else:
        category = {"pair": Decision.Category.PAIR, "soft": Decision.Category.SOFT}.get(
            kind, Decision.Category.HARD
        )
    lost = max(0.0, ev[best] - ev[choice])
    decision = Decision.objects.create(
        user=user,
        source=source,
        source_ref=source_ref,
        rules=rules.to_dict(),
        rules_key=rules.key(),
        hand=[c.code for c in hand],
        dealer_up=up.code,
        removed=[c.code for c in removed],
        category=category,
        chart_kind=kind,
        chart_row=row,
        dealer_points=dealer,
        choice=choice.value,
        best=best.value,
        chart_move=chart_move.value,
        ev={m.value: v for m, v in ev.items()},
        ev_lost=lost,
        correct=lost <= EV_TIE,
        time_taken_ms=time_taken_ms,
        context=context or None,
    )
    weak_spot_update(decision=decision, hand_points=[c.points for c in hand])
    return decision


# --- weak spots: Leitner boxes per chart cell ------------------------------------------------

# How long a cell rests in each box before it is due again; a right answer in the last box
# retires it.
LEITNER_INTERVALS: dict[int, timedelta] = {
    1: timedelta(0),
    2: timedelta(minutes=10),
    3: timedelta(hours=1),
    4: timedelta(days=1),
    5: timedelta(days=3),
}


def weak_spot_update(*, decision: Decision, hand_points: Sequence[int]) -> None:
    """Move the decision's chart cell between Leitner boxes: a miss sends it to box 1 (and
    makes it a weak spot if it was not one), a right answer moves it up a box, out after 5.

    Always two queries, whatever the cell's state, so that a round at the table costs the
    same number of queries per move: a miss is an upsert (insert, or back to box 1) and then
    one more miss counted; a right answer deletes the cell if it was in the last box and
    moves it up a box otherwise (no row: nothing changes).  The upsert also makes two
    simultaneous misses of one new cell safe: neither fails on the unique constraint.
    """
    if decision.category == Decision.Category.INSURANCE:
        return
    key = [decision.user_id, decision.chart_kind, decision.chart_row, decision.dealer_points]
    now = timezone.now()
    adapt = connection.ops.adapt_datetimefield_value
    # Plain statements, written out once, rather than ORM queries compiled on every move.
    with connection.cursor() as cursor:
        if not decision.correct:
            example = _EXAMPLE.get_db_prep_save(list(hand_points), connection)
            cursor.execute(_MISS_SQL, [*key, adapt(now), example])
            cursor.execute(_COUNT_MISS_SQL, key)
            return
        cursor.execute(_RETIRE_SQL, [*key, max(LEITNER_INTERVALS)])
        dues = [adapt(now + wait) for wait in LEITNER_INTERVALS.values()]
        cursor.execute(_PROMOTE_SQL, [*dues, adapt(now), *key])


_EXAMPLE = WeakSpot._meta.get_field("example")
_CELL = "user_id, chart_kind, chart_row, dealer_points"
_CELL_WHERE = "WHERE user_id = %s AND chart_kind = %s AND chart_row = %s AND dealer_points = %s"
# A miss: the cell (back) in box 1, due now, with the missed hand as its example; then one
# more miss counted.
_MISS_SQL = (
    f"INSERT INTO {WeakSpot._meta.db_table} ({_CELL}, box, misses, due_at, example)"
    f" VALUES (%s, %s, %s, %s, 1, 0, %s, %s) ON CONFLICT ({_CELL}) DO UPDATE SET"
    " box = EXCLUDED.box, due_at = EXCLUDED.due_at, example = EXCLUDED.example"
)
_COUNT_MISS_SQL = f"UPDATE {WeakSpot._meta.db_table} SET misses = misses + 1 {_CELL_WHERE}"
# A right answer: out after the last box; else from box b to b + 1, due after b + 1's interval.
_RETIRE_SQL = f"DELETE FROM {WeakSpot._meta.db_table} {_CELL_WHERE} AND box >= %s"
_PROMOTE_SQL = (
    f"UPDATE {WeakSpot._meta.db_table} SET box = box + 1, due_at = CASE box "
    + " ".join(f"WHEN {box - 1} THEN %s" for box in LEITNER_INTERVALS)
    + f" ELSE %s END {_CELL_WHERE}"
)


# --- the drill: deal and answer --------------------------------------------------------------

FOCUSES: tuple[str, ...] = (
    "all", "hard", "soft", "pair", "up", "insurance", "exact", "weak", "cells"
)  # fmt: skip
ILLEGAL_MOVE = _("That move is not one of the options in this situation.")
UNKNOWN_FOCUS = "Unknown drill focus."


class IllegalMove(ValueError):
    """A move that is not an option of the situation answered."""


def insurance_ev(rules: Rules, points: Sequence[int]) -> dict[Move, float]:
    """What insuring adds to the hand's EV per unit of the initial bet, against declining (0):
    the side bet of half the bet wins 2:1 when the hole card is a ten.  The same formula as
    :func:`blackjack.ev.analyze` uses for a hand that is not a blackjack."""
    comp = decision_shoe(rules, points, 1)
    p_ten = comp[9] / sum(comp)
    return {Move.INSURE: 0.5 * (3.0 * p_ten - 1.0), Move.DECLINE: 0.0}


def situation_evaluate(
    *, rules: Rules, hand: Sequence[Card], up: Card, tables: Tables | None
) -> tuple[dict[Move, float], Move, float]:
    """The EV of every legal option of a drill hand (full shoe less the cards shown), the
    chart's move and the dealer's bust chance.  Hands the stored tables hold are read, others
    analysed now."""
    points = [c.points for c in hand]
    pair = is_pair_hand(rules, [c.rank for c in hand])
    legal = legal_moves(rules, points, up.points, pair=pair)
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


def _weak_cell(user: User, rng: Random) -> tuple[Cell, list[int]] | None:
    """A weak spot to review: due cells weigh their misses times (6 - box); cells not due yet
    weigh a tenth of that, so a cell answered right comes back later, not never."""
    now = timezone.now()
    spots = list(WeakSpot.objects.filter(user=user).exclude(chart_kind="")[:200])
    if not spots:
        return None
    weights = [s.misses * (6 - s.box) * (1.0 if s.due_at <= now else 0.1) for s in spots]
    spot = rng.choices(spots, weights=weights)[0]
    return Cell(spot.chart_kind, spot.chart_row, spot.dealer_points), list(spot.example)


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
        kind = Situation.Kind.INSURANCE
        up_points = 1
        points = insurance_points(rng)
        pair = points[0] == points[1]
    elif focus == "exact" and tables is not None and tables.exact:
        cards_, up_points, _best, _chart = rng.choice(tables.exact)
        points = list(cards_)
        rng.shuffle(points)
    else:
        weak = _weak_cell(user, rng) if focus == "weak" else None
        dealable = [c for c in (dealable_cell(*cell) for cell in cells) if c is not None]
        if focus == "cells" and dealable:
            weak = rng.choice(dealable), []
        if weak is not None:
            cell, example = weak
            points = example or None
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
        ev, chart = insurance_ev(rules, points), Move.DECLINE
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

    Raises ``Situation.DoesNotExist`` for an id that is not the user's, :class:`IllegalMove`
    for a move that is not an option.  A situation already answered is returned unchanged:
    a second click or a second tab never stores a second decision.
    """
    with transaction.atomic():
        situation = Situation.objects.select_for_update().get(pk=situation_id, user=user)
        if situation.decision_id is not None:
            return situation, False
        try:
            choice = Move(move)
        except ValueError:
            raise IllegalMove(ILLEGAL_MOVE) from None
        if choice.value not in situation.ev:
            raise IllegalMove(ILLEGAL_MOVE)
        if time_taken_ms is None:
            elapsed = timezone.now() - situation.dealt_at
            time_taken_ms = int(elapsed.total_seconds() * 1000)
        rules = Rules.from_dict(situation.rules)
        hand = [Card.parse(c) for c in situation.hand]
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
        )
        situation.decision = decision
        situation.save(update_fields=["decision"])
    return situation, True


# --- computing a rule set's tables -----------------------------------------------------------

# Tests switch this off and run the job in the test's own thread.
RUN_JOBS_IN_THREADS = True
# A job whose row has not moved for this long is taken to have died with its process.
STALE_JOB = timedelta(minutes=2)


def tables_store(
    *, rules: Rules, data: dict[str, Any], chart: dict[str, Any] | None = None
) -> None:
    """Store a rule set's drill document (and its chart, when given)."""
    store = DatabaseTableStore()
    if chart is not None:
        store.put(chart_key(rules), json.dumps(chart).encode())
    store.put(table_key(rules), json.dumps(data).encode())


def tables_stored(rules: Rules) -> bool:
    return ComputedTable.objects.filter(key__in=[table_key(rules), chart_key(rules)]).count() == 2


def chart_job_run(*, rules: Rules) -> None:
    """Compute and store a rule set's tables, reporting progress on its ``ChartJob``."""
    key = rules.key()

    def progress(done: int, total: int) -> None:
        ChartJob.objects.filter(rules_key=key).update(
            done=done, total=total, updated_at=timezone.now()
        )

    try:
        data = compute_tables(rules, progress, store=DatabaseTableStore())
        tables_store(rules=rules, data=data)
        ChartJob.objects.filter(rules_key=key).update(finished=True, updated_at=timezone.now())
    except Exception as exc:  # shown on the progress page; the next visit retries
        ChartJob.objects.filter(rules_key=key).update(error=repr(exc)[:500])
        raise


def _run_in_thread(rules: Rules) -> None:
    try:
        chart_job_run(rules=rules)
    except Exception:
        logger.exception("computing the tables of %s failed", rules.key())
    finally:
        connection.close()


def chart_job_ensure(rules: Rules) -> ChartJob | None:
    """Start computing the tables of ``rules`` unless they are stored or being computed.

    Returns the job to show progress for, ``None`` when the tables are ready.  Only the
    process that creates (or takes over a stale) job row starts the work, so several app
    servers never compute the same tables twice.
    """
    if tables_stored(rules):
        return None
    now = timezone.now()
    job, created = ChartJob.objects.get_or_create(
        rules_key=rules.key(), defaults={"rules": rules.to_dict()}
    )
    start = created
    if not created and (job.error or (not job.finished and job.updated_at < now - STALE_JOB)):
        # Take the job over only if nobody else did since we read it.
        start = bool(
            ChartJob.objects.filter(pk=job.pk, updated_at=job.updated_at).update(
                done=0, error="", finished=False, updated_at=now
            )
        )
        job.refresh_from_db()
    if start:
        if RUN_JOBS_IN_THREADS:
            transaction.on_commit(
                lambda: threading.Thread(target=_run_in_thread, args=(rules,), daemon=True).start()
            )
        else:
            chart_job_run(rules=rules)
            job.refresh_from_db()
    return job
