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
