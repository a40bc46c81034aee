"""An assignment's drill end to end through the trainer: start, deal, answer, progress."""

from __future__ import annotations

import pytest

from classroom import selectors
from classroom.models import Membership
from classroom.services import assignment_create
from computed import selectors as trainer_selectors
from computed import services as trainer_services
from decisions.models import Decision
from tests.classroom.conftest import THOTH
from tests.trainer.conftest import thoth_docs
from trainer.models import Situation

pytestmark = pytest.mark.django_db


@pytest.fixture
def tables(db, monkeypatch):
    trainer_selectors.tables_forget()
    trainer_services.tables_store(rules=THOTH, **thoth_docs())
    yield
    trainer_selectors.tables_forget()


def _answer(client):
    s = Situation.objects.latest("id")
    client.post("/en/trainer/answer/", {"situation": s.pk, "move": s.chart_move})
    return Decision.objects.latest("id")


@pytest.mark.parametrize(
    "settings, cells",
    [
        ({"focus": "pair", "up": "6", "preset": "thoth"}, []),
        ({"focus": "cells", "up": "6", "preset": "thoth"}, [["soft", 18, 1], ["hard", 16, 10]]),
    ],
)
def test_a_drill_started_from_an_assignment_counts_toward_it(
    client, people, tables, settings, cells
):
    a = assignment_create(classroom=people["class"], created_by=people["owner"], title="T",
                          settings=settings, rules=THOTH, hands=3, target_accuracy=50,
                          cells=[tuple(c) for c in cells])  # fmt: skip
    client.force_login(people["student"])
    r = client.post(f"/en/classes/{people['class'].pk}/mine/{a.pk}/start/")
    assert r.status_code == 302 and r["Location"] == "/en/trainer/"
    page = client.get("/en/trainer/").content.decode()
    assert f'value="{settings["focus"]}" selected' in page
    for _ in range(4):
        client.post("/en/trainer/deal/", settings)
        d = _answer(client)
        assert d.context == a.context
        if cells:
            assert [d.chart_kind, d.chart_row, d.dealer_points] in cells
        else:
            assert d.chart_kind == "pair"
    # a free drill afterwards does not count
    client.post("/en/trainer/deal/", {"focus": "all", "up": "6", "preset": "thoth"})
    assert _answer(client).context is None
    m = Membership.objects.get(student=people["student"])
    (p,) = selectors.my_progress(membership=m)
    assert (p.score.count, p.counted, p.done) == (4, 3, True)
