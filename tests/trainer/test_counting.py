"""The counting drills (issue 31): running count, true count and index plays, dealt and judged
on the server, each answer one decision record; plain forms and htmx fragments alike."""

from __future__ import annotations

from random import Random

import pytest

from accounts.models import User
from blackjack import PRESETS, Card, Move, insurance_gain, save_json
from blackjack.counting import (
    HI_LO,
    KO,
    IndexPlay,
    IndexTable,
    count_shoe,
    running_count,
    true_count,
)
from computed import indices as computed_indices
from computed.models import ChartJob
from computed.store import DatabaseTableStore
from decisions.models import Decision, WeakSpot
from decisions.selectors import stats_for
from trainer import services
from trainer.count_dealing import index_deal, true_count_deal
from trainer.models import CountQuestion, Situation

pytestmark = pytest.mark.django_db
THOTH = PRESETS["thoth"]
HTMX = {"HTTP_HX_REQUEST": "true"}
RUNNING = {"focus": "running", "up": "6", "preset": "thoth", "system": "hilo", "pace": "0",
           "cards": "10", "step": "1"}  # fmt: skip
PLAYS = (
    IndexPlay("hard", 16, 10, Move.HIT, Move.STAND, 0, True, 0.08, 0.00576, 0.0031),
    IndexPlay("hard", 12, 4, Move.STAND, Move.HIT, 0, False, -0.09, 0.01205, 0.0061),
    IndexPlay("pair", 10, 5, Move.STAND, Move.SPLIT, 4, True, 4.41, 0.00312, 0.0039),
    IndexPlay("insurance", 0, 1, Move.DECLINE, Move.INSURE, 3, True, 3.33, 0.00137, 0.002),
)


@pytest.fixture(autouse=True)
def _forget():
    computed_indices.indices_forget()
    yield
    computed_indices.indices_forget()


@pytest.fixture
def user():
    return User.objects.create_user(username="ani", password="x")


@pytest.fixture
def signed_in(client, user):
    client.force_login(user)
    return client


def _store(plays=PLAYS, system=HI_LO):
    table = IndexTable(THOTH, system, 208, plays, {0: 1.0})
    save_json(DatabaseTableStore(), computed_indices.indices_key(THOTH, system), table.to_dict())


def _running(user, **kw):
    return services.count_deal(
        user=user, rules=THOTH, kind="running", system=kw.pop("system", "hilo"),
        rng=Random(kw.pop("seed", 3)), **kw,
    )  # fmt: skip


# --- services ------------------------------------------------------------------------------


def test_a_running_count_question_is_the_first_cards_of_a_shuffled_shoe(user):
    q = _running(user, cards=20)
    cards = [Card.parse(c) for c in q.cards]
    assert len(cards) == 20 and len(set(q.cards)) < 21
    assert q.right_answer == q.running_count == running_count(HI_LO, cards)


def test_a_true_count_question_follows_the_stated_conventions():
    for seed in range(30):
        deal = true_count_deal(rules=THOTH, system=HI_LO, rng=Random(seed))
        assert THOTH.reshuffle_point <= deal.cards_left < 312
        expected = true_count(HI_LO, running=deal.running, cards_left=deal.cards_left, decks=6)
        assert deal.true_count == expected


def test_true_count_by_hand():
    # 130 cards are 2.5 decks; +7 / 2.5 = 2.8, floored 2; −1 / 2.5 = −0.4, floored −1
    assert true_count(HI_LO, running=7, cards_left=130, decks=6) == 2
    assert true_count(HI_LO, running=-1, cards_left=130, decks=6) == -1


def test_a_right_answer_writes_one_decision(user):
    q = _running(user)
    found, created = services.count_answer(user=user, question_id=q.pk, text=str(q.right_answer))
    assert created
    d = Decision.objects.get()
    assert found.decision_id == d.pk
    assert (d.category, d.count_system, d.answer, d.right_answer, d.correct) == (
        "running",
        "hilo",
        q.right_answer,
        q.right_answer,
        True,
    )
    assert (d.choice, d.best, d.chart_kind, d.ev, d.ev_lost) == ("", "", "", {}, 0.0)
    assert d.hand == q.cards and d.source == "drill" and d.time_taken_ms is not None
    assert WeakSpot.objects.count() == 0


