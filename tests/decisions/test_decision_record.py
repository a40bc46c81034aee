import pytest

from accounts.models import User
from blackjack import PRESETS, Move, parse_cards
from decisions.models import Decision
from decisions.services import chart_cell, decision_record

pytestmark = pytest.mark.django_db
RULES = PRESETS["thoth"]


@pytest.fixture
def user():
    return User.objects.create_user(username="ani", password="x")


@pytest.mark.parametrize(
    ("hand", "up", "cell"),
    [
        ("8s 8d", "6h", ("pair", 8, 6)),
        ("Ks Qd", "As", ("pair", 10, 1)),
        ("As 6d", "10c", ("soft", 17, 10)),
        ("As 6d 9c", "10c", ("hard", 16, 10)),
        ("10s 6d", "7c", ("hard", 16, 7)),
    ],
)
def test_chart_cell(hand, up, cell):
    assert chart_cell(rules=RULES, hand=parse_cards(hand), up=parse_cards(up)[0]) == cell


def test_chart_cell_ranks_only_rules_do_not_pair_king_ten():
    rules = PRESETS["live"]
    assert chart_cell(rules=rules, hand=parse_cards("Ks 10d"), up=parse_cards("5h")[0]) == (
        "hard",
        20,
        5,
    )


def test_decision_record_stores_the_situation_and_the_cost(user):
    hand, (up,) = parse_cards("10s 6d"), parse_cards("10h")
    ev = {Move.STAND: -0.54, Move.HIT: -0.53, Move.DOUBLE: -1.06}
    d = decision_record(
        user=user, source="drill", rules=RULES, hand=hand, up=up, choice=Move.STAND, ev=ev,
        chart_move=Move.HIT, time_taken_ms=1500, source_ref="situation:3",
    )  # fmt: skip
    d.refresh_from_db()
    assert (d.best, d.choice, d.chart_move, d.correct) == ("hit", "stand", "hit", False)
    assert d.ev_lost == pytest.approx(0.01)
    assert (d.category, d.chart_kind, d.chart_row, d.dealer_points) == ("hard", "hard", 16, 10)
    assert d.hand == ["10s", "6d"] and d.dealer_up == "10h"
    assert d.rules_key == RULES.key() and d.rules == RULES.to_dict()
    assert d.ev == {"stand": -0.54, "hit": -0.53, "double": -1.06}


def test_insurance_decision_is_its_own_category(user):
    d = decision_record(
        user=user, source="table", rules=RULES, hand=parse_cards("9s 7d"),
        up=parse_cards("Ah")[0], choice=Move.DECLINE,
        ev={Move.INSURE: -0.04, Move.DECLINE: 0.0}, chart_move=Move.DECLINE,
    )  # fmt: skip
    assert d.category == Decision.Category.INSURANCE and d.correct and d.ev_lost == 0


def test_a_choice_that_was_not_an_option_is_refused(user):
    with pytest.raises(ValueError):
        decision_record(
            user=user, source="drill", rules=RULES, hand=parse_cards("10s 6d"),
            up=parse_cards("9h")[0], choice=Move.SPLIT,
            ev={Move.STAND: -0.5, Move.HIT: -0.4}, chart_move=Move.HIT,
        )  # fmt: skip
    assert not Decision.objects.exists()
