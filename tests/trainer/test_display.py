import pytest

from accounts.models import User
from blackjack import (
    PRESETS,
    Move,
    analyze,
    dealer_probabilities,
    decision_shoe,
    insurance_options,
    parse_cards,
)
from trainer.display import situation_view
from trainer.models import Situation
from trainer.services import situation_answer, situation_evaluate

pytestmark = pytest.mark.django_db
THOTH = PRESETS["thoth"]


def _situation(user, tables, hand, up, kind="play"):
    cards, (up_card,) = parse_cards(hand), parse_cards(up)
    if kind == "insurance":
        ev, chart, bust = insurance_options(THOTH, [c.points for c in cards]), "decline", None
    else:
        ev, chart, bust = situation_evaluate(rules=THOTH, hand=cards, up=up_card, tables=tables)
    return Situation.objects.create(
        user=user, rules=THOTH.to_dict(), rules_key=THOTH.key(), hand=[c.code for c in cards],
        dealer_up=up_card.code, focus="all", kind=kind, ev={str(m): v for m, v in ev.items()},
        chart_move=str(chart), dealer_bust=bust,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("hand", "up", "move", "why", "agrees"),
    [
        ("10s 6d", "Kh", "stand", "hit_dealer_stiff", True),
        ("10s 2d", "4h", "stand", "exact_risk", False),  # the chart stands on 12 v 4; 10-2 hits
        ("6s 2d", "5h", "stand", "hit_safe_weak", True),
        ("10s 9d", "9h", "stand", "stand_risk", True),
        ("6s 5d", "6h", "hit", "double_weak", True),
        ("6s 5d", "8h", "hit", "double_draw", True),  # 11 v 8: the ten-rich draw, not "ahead"
        ("5s 6d", "Jh", "hit", "double_draw", True),
        ("As 7d", "Ah", "stand", "hit_soft", True),  # soft 18 v A: standing wins only 35.7%
        ("9s 9d", "6h", "hit", "split_gain", True),
        ("8s 8d", "Th", "hit", "split_save", True),
        ("4s 4d 4c 4h", "10h", "hit", "exact_risk", False),  # "chart or exact"
        ("2s 4d 10c", "10h", "hit", "exact_risk", False),
    ],
)
def test_result_explains_the_best_move(thoth_tables, hand, up, move, why, agrees):
    user = User.objects.create_user(username="ani", password="x")
    s = _situation(user, thoth_tables, hand, up)
    s, _ = situation_answer(user=user, situation_id=s.pk, move=move)
    r = situation_view(s).result
    assert (r.why, r.agrees) == (why, agrees)
    points = [c.points for c in parse_cards(hand)]
    up_points = parse_cards(up)[0].points
    comp = decision_shoe(THOTH, points, up_points)
    expected = dealer_probabilities(
        THOTH, up_points, comp, no_blackjack=THOTH.peeks_under(up_points)
    )
    assert r.bust == pytest.approx(100 * expected.bust, abs=1e-9)


def test_chart_or_exact_line_gives_the_composition_figures(thoth_tables):
    user = User.objects.create_user(username="ani", password="x")
    s = _situation(user, thoth_tables, "4s 4d 4c 4h", "10h")
    s, _ = situation_answer(user=user, situation_id=s.pk, move="hit")
    text = situation_view(s).result.why_text
    assert text == (
        "The chart plays every hard 16 against the up card 10 the same way: averaged over the"
        " hands it stands for, Hit is worth −53.48% and Stand −54.01%. Your own cards change"
        " what is left in the shoe: one more card would bust this 16 62.2% of the time, more"
        " often than the chart's average of 61.2%, so here Stand (−54.31%) beats Hit (−55.34%)."
    )


def test_insurance_result(thoth_tables):
    user = User.objects.create_user(username="ani", password="x")
    s = _situation(user, thoth_tables, "9s 7d", "Ah", kind="insurance")
    s, _ = situation_answer(user=user, situation_id=s.pk, move="insure")
    view = situation_view(s)
    assert view.category == "insurance" and not view.peeked
    assert (view.result.why, view.result.correct) == ("insurance_no", False)
    assert "31.1% of the unseen cards are tens" in view.result.why_text
    assert view.result.p_ten == pytest.approx(100 * 96 / 309)


def test_resplit_words_follow_from_the_numbers():
    from trainer.display import _resplit

    ten = analyze(THOTH, [10, 10], 5).ev[Move.SPLIT]
    eight = analyze(THOTH, [8, 8], 10).ev[Move.SPLIT]
    assert _resplit(THOTH, [10, 10], 5, ten) == ("never", "")  # playing on with 20 is worth more
    kind, gain = _resplit(THOTH, [8, 8], 10, eight)
    assert kind == "again" and gain == "0.83%"
    assert _resplit(THOTH, [1, 1], 6, 0.68) is None  # these rules never resplit aces


def test_soft_totals_read_as_words_in_sentences():
    from trainer.display import total_words

    assert (total_words(13, soft=True), total_words(16, soft=False)) == ("soft 13", "16")


def test_a_split_answer_says_the_model_and_the_resplit(thoth_tables):
    from django.template.loader import render_to_string

    user = User.objects.create_user(username="ani", password="x")
    s = _situation(user, thoth_tables, "8s 8d", "10h")
    s, _ = situation_answer(user=user, situation_id=s.pk, move="split")
    html = render_to_string("trainer/drill.html#result", {"view": situation_view(s)})
    assert "s EV: each hand is played as well as possible, given its own cards" in html
    assert "split again when another 8 comes: resplitting adds 0.83% of the bet" in html
