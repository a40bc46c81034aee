"""Concurrent requests at one round and one wallet (PostgreSQL: real row locks)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection
from django.db.models import Sum

from blackjack import from_json
from decisions.models import Decision
from game import services
from game.models import LedgerEntry, Round, Wallet

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def run_together(jobs: list[Callable[[], Any]]) -> list[Any]:
    """Start every job at the same moment, each in its own thread (its own connection)."""
    barrier = threading.Barrier(len(jobs))
    results: list[Any] = [None] * len(jobs)

    def worker(i: int) -> None:
        barrier.wait()
        try:
            results[i] = jobs[i]()
        except Exception as exc:  # the test inspects what each job got
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def assert_books(user) -> Decimal:
    wallet = Wallet.objects.get(user=user)
    assert wallet.balance == wallet.entries.aggregate(s=Sum("amount"))["s"]
    return wallet.balance


def test_concurrent_moves_are_applied_once(learner, tables, rig):
    assert connection.vendor == "postgresql"
    rig(learner, tables["scribes"], boxes=["5s 6d"], dealer="10h 7c", rest="10d 2c 3c 4d")
    rnd = services.round_deal(user=learner, table=tables["scribes"], bets={0: 100})
    moves = ["double", "hit", "double", "hit", "double", "stand", "double", "hit"]
    jobs = [
        (lambda m=m: services.round_apply_move(round_id=rnd.pk, user=learner, move=m, seq=0))
        for m in moves
    ]
    results = run_together(jobs)
    applied = [r for r in results if isinstance(r, services.MoveResult) and not r.stale]
    stale = [r for r in results if isinstance(r, services.MoveResult) and r.stale]
    assert len(applied) == 1 and len(stale) == len(moves) - 1, results
    rnd.refresh_from_db()
    assert rnd.seq == 1
    assert len(from_json(rnd.state).moves()) == 1
    assert Decision.objects.filter(source_ref=f"round:{rnd.pk}").count() == 1
    doubles = LedgerEntry.objects.filter(kind="double").count()
    assert doubles == (1 if from_json(rnd.state).box(0).hands[0].doubled else 0)
    assert_books(learner)


def test_concurrent_deals_never_spend_twice(learner, tables, rig):
    services.wallet_get_or_create(user=learner)
    slugs = ["scribes", "priests", "live", "european"]
    for slug in slugs:  # no blackjack at the deal: a round paid at once would refill the wallet
        rig(learner, tables[slug], boxes=["10s 6d"], dealer="9h 7c")
    jobs = [
        (lambda s=s: services.round_deal(user=learner, table=tables[s], bets={0: 1000}))
        for s in slugs
    ]
    results = run_together(jobs)
    dealt = [r for r in results if isinstance(r, Round)]
    refused = [r for r in results if isinstance(r, services.PlayError)]
    assert len(dealt) == 1 and len(refused) == 3, results
    assert {e.code for e in refused} == {"insufficient_balance"}
    balance = assert_books(learner)
    assert balance == Decimal(1000) - Decimal(1000) + dealt[0].paid


@pytest.mark.parametrize("opened", [False, True], ids=["first deal", "wallet opened"])
def test_double_clicked_deal_deals_one_round(learner, tables, rig, opened):
    # A hand left to play: a deal settled at once (a blackjack) would rightly let the next one in.
    rig(learner, tables["scribes"], boxes=["10s 6d"], dealer="9h 7c")
    if opened:  # the seat and the wallet read in one statement (game.locked.seat_for_deal)
        services.wallet_get_or_create(user=learner)
    jobs = [
        (lambda: services.round_deal(user=learner, table=tables["scribes"], bets={0: 100}))
        for _ in range(4)
    ]
    results = run_together(jobs)
    assert sum(isinstance(r, Round) for r in results) == 1, results
    refused = [r for r in results if not isinstance(r, Round)]
    assert all(isinstance(r, services.PlayError) for r in refused), results
    assert {r.code for r in refused} == {"round_in_play"}
    assert LedgerEntry.objects.filter(kind="bet").count() == 1
    assert_books(learner)
