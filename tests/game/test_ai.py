"""Play mode's mathematics: the AI levels see only their own view, the chart and the EVs come
from the stored tables where they exist."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from blackjack import POLICIES, PRESETS, Chart, Move, Shoe, analyze, apply, start_round
from game import ai
from game.services import round_apply_move, round_deal
from tests.blackjack.helpers import deal_order
from tests.trainer.conftest import thoth_docs

THOTH = PRESETS["thoth"]


@dataclass
class Recorder:
    """A policy that stands and remembers what it was shown."""

    name: str = "hard"
    calls: list[dict[str, Any]] = field(default_factory=list)

    def choose(self, **kwargs: Any) -> Move:
        self.calls.append(kwargs)
        return Move.STAND


def test_an_ai_box_sees_its_cards_the_up_card_and_the_other_boxes_only(
    learner, tables, rig, monkeypatch
):
    recorder = Recorder()
    monkeypatch.setitem(POLICIES, "hard", recorder)
    # Box 0 is the learner's, box 1 the AI's; the hole card is the queen, the shoe the sixes.
    rig(learner, tables["scribes"], boxes=["9s 7d", "10c 3d"], dealer="5h Qc", rest="6s 6h")
    rnd = round_deal(user=learner, table=tables["scribes"], bets={0: 100}, ai_levels={1: "hard"})
    assert recorder.calls == []  # box 0, the learner's, plays first
    round_apply_move(round_id=rnd.pk, user=learner, move="hit", seq=0)  # draws the 6 of spades
    [call] = recorder.calls
    assert (call["cards"], call["up"], sorted(call["seen"])) == ([10, 3], 5, [6, 7, 9])
    assert (call["split_hands"], call["from_split"], call["rules"]) == (1, False, THOTH)
    assert call["legal"] == {Move.HIT, Move.STAND, Move.DOUBLE}


def test_the_chart_is_the_stored_one(tables):
    assert ai.chart(THOTH).cells == Chart.from_dict(thoth_docs()["chart"]).cells


def _state(boxes: list[str], dealer: str, moves: tuple[str, ...] = ()):
    state = start_round(
        rules=THOTH, bets={0: 100}, shoe=Shoe.from_cards(deal_order(boxes, dealer, "2c 5d 4h"))
    )
    for m in moves:
        state = apply(state, m)
    return state


def test_two_card_evs_are_read_from_the_stored_tables(tables, monkeypatch):
    monkeypatch.setattr(ai, "analyze", None)  # any computation would fail
    legal = frozenset({Move.HIT, Move.STAND})
    ev = ai.decision_ev(_state(["10s 6d"], "10h 7c"), legal)
    expected = analyze(THOTH, [10, 6], 10).ev
    assert ev is not None and ev.keys() == legal
    assert ev == pytest.approx({m: expected[m] for m in legal}, abs=1e-12)


def test_longer_hands_are_analysed_from_a_full_shoe(tables):
    state = _state(["10s 3d"], "10h 7c", ("hit",))  # 10 3 2 against a ten
    legal = frozenset({Move.HIT, Move.STAND})
    ev = ai.decision_ev(state, legal)
    expected = analyze(THOTH, [10, 3, 2], 10).ev
    assert ev == {m: expected[m] for m in legal}


def test_a_longer_hand_is_analysed_once_per_process(tables, monkeypatch):
    ai._analyzed.cache_clear()
    calls = []
    monkeypatch.setattr(ai, "analyze", lambda *a, **k: calls.append(a) or analyze(*a, **k))
    state = _state(["10s 3d"], "10h 7c", ("hit",))  # 10 3 2 against a ten
    first = ai.decision_ev(state, frozenset({Move.HIT, Move.STAND}))
    again = ai.decision_ev(state, frozenset({Move.STAND}))  # the kept answer, filtered anew
    assert len(calls) == 1 and first is not None and again == {Move.STAND: first[Move.STAND]}
    first[Move.HIT] = 9.0  # the caller's own dict: the kept answer is untouched
    assert ai.decision_ev(state, frozenset({Move.HIT}))[Move.HIT] != 9.0
    other = _state(["10s 2d"], "10h 7c", ("hit",))  # 10 2 2: another hand, computed
    assert ai.decision_ev(other, frozenset({Move.HIT})) is not None and len(calls) == 2


@pytest.mark.parametrize(
    ("hand", "up", "legal", "move"),
    [
        ("10s 6d", "10h", {Move.HIT, Move.STAND, Move.DOUBLE}, Move.HIT),
        ("5s 6d", "6h", {Move.HIT, Move.STAND, Move.DOUBLE}, Move.DOUBLE),
        ("5s 6d", "6h", {Move.HIT, Move.STAND}, Move.HIT),  # double not affordable
        ("8s 8d", "10h", {Move.HIT, Move.STAND, Move.DOUBLE, Move.SPLIT}, Move.SPLIT),
        ("As 7d", "9h", {Move.HIT, Move.STAND, Move.DOUBLE}, Move.HIT),
        ("10s 9d", "Ah", {Move.INSURE, Move.DECLINE}, Move.DECLINE),
    ],
)
def test_chart_move_of_the_hand_in_turn(tables, hand, up, legal, move):
    state = _state([hand], f"{up} 7c")
    assert ai.chart_move(state, frozenset(legal)) == move


def test_insurance_and_even_money_evs(tables):
    insurance = ai.decision_ev(_state(["10s 9d"], "Ah 7c"), frozenset())
    even_money = ai.decision_ev(_state(["As Kd"], "Ah 7c"), frozenset())
    assert insurance is not None and even_money is not None
    tens, left = 96 - 1, 312 - 3  # less the hand's ten, its nine and the ace up
    assert insurance[Move.INSURE] == pytest.approx(0.5 * (3 * tens / left - 1), abs=1e-12)
    assert even_money[Move.INSURE] == pytest.approx(analyze(THOTH, [1, 10], 1).insurance, abs=1e-12)
    assert insurance[Move.DECLINE] == even_money[Move.DECLINE] == 0.0