def test_a_wrong_answer_and_a_second_answer(user):
    q = _running(user)
    services.count_answer(user=user, question_id=q.pk, text=str(q.right_answer + 1))
    _found, created = services.count_answer(user=user, question_id=q.pk, text="0")
    assert not created
    d = Decision.objects.get()
    assert (d.correct, d.answer, d.right_answer) == (False, q.right_answer + 1, q.right_answer)


def test_a_true_count_answer_records_the_count_shown(user):
    q = services.count_deal(user=user, rules=THOTH, kind="true_count", system="ko", rng=Random(5))
    services.count_answer(user=user, question_id=q.pk, text=str(q.right_answer))
    d = Decision.objects.get()
    assert (d.category, d.count_system, d.running_count, d.cards_left, d.true_count) == (
        "true_count",
        "ko",
        q.running_count,
        q.cards_left,
        q.right_answer,
    )
    assert q.right_answer == true_count(KO, running=q.running_count, cards_left=q.cards_left,
                                        decks=6)  # fmt: skip


@pytest.mark.parametrize("text", ["", "\x00", "a\x00b", "1e9", "NaN", "3.5", "١٠", "99999",
                                  "9" * 5000, "--1", "+", "0x10"])  # fmt: skip
def test_not_a_count(user, text):
    q = _running(user)
    with pytest.raises(services.NotACount):
        services.count_answer(user=user, question_id=q.pk, text=text)
    assert Decision.objects.count() == 0


def test_another_users_question(user):
    other = User.objects.create_user(username="bes", password="x")
    q = _running(other)
    with pytest.raises(CountQuestion.DoesNotExist):
        services.count_answer(user=user, question_id=q.pk, text="1")
    assert Decision.objects.count() == 0


def test_the_showing_time_is_not_answer_time(user):
    q = _running(user, cards=10, pace_ms=1000, per_step=1)
    assert services.showing_ms(q) == 10_000
    q8 = _running(user, cards=20, pace_ms=500, per_step=8)
    assert services.showing_ms(q8) == 1500  # three rounds


def test_index_deal_puts_the_count_on_either_side():
    table = IndexTable(THOTH, HI_LO, 208, PLAYS, {0: 1.0})
    seen = set()
    for seed in range(60):
        deal = index_deal(table=table, rng=Random(seed))
        assert deal is not None
        side = deal.true_count >= deal.play.index if deal.play.above else (
            deal.true_count < deal.play.index)  # fmt: skip
        assert deal.expected == (deal.play.move if side else deal.play.basic)
        seen.add(side)
    assert seen == {True, False}


def test_index_situation_stores_the_evs_at_the_count(user):
    _store(plays=PLAYS[:1])
    s = services.situation_deal(user=user, rules=THOTH, focus="index", system="hilo",
                                rng=Random(2))  # fmt: skip
    assert (s.count_system, s.focus, s.chart_move) == ("hilo", "index", "hit")
    assert s.true_count in (-3, -2, -1, 0, 1, 2)  # one to three counts on either side of 0
    ev, _bust = services.index_evs(rules=THOTH, system=HI_LO, cards_left=208, t=s.true_count,
                                   hand=(10, 6), up=10)  # fmt: skip
    assert s.ev == {m.value: v for m, v in ev.items()}
    services.situation_answer(user=user, situation_id=s.pk, move="double")  # never best on 16
    d = Decision.objects.get()
    assert (d.category, d.count_system, d.true_count, d.chart_move, d.correct) == (
        "hard",
        "hilo",
        s.true_count,
        "hit",
        False,
    )
    assert WeakSpot.objects.count() == 0  # a miss at a count is not a chart cell's weak spot


def test_no_index_table_deals_nothing(user):
    with pytest.raises(services.NoIndexTable):
        services.situation_deal(user=user, rules=THOTH, focus="index", system="hilo")
    assert Situation.objects.count() == 0 and ChartJob.objects.count() == 0


# --- views -----------------------------------------------------------------------------


