"""The bound on jobs handed to the queue, with real concurrent requests (PostgreSQL)."""

from __future__ import annotations

import threading
from dataclasses import replace
from fractions import Fraction

import pytest
from django.db import connection

from blackjack import PRESETS
from computed import services
from computed.models import ChartJob

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_concurrent_requests_never_hand_more_than_the_bound_to_the_queue(monkeypatch):
    # Issue 15's known limit (b): two requests that both counted MAX_PENDING - 1 active jobs
    # both promoted one. Now each active job holds one of MAX_PENDING unique places.
    assert connection.vendor == "postgresql"
    monkeypatch.setattr(services, "_enqueue", lambda job: None)  # nobody runs them
    pays = (Fraction(3, 2), Fraction(6, 5))
    sets = [
        replace(PRESETS["thoth"], decks=d, blackjack_pays=p, dealer_hits_soft_17=h)
        for d in (1, 2, 4, 8)
        for p in pays
        for h in (False, True)
    ]
    for rounds in range(3):
        ChartJob.objects.all().delete()
        assert _ask_together(sets, f"race-{rounds}") == []
        active = ChartJob.objects.filter(status__in=services.ACTIVE)
        assert active.count() == services.MAX_PENDING
        assert sorted(active.values_list("slot", flat=True)) == list(range(services.MAX_PENDING))
        waiting = ChartJob.objects.filter(status=ChartJob.Status.WAITING).count()
        assert waiting == len(sets) - services.MAX_PENDING


def _ask_together(sets: list, tag: str) -> list[BaseException]:
    """Every rule set asked for at the same moment, each from its own thread and connection."""
    barrier = threading.Barrier(len(sets))
    errors: list[BaseException] = []

    def ask(i: int) -> None:
        barrier.wait()
        try:
            who = f"{tag}-{i}"
            services.job_request(rules=sets[i], user_key=who, address=who)
        except BaseException as exc:  # the test reports what went wrong
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(len(sets))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


def _sixteen() -> list:
    pays = (Fraction(3, 2), Fraction(6, 5))
    return [
        replace(
            PRESETS["thoth"], decks=d, blackjack_pays=p, dealer_hits_soft_17=h, double_after_split=a
        )
        for d in (1, 2)
        for p in pays
        for h in (False, True)
        for a in (False, True)
    ]


def test_concurrent_requests_never_fill_the_line_beyond_its_bound(monkeypatch):
    # Issue 33, finding 2: jobs waiting for a place were bounded only per requester.
    assert connection.vendor == "postgresql"
    monkeypatch.setattr(services, "_enqueue", lambda job: None)
    monkeypatch.setattr(services, "MAX_WAITING", 5)
    sets = _sixteen()
    for rounds in range(3):
        ChartJob.objects.all().delete()
        errors = _ask_together(sets, f"line-{rounds}")
        assert errors and all(isinstance(e, services.Busy) for e in errors)
        # A request may be refused just before a promotion frees a place, so the line is at
        # most full, never beyond; every waiting job holds its own place in it.
        lines = list(
            ChartJob.objects.filter(status=ChartJob.Status.WAITING).values_list("line", flat=True)
        )
        assert 0 < len(lines) == len(set(lines)) <= 5 and set(lines) <= set(range(5))
        assert ChartJob.objects.filter(status__in=services.ACTIVE).count() == services.MAX_PENDING
        assert (
            ChartJob.objects.count() == len(sets) - len(errors) == services.MAX_PENDING + len(lines)
        )


def test_one_rule_set_asked_for_together_is_queued_once(monkeypatch):
    """Sixteen requests for one rule set at once, first new, then failed: one row, one task
    each time (the row's unique key; the restart's compare-and-set)."""
    assert connection.vendor == "postgresql"
    enqueued: list[str] = []
    monkeypatch.setattr(services, "_enqueue", lambda job: enqueued.append(job.ticket))
    rules = replace(PRESETS["thoth"], decks=2)
    assert _ask_together([rules] * 16, "same") == []
    assert ChartJob.objects.count() == 1 and len(enqueued) == 1
    ChartJob.objects.update(status=ChartJob.Status.FAILED, slot=None, line=None)
    assert _ask_together([rules] * 16, "again") == []
    job = ChartJob.objects.get()
    assert job.status == ChartJob.Status.QUEUED and len(enqueued) == 2
    assert enqueued[1] == job.ticket != enqueued[0]
