from random import Random

import pytest

from accounts.models import User
from blackjack import PRESETS, Card, Move, analyze, parse_cards
from computed import services as computed_services
from decisions.models import Decision
from decisions.services import decision_record
from tests.computed.docs import docs_for
from trainer.models import Situation
from trainer.services import ILLEGAL_MOVE, NotAnOption, situation_answer, situation_deal

pytestmark = pytest.mark.django_db
THOTH = PRESETS["thoth"]


@pytest.fixture
def user():
    return User.objects.create_user(username="ani", password="x")


def _points(s: Situation) -> list[int]:
    return [Card.parse(c).points for c in s.hand]


def test_deal_stores_the_engines_ev_and_the_chart_move(user, thoth_tables):
    rng = Random(1)
    for _ in range(25):
        s = situation_deal(user=user, rules=THOTH, rng=rng)
        points, up = _points(s), Card.parse(s.dealer_up).points
        pair = len(points) == 2 and points[0] == points[1]
        engine = analyze(THOTH, points, up, pair=pair).ev
        assert {Move(m): v for m, v in s.ev.items()} == pytest.approx(engine, abs=1e-12)
        assert s.chart_move in s.ev
        assert s.rules_key == THOTH.key() and s.decision is None


@pytest.mark.parametrize(
    ("focus", "check"),
    [
        ("hard", lambda s, p: sum(p) >= 5 and 1 not in p and not (len(p) == 2 and p[0] == p[1])),
        ("soft", lambda s, p: len(p) == 2 and 1 in p),
        ("pair", lambda s, p: len(p) == 2 and p[0] == p[1]),
        ("up", lambda s, p: Card.parse(s.dealer_up).points == 9),
        ("insurance", lambda s, p: s.kind == "insurance" and s.dealer_up[0] == "A"),
        ("exact", lambda s, p: len(p) >= 3 and s.chart_move != max(s.ev, key=s.ev.get)),
    ],
)
def test_each_focus_deals_its_situations(user, thoth_tables, focus, check):
    rng = Random(2)
    for _ in range(15):
        s = situation_deal(user=user, rules=THOTH, focus=focus, up=9, rng=rng)
        assert s.focus == focus
        assert check(s, _points(s))


def test_insurance_situation_offers_insure_or_decline(user, thoth_tables):
    s = situation_deal(user=user, rules=THOTH, focus="insurance", rng=Random(4))
    assert set(s.ev) == {"insure", "decline"} and s.chart_move == "decline"
    points = _points(s)
    engine = analyze(THOTH, points, 1, pair=points[0] == points[1]).insurance
    assert s.ev["insure"] == pytest.approx(engine, abs=1e-12)
    assert s.ev["decline"] == 0.0


def test_insurance_focus_under_rules_without_insurance_deals_plain_hands(user):
    rules = PRESETS["free"]
    computed_services.tables_store(rules=rules, **docs_for(rules))
    s = situation_deal(user=user, rules=rules, focus="insurance", rng=Random(4))
    assert s.kind == "play" and "insure" not in s.ev


def test_answer_records_one_decision(user, thoth_tables):
    s = situation_deal(user=user, rules=THOTH, focus="hard", rng=Random(8))
    choice = "stand"
    found, created = situation_answer(user=user, situation_id=s.pk, move=choice)
    assert created
    d = found.decision
    best = max(s.ev, key=s.ev.get)
    assert (d.source, d.choice, d.best, d.chart_move) == ("drill", choice, best, s.chart_move)
    assert d.ev == s.ev and d.source_ref == f"situation:{s.pk}"
    assert d.ev_lost == pytest.approx(s.ev[best] - s.ev[choice])
    assert d.time_taken_ms is not None and d.time_taken_ms >= 0
    again, created = situation_answer(user=user, situation_id=s.pk, move="hit")
    assert not created and again.decision_id == d.pk
    assert Decision.objects.count() == 1


@pytest.mark.parametrize("move", ["split", "insure", "banana", ""])
def test_a_move_that_is_not_an_option_is_refused(user, thoth_tables, move):
    s = situation_deal(user=user, rules=THOTH, focus="soft", rng=Random(9))
    with pytest.raises(NotAnOption) as err:
        situation_answer(user=user, situation_id=s.pk, move=move)
    assert str(err.value) == str(ILLEGAL_MOVE)
    assert not Decision.objects.exists()


def test_another_users_situation_is_not_found(user, thoth_tables):
    other = User.objects.create_user(username="bes", password="x")
    s = situation_deal(user=other, rules=THOTH, rng=Random(1))
    with pytest.raises(Situation.DoesNotExist):
        situation_answer(user=user, situation_id=s.pk, move="stand")


def _record(user, hand, up, choice, ev, chart):
    return decision_record(
        user=user, source="drill", rules=THOTH, hand=parse_cards(hand),
        up=parse_cards(up)[0], choice=choice, ev=ev, chart_move=chart,
    )  # fmt: skip


def test_weak_spots_focus_deals_the_missed_cell(user, thoth_tables):
    ev = {Move.STAND: -0.54, Move.HIT: -0.53}
    _record(user, "10s 6d", "10h", Move.STAND, ev, Move.HIT)
    s = situation_deal(user=user, rules=THOTH, focus="weak", rng=Random(3))
    assert sorted(_points(s)) == [6, 10] and Card.parse(s.dealer_up).points == 10


def test_weak_spots_focus_without_misses_deals_all_hands(user, thoth_tables):
    s = situation_deal(user=user, rules=THOTH, focus="weak", rng=Random(3))
    assert s.focus == "weak" and s.ev


def test_unknown_focus_is_refused(user):
    with pytest.raises(ValueError):
        situation_deal(user=user, rules=THOTH, focus="everything")