def test_deal_a_running_count_with_a_plain_form(signed_in):
    r = signed_in.post("/en/trainer/deal/", RUNNING)
    q = CountQuestion.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/en/trainer/c/{q.pk}/"
    html = signed_in.get(r["Location"]).content.decode()
    assert html.count('class="cards-row count-step"') == 10
    assert 'name="count"' in html and 'data-count-pace="0"' in html
    assert "Count these 10 cards with Hi-Lo, from 0" in html
    # The box starts empty: the answer is never filled in (nor anything else).
    count_input = html.split('name="count"')[1].split(">", 1)[0]
    assert "value=" not in count_input
    r = signed_in.post("/en/trainer/count/answer/", {"question": q.pk, "count": q.right_answer})
    assert r.status_code == 302
    html = signed_in.get(r["Location"]).content.decode()
    assert "Right: the running count is" in html and "Answer time:" in html
    assert Decision.objects.count() == 1


def test_deal_and_answer_with_htmx(signed_in):
    r = signed_in.post("/en/trainer/deal/", {**RUNNING, "pace": "750", "step": "8"}, **HTMX)
    body = r.content.decode().lstrip()
    assert r.status_code == 200 and body.startswith('<section id="situation"')
    assert 'data-count-pace="750"' in body and body.count("count-step") == 2  # 10 cards, 8 a round
    q = CountQuestion.objects.get()
    r = signed_in.post("/en/trainer/count/answer/", {"question": q.pk, "count": "99"}, **HTMX)
    body = r.content.decode().lstrip()
    assert r.status_code == 200 and body.startswith('<div id="answer-area" class="result"')
    assert "You typed +99; the running count is" in body and 'hx-swap-oob="true"' in body
    assert Decision.objects.get().correct is False


def test_the_drill_page_shows_the_open_count_question(signed_in):
    signed_in.post("/en/trainer/deal/", RUNNING)
    html = signed_in.get("/en/trainer/").content.decode()
    assert 'name="count"' in html


def test_true_count_page_says_the_convention(signed_in):
    signed_in.post("/en/trainer/deal/", {**RUNNING, "focus": "true_count", "system": "ko"})
    q = CountQuestion.objects.get()
    html = signed_in.get(f"/en/trainer/c/{q.pk}/").content.decode()
    assert "to the nearest half deck (a quarter rounds up)" in html
    assert "KO is unbalanced: first take out 4 for each deck dealt" in html
    assert f"<dd>{q.cards_left}</dd>" in html
    r = signed_in.post("/en/trainer/count/answer/", {"question": q.pk, "count": q.right_answer},
                       **HTMX)  # fmt: skip
    body = r.content.decode()
    assert "Right: the true count is" in body and "less 4 for each is" in body


@pytest.mark.parametrize("text", ["", "abc", "1e400", "9" * 5000, "12345"])
@pytest.mark.parametrize("htmx", [False, True])
def test_bad_counts_say_so_and_write_nothing(signed_in, text, htmx):
    signed_in.post("/en/trainer/deal/", RUNNING)
    q = CountQuestion.objects.get()
    r = signed_in.post("/en/trainer/count/answer/", {"question": q.pk, "count": text},
                       **(HTMX if htmx else {}))  # fmt: skip
    body = r.content.decode()
    assert r.status_code == 400
    assert "Type the count as a whole number" in body and 'aria-invalid="true"' in body
    assert ("<html" in body) is not htmx
    assert Decision.objects.count() == 0


def test_a_nul_byte_is_refused_by_the_site(signed_in):
    signed_in.post("/en/trainer/deal/", RUNNING)
    q = CountQuestion.objects.get()
    r = signed_in.post("/en/trainer/count/answer/", {"question": q.pk, "count": "1\x00"}, **HTMX)
    assert r.status_code == 400 and Decision.objects.count() == 0


def test_forged_and_foreign_question_ids(signed_in):
    other = User.objects.create_user(username="bes", password="x")
    q = _running(other)
    for pk in (str(q.pk), "abc", "99999999999999999999999"):
        r = signed_in.post("/en/trainer/count/answer/", {"question": pk, "count": "1"})
        assert r.status_code == 404
    assert signed_in.get(f"/en/trainer/c/{q.pk}/").status_code == 404
    assert Decision.objects.count() == 0


