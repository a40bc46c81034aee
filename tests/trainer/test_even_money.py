"""Even money in the drill (issue 11) and its decision record (issue 16, defect 6)."""

from random import Random

import pytest

from accounts.models import User
from blackjack import FORMAT_VERSION as STORE_VERSION
from blackjack import PRESETS, Move, analyze
from computed.tables import FORMAT_VERSION, chart_key, drill_key
from decisions.models import Decision
from trainer.dealing import blackjack_share, insurance_points
from trainer.display import situation_view
from trainer.models import Situation
from trainer.services import even_money_ev, situation_answer, situation_deal

pytestmark = pytest.mark.django_db
THOTH = PRESETS["thoth"]


def test_insurance_deals_blackjacks_as_often_as_the_table_does():
    rng = Random(3)
    n = 20_000
    bj = sum(sorted(insurance_points(rng, rules=THOTH)) == [1, 10] for _ in range(n))
    share = blackjack_share(THOTH)
    assert abs(bj / n - share) < 4 * (share * (1 - share) / n) ** 0.5


def test_even_money_ev_is_exact():
    ev = even_money_ev(THOTH)
    gain = analyze(THOTH, [1, 10], 1).insurance
    assert ev[Move.INSURE] == 1.0
    assert ev[Move.DECLINE] == pytest.approx(1.0 - gain, abs=1e-15)
    assert ev[Move.DECLINE] > 1.0  # keeping the blackjack is worth more


def test_even_money_situation_is_recorded_as_even_money(thoth_tables):
    user = User.objects.create_user(username="ani", password="x")
    for seed in range(2000):
        rng = Random(seed)
        if sorted(insurance_points(Random(seed), rules=THOTH)) == [1, 10]:
            break
    s = situation_deal(user=user, rules=THOTH, focus="insurance", rng=Random(seed))
    assert s.kind == Situation.Kind.EVEN_MONEY
    assert sorted(s.ev) == ["decline", "insure"] and rng is not None
    s, _ = situation_answer(user=user, situation_id=s.pk, move="insure")
    d = Decision.objects.get()
    assert d.category == Decision.Category.EVEN_MONEY and not d.correct
    assert not user.weak_spots.exists()
    view = situation_view(s)
    assert view.category == "even_money"
    assert [str(o.label) for o in view.moves] == ["Even money", "Keep the blackjack"]
    assert view.result.why == "even_money_keep" and str(view.result.choice) == "Even money"
    assert view.result.keep.endswith("%") and " %" not in view.result.keep


def test_tables_carry_the_new_split_model_versions():
    # Issue 11: tables computed with the old split model (drill-v3, chart-v1) are never read.
    assert (FORMAT_VERSION, STORE_VERSION) == (4, 2)
    assert drill_key(THOTH).startswith("drill-v4-")
    assert chart_key(THOTH).startswith("chart-v2-")


def test_the_answer_page_says_even_money_and_the_split_model(thoth_tables):
    from django.template.loader import render_to_string

    user = User.objects.create_user(username="ani", password="x")
    seed = next(
        s for s in range(2000) if sorted(insurance_points(Random(s), rules=THOTH)) == [1, 10]
    )
    s = situation_deal(user=user, rules=THOTH, focus="insurance", rng=Random(seed))
    s, _ = situation_answer(user=user, situation_id=s.pk, move="decline")
    html = render_to_string("trainer/drill.html#result", {"view": situation_view(s)})
    assert "Keeping the blackjack is worth" in html and "Keep the blackjack" in html
    assert "s EV: each hand" not in html
