"""Fixtures of the users' own data: a learner with something of every kind stored, and
someone else with the same kinds, whose rows must never show up or go."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from classroom import services as class_services
from classroom.models import Assignment, Classroom
from decisions.models import WeakSpot
from game import services as game_services
from game.models import Round, Table
from tests.classroom.conftest import THOTH, make_decision
from tests.classroom.conftest import user as make_user
from tests.game.conftest import PASSWORD, learner, other, rig, tables  # noqa: F401  (fixtures)
from trainer.models import Situation

# The rigged live round's hole card and the cards its shoe deals next: never in an export.
HOLE = "Qc"
NEXT = "Jd"
FILLER = "4c"  # tests.game.conftest's filler: the undealt shoe
OTHER_SECRET = "Otherwise-Hidden-7731"  # every text field of the other user's rows
NOTE = "Private teacher note 5521"


@dataclass
class World:
    learner: User
    other: User
    teacher: User
    klass: Classroom
    assignment: Assignment
    live: Round
    settled: Round


def situation(user: User, *, answered=None, hand=("10s", "6d")) -> Situation:
    return Situation.objects.create(
        user=user,
        rules=THOTH.to_dict(),
        rules_key=THOTH.key(),
        hand=list(hand),
        dealer_up="10h",
        focus="hard",
        ev={"hit": -0.53, "stand": -0.54},
        chart_move="hit",
        dealer_bust=0.21,
        decision=answered,
    )


def weak_spot(user: User) -> WeakSpot:
    return WeakSpot.objects.create(
        user=user,
        chart_kind="hard",
        chart_row=16,
        dealer_points=10,
        box=2,
        misses=3,
        due_at=timezone.now() + timedelta(days=1),
        example=[10, 6],
    )


def fill(user: User, scribes: Table, shoe) -> tuple[Round, Round]:
    """A settled round, then one in play (hole card HOLE, next card NEXT), two decisions,
    an answered and an open drill question, a weak spot.  ``shoe`` is the ``rig`` fixture."""
    shoe(user, scribes, boxes=["10s 9d"], dealer="10h 7c")
    settled = game_services.round_deal(user=user, table=scribes, bets={0: 100})
    settled = game_services.round_apply_move(
        round_id=settled.pk, user=user, move="stand", seq=settled.seq
    ).round
    assert settled.status == "settled"
    shoe(user, scribes, boxes=["10d 6s"], dealer=f"9h {HOLE}", rest=NEXT)
    live_round = game_services.round_deal(user=user, table=scribes, bets={0: 100})
    assert live_round.status == "playing"
    d = make_decision(user, correct=False, lost=0.04, choice="stand", best="hit")
    situation(user, answered=d)
    situation(user, hand=("9s", "7d"))
    make_decision(user)
    weak_spot(user)
    return live_round, settled


@pytest.fixture
def world(tables, rig) -> World:  # noqa: F811
    me = User.objects.create_user(
        username="nefer", password=PASSWORD, display_name="Nefer", real_name="Nefertari Amun"
    )
    someone = User.objects.create_user(
        username="someone",
        password=PASSWORD,
        display_name=OTHER_SECRET,
        real_name=OTHER_SECRET,
    )
    teacher = make_user("teacher", teacher=True, display_name="Thoth")
    teacher.set_password(PASSWORD)
    teacher.save()
    live, settled = fill(me, tables["scribes"], rig)
    fill(someone, tables["scribes"], rig)
    klass = class_services.class_create(owner=teacher, name="Year 9")
    class_services.class_join(user=me, classroom=klass)
    class_services.class_join(user=someone, classroom=klass)
    for m in klass.memberships.all():
        class_services.note_set(membership=m, note=NOTE)
    assignment = class_services.assignment_create(
        classroom=klass,
        created_by=teacher,
        title="Hard totals",
        settings={"focus": "hard", "up": "6", "preset": "thoth"},
        rules=THOTH,
        hands=2,
        target_accuracy=50,
    )
    make_decision(me, context=assignment.context)
    make_decision(someone, context=assignment.context, correct=False, lost=0.2)
    return World(me, someone, teacher, klass, assignment, live, settled)