def test_answering_twice_writes_once(signed_in):
    signed_in.post("/en/trainer/deal/", RUNNING)
    q = CountQuestion.objects.get()
    for text in ("1", "2"):
        signed_in.post("/en/trainer/count/answer/", {"question": q.pk, "count": text}, **HTMX)
    assert Decision.objects.get().answer == 1


@pytest.mark.parametrize(
    "field, value", [("pace", "100000"), ("pace", "-1"), ("system", "wong"), ("cards", "5000"),
                     ("step", "0"), ("system", "\x00")],
)  # fmt: skip
def test_forged_settings_are_refused(signed_in, field, value):
    r = signed_in.post("/en/trainer/deal/", {**RUNNING, field: value})
    assert r.status_code == 400
    assert CountQuestion.objects.count() == 0


def test_anonymous_get_writes_nothing(client):
    r = client.get("/en/trainer/", RUNNING)
    assert r.status_code == 200 and 'name="count"' not in r.content.decode()
    assert User.objects.count() == 0 and CountQuestion.objects.count() == 0


def test_index_drill_without_a_table_links_to_the_index_page(signed_in):
    r = signed_in.post("/en/trainer/deal/", {**RUNNING, "focus": "index"}, **HTMX)
    body = r.content.decode()
    assert r.status_code == 409 and "have not been computed yet" in body
    assert 'href="/en/trainer/indices/?system=hilo&amp;preset=thoth"' in body
    assert Situation.objects.count() == 0 and ChartJob.objects.count() == 0


def test_index_drill_answer_shows_the_evs_at_the_count(signed_in):
    _store(plays=PLAYS[:1])
    r = signed_in.post("/en/trainer/deal/", {**RUNNING, "focus": "index"})
    s = Situation.objects.get()
    html = signed_in.get(r["Location"]).content.decode()
    assert f"Hi-Lo, true count {'+' if s.true_count > 0 else ''}" in html
    r = signed_in.post("/en/trainer/answer/", {"situation": s.pk, "move": "stand"}, **HTMX)
    body = r.content.decode()
    assert "the index play for 16 against" in body
    assert "The EVs are those at this true count" in body and "chart-check" not in body
    assert Decision.objects.get().true_count == s.true_count


def test_the_data_download_has_the_counting_questions(signed_in, user):
    from trainer.selectors import count_questions_export

    answered = _running(user)
    services.count_answer(user=user, question_id=answered.pk, text="0")
    open_one = _running(user, seed=9)
    rows = list(count_questions_export(user=user))
    assert [r["id"] for r in rows] == [answered.pk, open_one.pk]
    assert rows[0]["right_answer"] == answered.right_answer and rows[0]["decision"] is not None
    assert "right_answer" not in rows[1] and "running_count" not in rows[1]


def test_the_stats_page_shows_counting_accuracy_and_time(signed_in, user):
    q = _running(user)
    services.count_answer(user=user, question_id=q.pk, text=str(q.right_answer))
    Decision.objects.update(time_taken_ms=2500)
    q2 = _running(user, seed=4)
    services.count_answer(user=user, question_id=q2.pk, text=str(q2.right_answer + 1))
    Decision.objects.filter(answer=q2.right_answer + 1).update(time_taken_ms=1500)
    html = signed_in.get("/en/trainer/stats/").content.decode()
    assert '<tr data-counting="running"><th scope="row">Running count</th>' in html
    assert ">50.0%<" in html and ">2.0 s<" in html
    assert "No mistakes so far." in html  # a counting miss is not a move's mistake


# --- the insurance index play ----------------------------------------------------------------

FREE = PRESETS["free"]  # no insurance


