from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from accounts.models import User
from blackjack import PRESETS, Move, parse_cards
from decisions import services
from decisions.models import WeakSpot
from decisions.services import decision_record

pytestmark = pytest.mark.django_db
THOTH = PRESETS["thoth"]


@pytest.fixture
def user():
    return User.objects.create_user(username="ani", password="x")


def _record(user, hand, up, choice, ev, chart):
    return decision_record(
        user=user, source="drill", rules=THOTH, hand=parse_cards(hand),
        up=parse_cards(up)[0], choice=choice, ev=ev, chart_move=chart,
    )  # fmt: skip


def test_weak_spots_move_through_leitner_boxes(user):
    ev = {Move.STAND: -0.54, Move.HIT: -0.53}
    _record(user, "10s 6d", "10h", Move.STAND, ev, Move.HIT)
    spot = WeakSpot.objects.get(user=user)
    assert (spot.chart_kind, spot.chart_row, spot.dealer_points) == ("hard", 16, 10)
    assert (spot.box, spot.misses, spot.example) == (1, 1, [10, 6])
    for box in (2, 3, 4, 5):
        _record(user, "9s 7d", "Kh", Move.HIT, ev, Move.HIT)
        spot.refresh_from_db()
        assert spot.box == box
        assert spot.due_at > timezone.now() + services.LEITNER_INTERVALS[box] - timedelta(minutes=1)
    _record(user, "10s 6d", "10h", Move.STAND, ev, Move.HIT)  # a miss: back to box 1
    spot.refresh_from_db()
    assert (spot.box, spot.misses) == (1, 2)
    for _ in range(5):
        _record(user, "10s 6d", "10h", Move.HIT, ev, Move.HIT)
    assert not WeakSpot.objects.exists()  # right five times in a row: retired


@pytest.mark.parametrize("box", [None, 1, 3, 5])
@pytest.mark.parametrize("choice", [Move.STAND, Move.HIT])
def test_a_decision_costs_one_statement_of_leitner_boxes(
    user, box, choice, django_assert_num_queries
):
    """One insert of the decision and one statement of Leitner boxes: a miss's upsert, or a
    right answer's retiring and moving up (one on PostgreSQL, two elsewhere)."""
    if box is not None:
        WeakSpot.objects.create(
            user=user, chart_kind="hard", chart_row=16, dealer_points=10, box=box, misses=1,
            due_at=timezone.now(), example=[10, 6],
        )  # fmt: skip
    in_two = choice == Move.HIT and connection.vendor != "postgresql"
    with django_assert_num_queries(3 if in_two else 2):
        _record(user, "10s 6d", "10h", choice, {Move.STAND: -0.54, Move.HIT: -0.53}, Move.HIT)
    spot = WeakSpot.objects.filter(user=user).first()
    if choice == Move.STAND:  # a miss: box 1, one more miss
        assert spot is not None and (spot.box, spot.misses) == (1, 1 if box is None else 2)
    elif box is None or box == 5:  # right: nothing to move, or retired
        assert spot is None
    else:
        assert spot is not None and (spot.box, spot.misses) == (box + 1, 1)


@pytest.mark.parametrize("source", ["drill", "table"])
def test_a_move_made_at_a_count_moves_no_leitner_box(user, source):
    """An index answer, judged at a count, and a move at a count-mode table, where the coach
    plays the index, say nothing of the chart's cell: no weak spot is made, none moves
    (issue 31).  The table's case made a weak spot before."""
    ev = {Move.STAND: -0.54, Move.HIT: -0.53}
    WeakSpot.objects.create(
        user=user, chart_kind="hard", chart_row=12, dealer_points=4, box=2, misses=1,
        due_at=timezone.now(), example=[10, 2],
    )  # fmt: skip
    for hand, up, choice in (("10s 6d", "10h", Move.STAND), ("10s 2d", "4h", Move.HIT)):
        decision_record(
            user=user, source=source, rules=THOTH, hand=parse_cards(hand),
            up=parse_cards(up)[0], choice=choice, ev=ev, chart_move=Move.HIT,
            count_system="hilo", true_count=2, running_count=8, cards_left=200,
        )  # fmt: skip
    spots = list(WeakSpot.objects.filter(user=user).values_list("chart_row", "box", "misses"))
    assert spots == [(12, 2, 1)]
