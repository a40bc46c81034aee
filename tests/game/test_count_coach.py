"""Coach mode with count practice: the stored index table's play at the current true count is
what the coach judges against, with the EVs at that count; without the table, the chart."""

from __future__ import annotations

import pytest

from blackjack import PRESETS, Move, legal_moves, save_json
from blackjack.counting import HI_LO, IndexPlay, IndexTable
from computed.indices import indices_forget, indices_key
from computed.store import DatabaseTableStore
from core.display import signed
from core.numbers import percent
from decisions.models import Decision
from game import indexplay
from game.codec import state_from_json
from game.models import Round
from game.services import round_deal

HTMX = {"HTTP_HX_REQUEST": "true"}
TABLE = "/en/play/table/scribes/"
THOTH = PRESETS["thoth"]


def store_indices(*plays: IndexPlay) -> None:
    """An index table of the house rules and Hi-Lo, as the worker stores one."""
    table = IndexTable(THOTH, HI_LO, 208, plays, {t: 1 / 21 for t in range(-10, 11)})
    save_json(DatabaseTableStore(), indices_key(THOTH, HI_LO), table.to_dict())
    indices_forget()


# 16 against a ten: the chart hits; stand from true count 0 up (the published Hi-Lo index).
STAND_16_V_10 = IndexPlay("hard", 16, 10, Move.HIT, Move.STAND, 0, True, 0.1, 0.003, 0.004)


@pytest.fixture
def table_at_zero(client, learner, tables, rig):
    """Coach mode and count practice on; box 1 the learner's 10s 6d against 10h, box 2 an
    AI's 2c 3d: seen 10s 2c 10h 6d 3d, running count +1, 307 cards unseen, true count 0."""
    indices_forget()
    client.force_login(learner)
    client.post(f"{TABLE}coach/", {"on": "1"}, **HTMX)
    client.post(f"{TABLE}count-mode/", {"on": "1", "system": "hilo"}, **HTMX)
    rig(learner, tables["scribes"], boxes=["10s 6d", "2c 3d"], dealer="10h 7c", rest="9c")
    rnd = round_deal(user=learner, table=tables["scribes"], bets={0: 100}, ai_levels={1: "easy"})
    yield client, rnd
    indices_forget()


def _move(client, rnd, move):
    response = client.post(f"/en/play/round/{rnd.pk}/move/", {"move": move, "seq": 0}, **HTMX)
    assert response.status_code == 200
    return response.content.decode(), Round.objects.get(pk=rnd.pk)


def test_the_coach_holds_the_chart_s_move_where_the_index_play_departs(table_at_zero):
    client, rnd = table_at_zero
    store_indices(STAND_16_V_10)
    html, fresh = _move(client, rnd, "hit")
    assert fresh.seq == 0 and not Decision.objects.exists()  # held: nothing played
    assert "At true count 0, the index play is Stand (the chart&#x27;s move: Hit)." in html
    assert "Expected value of each option at this true count, as a percentage of the bet" in html
    assert 'name="move" value="stand" class="button button-gold" data-coach-best' in html
    # The EVs are the engine's in a shoe at true count 0, as the index table's are made.
    state = state_from_json(fresh.state)
    offered = legal_moves(state, balance=900)
    table = indexplay.indices_get(THOTH, HI_LO)
    assert table is not None
    ev = indexplay.evs_at_count(state, table=table, true=0, offered=offered)
    assert ev is not None and set(ev) == {Move.HIT, Move.STAND, Move.DOUBLE}
    for v in ev.values():
        assert percent(signed(100 * v)) in html


def test_the_index_play_is_played_without_a_stop_and_the_record_has_the_count(table_at_zero):
    client, rnd = table_at_zero
    store_indices(STAND_16_V_10)
    _html, fresh = _move(client, rnd, "stand")
    assert fresh.seq == 1
    d = Decision.objects.get()
    assert (d.choice, d.count_system, d.running_count, d.true_count, d.cards_left) == (
        "stand", "hilo", 1, 0, 307,
    )  # fmt: skip
    # Judged as the coach judged it: by the EVs at the count, where Stand is the best move.
    state = state_from_json(rnd.state)
    table = indexplay.indices_get(THOTH, HI_LO)
    assert table is not None
    ev = indexplay.evs_at_count(state, table=table, true=0, offered=legal_moves(state, balance=900))
    assert ev is not None and d.ev == {m.value: v for m, v in ev.items()}
    assert (d.best, d.correct, d.ev_lost) == ("stand", True, 0.0)


def test_on_the_chart_s_side_of_the_index_the_coach_is_as_before(table_at_zero):
    client, rnd = table_at_zero
    store_indices(IndexPlay("hard", 16, 10, Move.HIT, Move.STAND, 3, True, 2.6, 0.001, 0.002))
    html, fresh = _move(client, rnd, "stand")  # at 0 the chart's Hit stands: Stand costs EV
    assert fresh.seq == 0
    assert "Wait: the cost of Stand is" in html and "coach-index" not in html
    _html, fresh = _move(client, rnd, "hit")
    assert fresh.seq == 1


def test_without_the_index_table_the_coach_says_so_and_judges_by_the_chart(table_at_zero):
    client, rnd = table_at_zero
    html, fresh = _move(client, rnd, "stand")
    assert fresh.seq == 0
    assert "Wait: the cost of Stand is" in html
    assert "The index plays of these rules have not been computed yet" in html
    page = client.get(TABLE).content.decode()
    assert "the coach judges by the chart's EVs until they are" in page


def test_without_count_practice_the_index_table_is_not_read(table_at_zero, learner):
    client, rnd = table_at_zero
    store_indices(STAND_16_V_10)
    client.post(f"{TABLE}count-mode/", {"on": "0", "system": "hilo"}, **HTMX)
    html, fresh = _move(client, rnd, "stand")
    assert fresh.seq == 0 and "coach-index" not in html  # the chart's Hit: Stand is held
    _html, fresh = _move(client, rnd, "hit")
    d = Decision.objects.get()
    assert (d.count_system, d.true_count, d.running_count) == ("", None, None)
