"""A drill started elsewhere with a context: the context rides from the deal to the decision,
only while the drill keeps the settings it was started with; focus "cells" deals those cells."""

from random import Random

import pytest

from accounts.models import User
from blackjack import PRESETS
from decisions.models import Decision
from trainer.context import CONTEXT_KEY, drill_context_set
from trainer.dealing import dealable_cell
from trainer.models import Situation
from trainer.services import situation_answer, situation_deal

pytestmark = pytest.mark.django_db
THOTH = PRESETS["thoth"]
CELLS = {"focus": "cells", "up": "6", "preset": "thoth"}


@pytest.fixture
def signed_in(client):
    user = User.objects.create_user(username="ani", password="x")
    client.force_login(user)
    return client


def _start(client, settings, context="assignment:7", cells=()):
    session = client.session
    drill_context_set(session=session, settings=settings, context=context, cells=cells)
    session.save()


def _answer_latest(client):
    s = Situation.objects.latest("id")
    client.post("/en/trainer/answer/", {"situation": s.pk, "move": next(iter(s.ev))})
    return Decision.objects.latest("id")


def test_the_context_reaches_the_decision(signed_in, thoth_tables):
    _start(signed_in, {"focus": "hard", "up": "6", "preset": "thoth"})
    signed_in.post("/en/trainer/deal/", {"focus": "hard", "up": "6", "preset": "thoth"})
    assert Situation.objects.get().context == "assignment:7"
    assert _answer_latest(signed_in).context == "assignment:7"


def test_other_settings_end_the_context(signed_in, thoth_tables):
    _start(signed_in, {"focus": "hard", "up": "6", "preset": "thoth"})
    signed_in.post("/en/trainer/deal/", {"focus": "soft", "up": "6", "preset": "thoth"})
    assert _answer_latest(signed_in).context is None
    assert CONTEXT_KEY not in signed_in.session
    signed_in.post("/en/trainer/deal/", {"focus": "hard", "up": "6", "preset": "thoth"})
    assert _answer_latest(signed_in).context is None


def test_cells_focus_deals_only_the_cells(signed_in, thoth_tables):
    cells = [("pair", 8, 10), ("soft", 18, 1), ("hard", 20, 6)]
    _start(signed_in, CELLS, cells=cells)
    page = signed_in.get("/en/trainer/").content.decode()
    assert 'value="cells" selected' in page
    for _ in range(8):
        signed_in.post("/en/trainer/deal/", CELLS)
        d = _answer_latest(signed_in)
        assert (d.chart_kind, d.chart_row, d.dealer_points) in cells[:2]
        assert d.context == "assignment:7"


def test_cells_focus_without_cells_deals_all_hands():
    user = User.objects.create_user(username="b", password="x")
    s = situation_deal(user=user, rules=THOTH, focus="cells", rng=Random(3))
    _s, created = situation_answer(user=user, situation_id=s.pk, move=next(iter(s.ev)))
    assert created and Decision.objects.get().context is None


def test_dealable_cells():
    assert dealable_cell("hard", 4, 5) is None and dealable_cell("pair", 1, 1) is not None
    assert dealable_cell("soft", 21, 5) is None and dealable_cell("hard", 12, 11) is None
