"""Two answers to one situation at once (a double click, two tabs): one decision is stored.
On PostgreSQL the row lock serialises them; SQLite has a single writer anyway."""

import threading
from random import Random

import pytest
from django.db import connection

from accounts.models import User
from blackjack import PRESETS
from computed import services as computed_services
from decisions.models import Decision
from tests.computed.docs import thoth_docs
from trainer.services import situation_answer, situation_deal

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_simultaneous_answers_store_one_decision():
    computed_services.tables_store(rules=PRESETS["thoth"], **thoth_docs())
    user = User.objects.create_user(username="ani", password="x")
    s = situation_deal(user=user, rules=PRESETS["thoth"], focus="hard", rng=Random(5))
    moves = sorted(s.ev)
    barrier = threading.Barrier(len(moves))
    results: list[tuple[int, bool]] = []

    def answer(move: str) -> None:
        try:
            barrier.wait()
            found, created = situation_answer(user=user, situation_id=s.pk, move=move)
            results.append((found.decision_id, created))
        finally:
            connection.close()

    threads = [threading.Thread(target=answer, args=(m,)) for m in moves]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert Decision.objects.count() == 1
    assert sorted(created for _id, created in results) == [False] * (len(moves) - 1) + [True]
    assert {decision_id for decision_id, _created in results} == {Decision.objects.get().pk}
