"""What the table's requests read (issue 17): the table row once per process, the rows a deal
or a move has just written never again, the round not twice for coach mode."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from game import services
from game.models import Round, Seat
from tests.game.test_views import HTMX, deal_rigged, en, move_url, table_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged_in(client, learner):
    client.force_login(learner)
    return client


def _tables_read(queries: list[dict[str, str]], *names: str) -> list[str]:
    return [
        q["sql"]
        for q in queries
        if q["sql"].startswith("SELECT") and any(f'FROM "{n}"' in q["sql"] for n in names)
    ]


def test_a_visitor_s_table_page_reads_its_table_once_per_process(client, tables):
    client.get(table_url())
    with CaptureQueriesContext(connection) as ctx:
        html = client.get(table_url()).content.decode()
    assert ctx.captured_queries == []
    assert html.count('class="bet-box"') == 5
    assert client.get(table_url("no-such-table")).status_code == 404


def test_a_deal_shows_the_round_without_reading_what_it_wrote(logged_in, learner, tables, rig):
    rig(learner, tables["scribes"], boxes=["10s 6d"], dealer="10h 7c")
    services.wallet_get_or_create(user=learner)  # a first deal opens it: not the usual one
    logged_in.get(table_url())  # the session's first page may save the language
    with CaptureQueriesContext(connection) as ctx:
        response = logged_in.post(en("game:deal", "scribes"), {"bet_0": "100"}, **HTMX)
    assert response.status_code == 200
    assert f'hx-post="{move_url(Round.objects.get())}"' in response.content.decode()
    # One read: the seat and the wallet under their locks, and whether a round is in play;
    # the table is kept, and nothing the deal wrote is read back for the response.
    queries = ctx.captured_queries
    reads = _tables_read(queries, "game_seat", "game_wallet", "game_round")
    assert len(reads) == 1
    assert all(f'"{name}"' in reads[0] for name in ("game_seat", "game_wallet", "game_round"))
    assert _tables_read(queries, "game_table") == []
    # Then the writes: on PostgreSQL all in one statement (the round's id was read with the
    # seat); elsewhere the round first, its id read back for the ledger's entries.
    writes = [q["sql"] for q in queries if q["sql"].startswith(("INSERT", "UPDATE", "WITH"))]
    if connection.vendor == "postgresql":
        assert len(writes) == 1 and writes[0].startswith("WITH ")
        assert all(f'"{t}"' in writes[0] for t in ("game_round", "game_ledgerentry"))
    else:
        assert writes[0].startswith('INSERT INTO "game_round"')


def test_repeating_the_last_bets_still_reads_them(logged_in, learner, tables, rig):
    rig(learner, tables["scribes"], boxes=["10s 6d"], dealer="10h 7c", rest="9c")
    rnd = services.round_deal(user=learner, table=tables["scribes"], bets={2: 300})
    logged_in.post(move_url(rnd), {"move": "stand", "seq": 0}, **HTMX)
    response = logged_in.post(en("game:deal", "scribes"), {"repeat": "1"}, **HTMX)
    assert response.status_code == 200
    assert Round.objects.order_by("-id").first().human_seats == [2]


def test_a_move_reads_its_round_once_in_or_out_of_coach_mode(logged_in, learner, tables, rig):
    rnd = deal_rigged(learner, tables, rig, boxes=["10s 6d"], dealer="10h 7c", rest="9c 2c")
    for coach in (True, False):
        Seat.objects.filter(user=learner).update(coach=coach)
        seq = Round.objects.get(pk=rnd.pk).seq
        with CaptureQueriesContext(connection) as ctx:
            # A costly double: held back in coach mode, played otherwise.
            response = logged_in.post(move_url(rnd), {"move": "double", "seq": seq}, **HTMX)
        assert response.status_code == 200
        assert ("Wait: the cost of Double" in response.content.decode()) is coach
        # One read: the round with its seat, its table and the wallet, all locked.
        reads = _tables_read(ctx.captured_queries, "game_round", "game_seat", "game_wallet")
        assert len(reads) == 1
        assert all(f'"{name}"' in reads[0] for name in ("game_seat", "game_wallet"))
        writes = [
            q["sql"]
            for q in ctx.captured_queries
            if q["sql"].startswith(("INSERT", "UPDATE", "DELETE", "WITH"))
        ]
        assert (writes == []) is coach  # held: nothing written
        if not coach and connection.vendor == "postgresql":
            # The decision, its Leitner box, the ledger, the wallet and the round: one statement.
            assert len(writes) == 1 and writes[0].startswith("WITH ")
            assert all(f'"{t}"' in writes[0] for t in ("trainer_decision", "game_ledgerentry"))


def test_a_deal_with_the_last_bets_leaves_the_seat_row_alone(logged_in, learner, tables, rig):
    def deal() -> list[str]:
        with CaptureQueriesContext(connection) as ctx:
            logged_in.post(en("game:deal", "scribes"), {"bet_0": "100", "ai_2": "hard"}, **HTMX)
        return [q["sql"] for q in ctx.captured_queries if 'UPDATE "game_seat"' in q["sql"]]

    rig(learner, tables["scribes"], boxes=["10s 6d", "9c 9d"], dealer="10h 7c", rest="5c")
    assert len(deal()) == 1  # the first deal writes its bets and seat-mate
    rnd = Round.objects.get()
    logged_in.post(move_url(rnd), {"move": "stand", "seq": 0}, **HTMX)
    assert deal() == []  # the same again: nothing to write (the shoe was not reshuffled)
    seat = Seat.objects.get(user=learner)
    assert (seat.last_bets, seat.ai_levels) == ({"0": 100}, {"2": "hard"})


def test_a_move_the_balance_covers_looks_up_its_evs_once(
    logged_in, learner, tables, rig, monkeypatch
):
    from game import ai

    calls = []
    real = ai.decision_ev
    monkeypatch.setattr(ai, "decision_ev", lambda *a, **k: calls.append(a) or real(*a, **k))
    rnd = deal_rigged(learner, tables, rig, boxes=["10s 6d"], dealer="10h 7c", rest="9c")
    logged_in.post(move_url(rnd), {"move": "hit", "seq": 0}, **HTMX)
    assert len(calls) == 1