def test_index_deal_asks_insurance_where_the_rules_offer_it():
    table = IndexTable(THOTH, HI_LO, 208, PLAYS, {0: 1.0})
    deals = [index_deal(table=table, rng=Random(seed)) for seed in range(80)]
    insurance = [d for d in deals if d is not None and d.insurance]
    assert insurance and {d.play.kind for d in deals if d is not None} == {
        "hard", "pair", "insurance"}  # fmt: skip
    sides = set()
    for d in insurance:
        assert d.up == 1 and len(d.hand) == 2 and sorted(d.hand) != [1, 10]  # never a blackjack
        assert d.expected == (Move.INSURE if d.true_count >= 3 else Move.DECLINE)
        sides.add(d.expected)
    assert sides == {Move.INSURE, Move.DECLINE}
    without = IndexTable(FREE, HI_LO, 208, PLAYS, {0: 1.0})
    assert all(not index_deal(table=without, rng=Random(s)).insurance for s in range(40))


def test_an_insurance_index_situation_is_one_insurance_decision_at_the_count(user):
    _store(plays=PLAYS[3:])
    s = services.situation_deal(user=user, rules=THOTH, focus="index", system="hilo",
                                rng=Random(4))  # fmt: skip
    hand = [Card.parse(c) for c in s.hand]
    assert (s.kind, s.focus, s.count_system, s.chart_move) == ("insurance", "index", "hilo",
                                                               "decline")  # fmt: skip
    assert Card.parse(s.dealer_up).points == 1 and s.dealer_bust is None
    assert len(hand) == 2 and sorted(c.points for c in hand) != [1, 10]
    assert 0 <= s.true_count <= 5 and s.index_play == PLAYS[3].to_list()
    shoe = count_shoe(HI_LO, 6, 208, s.true_count)
    gain = insurance_gain(THOTH, [c.points for c in hand], shoe)
    assert s.ev == {"insure": pytest.approx(gain), "decline": 0.0}
    services.situation_answer(user=user, situation_id=s.pk, move="insure")
    d = Decision.objects.get()
    assert (d.category, d.count_system, d.true_count, d.choice, d.chart_move) == (
        "insurance", "hilo", s.true_count, "insure", "decline")  # fmt: skip
    assert d.correct is (gain > 0) and d.context is None
    assert WeakSpot.objects.count() == 0


def test_the_index_drill_agrees_with_the_index_table(user):
    """Every deal's best move by the EVs it shows is the table's move at its count: the real
    index plays of the house rules against an ace (computed here: a few seconds), insurance
    among them, whose crossing (+3.3) makes the index +3 although declining is still worth
    more on the shoe of exactly +3: such counts are not dealt."""
    from blackjack.counting import compute_indices

    table = compute_indices(THOTH, HI_LO, ups=(1,))
    (insurance,) = [p for p in table.plays if p.kind == "insurance"]
    assert (insurance.basic, insurance.move, insurance.above) == (Move.DECLINE, Move.INSURE, True)
    assert insurance.index == 3 and insurance.crossing > 3  # published: +3
    at_3 = services.index_insurance_evs(rules=THOTH, system=HI_LO, cards_left=208, t=3,
                                        hand=(10, 6))  # fmt: skip
    assert at_3[Move.INSURE] < 0
    _store(plays=table.plays)
    asked = set()
    for seed in range(40):
        s = services.situation_deal(user=user, rules=THOTH, focus="index", system="hilo",
                                    rng=Random(seed))  # fmt: skip
        play = IndexPlay.from_list(s.index_play)
        applies = s.true_count >= play.index if play.above else s.true_count < play.index
        best = max(s.ev, key=lambda m: s.ev[m])
        assert best == (play.move if applies else play.basic).value, (play, s.true_count, s.ev)
        if play.kind == "insurance":
            asked.add(s.true_count)
    assert 3 not in asked and any(t > 3 for t in asked) and any(t < 3 for t in asked)


