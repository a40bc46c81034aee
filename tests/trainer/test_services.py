import json
from datetime import timedelta
from random import Random

import pytest
from django.utils import timezone

from accounts.models import User
from blackjack import PRESETS, Card, Move, analyze, parse_cards
from tests.trainer.conftest import docs_for
from trainer import services
from trainer.charts import chart_key
from trainer.models import ChartJob, ComputedTable, Decision, Situation, WeakSpot
from trainer.services import (
    ILLEGAL_MOVE,
    IllegalMove,
    chart_job_ensure,
    decision_record,
    insurance_ev,
    situation_answer,
    situation_deal,
)

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
    services.tables_store(rules=rules, **docs_for(rules))
    s = situation_deal(user=user, rules=rules, focus="insurance", rng=Random(4))
    assert s.kind == "play" and "insure" not in s.ev


def _fake_compute(rules, progress, store):
    docs = docs_for(rules)
    store.put(chart_key(rules), json.dumps(docs["chart"]).encode())
    progress(5, 10)
    return docs["data"]


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
    with pytest.raises(IllegalMove) as err:
        situation_answer(user=user, situation_id=s.pk, move=move)
    assert str(err.value) == str(ILLEGAL_MOVE)
    assert not Decision.objects.exists()


def test_another_users_situation_is_not_found(user, thoth_tables):
    other = User.objects.create_user(username="bes", password="x")
    s = situation_deal(user=other, rules=THOTH, rng=Random(1))
    with pytest.raises(Situation.DoesNotExist):
        situation_answer(user=user, situation_id=s.pk, move="stand")


def test_insurance_ev_formula():
    # 6 decks less 9, 7 and the ace: 96 tens among 309 cards.
    assert insurance_ev(THOTH, [9, 7])[Move.INSURE] == pytest.approx(0.5 * (3 * 96 / 309 - 1))


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
def test_a_decision_costs_the_same_queries_whatever_its_weak_spot(
    user, box, choice, django_assert_num_queries
):
    """One insert of the decision and two queries of Leitner boxes, in every case, so that
    a move at the table costs a constant number of queries."""
    if box is not None:
        WeakSpot.objects.create(
            user=user, chart_kind="hard", chart_row=16, dealer_points=10, box=box, misses=1,
            due_at=timezone.now(), example=[10, 6],
        )  # fmt: skip
    with django_assert_num_queries(3):
        _record(user, "10s 6d", "10h", choice, {Move.STAND: -0.54, Move.HIT: -0.53}, Move.HIT)
    spot = WeakSpot.objects.filter(user=user).first()
    if choice == Move.STAND:  # a miss: box 1, one more miss
        assert spot is not None and (spot.box, spot.misses) == (1, 1 if box is None else 2)
    elif box is None or box == 5:  # right: nothing to move, or retired
        assert spot is None
    else:
        assert spot is not None and (spot.box, spot.misses) == (box + 1, 1)


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


def test_chart_job_computes_once_and_reports_progress(monkeypatch):
    rules = PRESETS["sixdeck"]
    calls = []

    def fake(r, progress, store):
        calls.append(r)
        return _fake_compute(r, progress, store)

    monkeypatch.setattr(services, "compute_tables", fake)
    job = chart_job_ensure(rules)
    assert calls == [rules]
    assert job is not None and job.finished and job.done == 5 and job.percent == 50
    assert ComputedTable.objects.count() == 2  # the chart and the drill document
    assert chart_job_ensure(rules) is None  # stored: nothing more to do
    assert calls == [rules]


def test_a_stale_job_is_taken_over(monkeypatch):
    rules = PRESETS["sixdeck"]
    ChartJob.objects.create(rules_key=rules.key(), rules=rules.to_dict(), done=3, total=10)
    ChartJob.objects.update(updated_at=timezone.now() - timedelta(minutes=10))
    monkeypatch.setattr(services, "compute_tables", _fake_compute)
    job = chart_job_ensure(rules)
    assert job is not None and job.finished


def test_a_running_job_is_left_alone(monkeypatch):
    rules = PRESETS["sixdeck"]
    ChartJob.objects.create(rules_key=rules.key(), rules=rules.to_dict(), done=3, total=10)
    monkeypatch.setattr(services, "compute_tables", lambda r, p, store: pytest.fail("twice"))
    job = chart_job_ensure(rules)
    assert job is not None and not job.finished and job.done == 3
