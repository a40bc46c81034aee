"""Writes of the decision record: one decision stored, its chart cell's Leitner box moved.

Play mode and the trainer store every choice a learner makes through
:func:`decision_record`, so that statistics and the teachers' dashboards read one table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta

from django.db import connection
from django.db.models.expressions import RawSQL
from django.utils import timezone

from accounts.models import User
from blackjack import Card, Move, Rules, best_by_ev, cell_key, hand_total, is_best_choice, is_pair
from core.rows import delete_rows, insert_row
from core.writes import Writes
from decisions.models import CELLESS_CATEGORIES, COUNT_CATEGORIES, Decision, WeakSpot


def chart_cell(*, rules: Rules, hand: Sequence[Card], up: Card) -> tuple[str, int, int]:
    """The chart cell a hand of cards falls in (:func:`blackjack.cell_key`, the pair row for
    first two cards the rules let split)."""
    pair = len(hand) == 2 and is_pair(hand, rules)
    return cell_key([c.points for c in hand], up.points, pair=pair)


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
    writes: Writes | None = None,
    pk: int | None = None,
    count_system: str = "",
    true_count: int | None = None,
    running_count: int | None = None,
    cards_left: int | None = None,
) -> Decision:
    """Store one decision.  ``ev`` holds the EV of every legal option (per unit of the initial
    bet); for an insurance decision its keys are INSURE and DECLINE (holding a blackjack, INSURE
    is even money and the decision's category says so).  ``context`` is the opaque
    tag of the drill it was answered in (see :mod:`trainer.context`).  A decision made with a
    count (an index drill, a count-mode table) gives the system's key and the true count it
    was played at (and, if known, the running count and the cards left).

    Given ``writes``, the decision and its Leitner box are added to them, sent with the
    caller's other writes, and the decision's id is not read back: it is ``pk`` if given
    (taken beforehand, :func:`next_decision_id`), else unknown (play mode's moves need none).
    Without ``writes`` both are written now and the id is set."""
    if choice not in ev:
        raise ValueError(f"{choice} is not among the options {sorted(ev)}")
    best = best_by_ev(ev)
    assert best is not None  # ev holds the choice
    kind, row, dealer = chart_cell(rules=rules, hand=hand, up=up)
    if choice in (Move.INSURE, Move.DECLINE):
        # Holding a blackjack, INSURE is even money: recorded as that question, not insurance.
        blackjack = len(hand) == 2 and hand_total(hand).best == 21
        category = Decision.Category.EVEN_MONEY if blackjack else Decision.Category.INSURANCE
    else:
        category = {"pair": Decision.Category.PAIR, "soft": Decision.Category.SOFT}.get(
            kind, Decision.Category.HARD
        )
    lost = max(0.0, ev[best] - ev[choice])
    decision = Decision(
        id=pk,
        user=user,
        source=source,
        source_ref=source_ref,
        context=context or None,
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
        correct=is_best_choice(ev, choice),
        time_taken_ms=time_taken_ms,
        count_system=count_system,
        true_count=true_count,
        running_count=running_count,
        cards_left=cards_left,
    )
    if writes is None:
        insert_row(decision)  # on every answer: the INSERT written out once
    else:
        writes.insert(decision)
    weak_spot_update(decision=decision, hand_points=[c.points for c in hand], writes=writes)
    return decision


def count_answer_record(
    *,
    user: User,
    source: str,
    category: str,
    count_system: str,
    rules: Rules,
    answer: int,
    right_answer: int,
    shown: Sequence[Card] = (),
    running_count: int | None = None,
    true_count: int | None = None,
    cards_left: int | None = None,
    time_taken_ms: int | None = None,
    source_ref: str = "",
    context: str | None = None,
    pk: int | None = None,
) -> Decision:
    """Store one counting answer: a number typed (``answer``) against the right one.

    ``category`` is RUNNING_COUNT or TRUE_COUNT; ``shown`` the cards the learner counted (a
    running-count drill).  The answer has no move, chart cell or EV: those fields are empty,
    ``ev_lost`` 0, and no weak spot moves (the learner's counting misses are read from the
    decisions themselves)."""
    if category not in COUNT_CATEGORIES:
        raise ValueError(f"{category!r} is not a counting category")
    decision = Decision(
        id=pk,
        user=user,
        source=source,
        source_ref=source_ref,
        context=context or None,
        rules=rules.to_dict(),
        rules_key=rules.key(),
        hand=[c.code for c in shown],
        dealer_up="",
        removed=[],
        category=category,
        chart_kind="",
        chart_row=0,
        dealer_points=0,
        choice="",
        best="",
        chart_move="",
        ev={},
        ev_lost=0.0,
        correct=answer == right_answer,
        time_taken_ms=time_taken_ms,
        count_system=count_system,
        running_count=running_count,
        true_count=true_count,
        cards_left=cards_left,
        answer=answer,
        right_answer=right_answer,
    )
    insert_row(decision)
    return decision


def next_decision_id() -> RawSQL | None:
    """On PostgreSQL, an annotation that takes the next decision's id from the table's
    sequence, for a query the caller makes anyway (the row it locks): the decision can then be
    written with the caller's other writes and be pointed at in them.  An id taken and not
    used leaves a gap, as a rolled-back insert does.  ``None`` elsewhere (the id is read back).
    """
    if connection.vendor != "postgresql":
        return None
    return RawSQL("nextval(pg_get_serial_sequence(%s, 'id'))", [Decision._meta.db_table])


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


def weak_spot_update(
    *, decision: Decision, hand_points: Sequence[int], writes: Writes | None = None
) -> None:
    """Move the decision's chart cell between Leitner boxes: a miss sends it to box 1 (and
    makes it a weak spot if it was not one), a right answer moves it up a box, out after 5.
    A decision without a cell, or made at a count (:data:`decisions.models.WITHOUT_COUNT`),
    moves none.

    A miss is an upsert (insert with one miss, or back to box 1 with one more); a right answer
    retires the cell from the last box and moves it up from any other (no row: nothing
    changes).  Both parts of a right answer go as one statement on PostgreSQL
    (:class:`core.writes.Writes`; they change different rows: a cell is in the last box or not).
    The upsert also makes two simultaneous misses of one new cell safe: neither fails on the
    unique constraint.  Added to ``writes`` when given (sent with the caller's other writes),
    else sent now; inside the caller's transaction (a move, an answer) either way.
    """
    if decision.category in CELLESS_CATEGORIES:
        return
    if decision.count_system:
        # A move made at a count (an index drill's answer, judged at the count; a count-mode
        # table's, where the coach plays the index) says nothing of the chart's cell: a weak
        # spot's review deals the cell from a full shoe, where the basic move is right.
        return
    key: list[int | str] = [
        decision.user_id,
        decision.chart_kind,
        decision.chart_row,
        decision.dealer_points,
    ]
    now = timezone.now()
    adapt = connection.ops.adapt_datetimefield_value
    mine = writes if writes is not None else Writes()
    if decision.correct:
        mine.add(_RETIRE_SQL, [*key, LAST_BOX])
        dues = [adapt(now + wait) for wait in LEITNER_INTERVALS.values()]
        mine.add(_PROMOTE_SQL, [*dues, adapt(now), *key, LAST_BOX])
    else:
        example = _EXAMPLE.get_db_prep_save(list(hand_points), connection)
        mine.add(_MISS_SQL, [*key, adapt(now), example])
    if writes is None:
        mine.send()


_EXAMPLE = WeakSpot._meta.get_field("example")
_CELL = "user_id, chart_kind, chart_row, dealer_points"
_CELL_WHERE = "WHERE user_id = %s AND chart_kind = %s AND chart_row = %s AND dealer_points = %s"
# A miss: the cell (back) in box 1, due now, with the missed hand as its example and one
# more miss (its first, for a new cell).
_MISS_SQL = (
    f"INSERT INTO {WeakSpot._meta.db_table} ({_CELL}, box, misses, due_at, example)"
    f" VALUES (%s, %s, %s, %s, 1, 1, %s, %s) ON CONFLICT ({_CELL}) DO UPDATE SET"
    " box = EXCLUDED.box, due_at = EXCLUDED.due_at, example = EXCLUDED.example,"
    f" misses = {WeakSpot._meta.db_table}.misses + 1"
)
# A right answer: out of the last box; from box b < last to b + 1, due after b + 1's interval.
# (Retired first: one after the other, the promoted cell would leave its new last box too.)
LAST_BOX = max(LEITNER_INTERVALS)
_RETIRE_SQL = f"DELETE FROM {WeakSpot._meta.db_table} {_CELL_WHERE} AND box >= %s"
_PROMOTE_SQL = (
    f"UPDATE {WeakSpot._meta.db_table} SET box = box + 1, due_at = CASE box "
    + " ".join(f"WHEN {box - 1} THEN %s" for box in LEITNER_INTERVALS)
    + f" ELSE %s END {_CELL_WHERE} AND box < %s"
)


def decisions_delete(*, user: User) -> dict[str, int]:
    """Delete every decision and weak spot of the user (the account deletion's part).

    The trainer's drill questions point at decisions (set to null on delete); once the
    trainer has deleted the user's, the decisions go in one statement, however many
    (:func:`core.rows.delete_rows`).
    """
    decisions = delete_rows(Decision, user_id=user.pk)
    weak_spots = delete_rows(WeakSpot, user_id=user.pk)
    return {"decisions": decisions, "weak_spots": weak_spots}