def test_when_no_deal_agrees_the_last_one_is_kept_with_its_own_evs(user, monkeypatch):
    """After every try disagrees, the situation stored holds the last deal and that deal's
    EVs (not the EVs of the deal before it)."""
    _store(plays=PLAYS)
    monkeypatch.setattr(services, "best_by_ev", lambda ev: None)  # no deal ever agrees
    monkeypatch.setattr(services, "INDEX_DEAL_TRIES", 3)
    for seed in range(6):
        s = services.situation_deal(user=user, rules=THOTH, focus="index", system="hilo",
                                    rng=Random(seed))  # fmt: skip
        points = tuple(Card.parse(c).points for c in s.hand)
        if s.kind == "insurance":
            shoe = count_shoe(HI_LO, 6, 208, s.true_count)
            ev = {Move.INSURE: insurance_gain(THOTH, points, shoe), Move.DECLINE: 0.0}
        else:
            up = Card.parse(s.dealer_up).points
            ev, _bust = services.index_evs(rules=THOTH, system=HI_LO, cards_left=208,
                                           t=s.true_count, hand=points, up=up)  # fmt: skip
        assert s.ev == {m.value: pytest.approx(v) for m, v in ev.items()}, seed


def test_the_index_drill_page_asks_insurance_at_the_count(signed_in):
    _store(plays=PLAYS[3:])
    r = signed_in.post("/en/trainer/deal/", {**RUNNING, "focus": "index"})
    s = Situation.objects.get()
    html = signed_in.get(r["Location"]).content.decode()
    count = f"+{s.true_count}" if s.true_count > 0 else str(s.true_count)
    assert f"The true count is {count} and the dealer shows an ace. Take insurance?" in html
    assert "What do you play?" not in html and '<p class="question">The dealer shows' not in html
    assert 'value="insure"' in html and 'value="decline"' in html
    assert ">Take insurance <kbd" in html and ">No insurance <kbd" in html
    r = signed_in.post("/en/trainer/answer/", {"situation": s.pk, "move": "insure"}, **HTMX)
    body = r.content.decode()
    applies = s.true_count >= 3
    sentence = (
        f"At a true count of {count} the insurance index play applies (true count ≥ +3: Take "
        "insurance, where basic strategy says No insurance)."
        if applies
        else f"At a true count of {count} the insurance index play (true count ≥ +3: Take "
        "insurance) does not apply: No insurance, as basic strategy says."
    )
    assert sentence in body and "The EVs are those at this true count" in body
    assert 'data-move="insure"' in body and 'data-move="decline"' in body
    assert "chart-check" not in body and "index play for" not in body
    d = Decision.objects.get()
    assert (d.category, d.true_count) == ("insurance", s.true_count)


@pytest.mark.parametrize("lang", ["uk", "ru", "be", "cs", "hy"])
def test_the_insurance_index_sentences_are_translated(signed_in, user, lang):
    _store(plays=PLAYS[3:])
    sides = set()
    for seed in range(12):  # both sides of the index
        s = services.situation_deal(user=user, rules=THOTH, focus="index", system="hilo",
                                    rng=Random(seed))  # fmt: skip
        sides.add(s.true_count >= 3)
        deal = signed_in.get(f"/{lang}/trainer/s/{s.pk}/").content.decode()
        question = deal.split('<p class="question">', 1)[1].split("</p>", 1)[0]
        assert "insurance" not in question and "true count" not in question, question
        r = signed_in.post(f"/{lang}/trainer/answer/", {"situation": s.pk, "move": "decline"},
                           **HTMX)  # fmt: skip
        check = r.content.decode().split('class="index-check">', 1)[1].split("</p>", 1)[0]
        assert "insurance" not in check and "basic strategy" not in check, check
        assert "≥ +3" in check
    assert sides == {True, False}


def test_the_stats_heat_map_leaves_out_the_moves_made_at_a_count(signed_in, user):
    _store(plays=PLAYS[:1])
    s = services.situation_deal(user=user, rules=THOTH, focus="index", system="hilo",
                                rng=Random(2))  # fmt: skip
    services.situation_answer(user=user, situation_id=s.pk, move="double")
    stats = stats_for(user=user)
    cells = [c for _row, row in stats.heat["hard"] for c in row if c.score.count]
    assert cells == []  # the index answer is counted under the index plays, not the chart
    assert [(c.key, c.count, c.correct) for c in stats.counting] == [("index", 1, 0)]
    html = signed_in.get("/en/trainer/stats/").content.decode()
    assert "moves made at a count (the index drill, count practice at the table)" in html
