"""Finding 9: a visitor becomes a guest user only when something must be stored for them."""

from __future__ import annotations

import pytest
from django.contrib.sessions.models import Session
from django.test import Client

from accounts.models import User
from game.models import LedgerEntry, Round, Seat, Wallet
from game.views import HINTS_SESSION_KEY

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def _nothing_stored() -> None:
    assert User.objects.count() == 0
    assert Wallet.objects.count() == Seat.objects.count() == Round.objects.count() == 0
    assert LedgerEntry.objects.count() == 0


def test_twenty_hint_toggles_make_no_user(tables):
    client = Client()
    for i in range(20):
        response = client.post("/en/play/table/scribes/hints/", {"on": "1" if i % 2 == 0 else "0"})
        assert response.status_code in (200, 303)
    _nothing_stored()


def test_a_visitors_hints_switch_is_kept_in_the_session_then_on_the_seat(tables):
    client = Client()
    response = client.post("/en/play/table/scribes/hints/", {"on": "1"}, **HTMX)
    assert response.status_code == 200
    assert 'aria-pressed="true"' in response.content.decode()
    assert client.session[HINTS_SESSION_KEY] == ["scribes"]
    _nothing_stored()
    response = client.post("/en/play/table/scribes/deal/", {"bet_0": "100"})
    assert response.status_code == 303
    seat = Seat.objects.get()
    assert seat.user.is_guest and seat.hints


def test_a_refused_first_deal_makes_no_guest(tables):
    client = Client()
    for form in ({"bet_0": "5"}, {"bet_0": "abc"}, {"bet_0": "999999999"}, {}):
        response = client.post("/en/play/table/scribes/deal/", form)
        assert response.status_code == 400
    _nothing_stored()


def test_a_first_accepted_deal_makes_one_guest(tables):
    client = Client()
    assert client.post("/en/play/table/scribes/deal/", {"bet_0": "100"}).status_code == 303
    assert User.objects.get().is_guest
    assert Round.objects.count() == 1


def test_a_visitors_top_up_is_refused_and_makes_no_guest(tables):
    client = Client()
    response = client.post("/en/play/top-up/", {"next": "/en/play/"})
    assert response.status_code == 303
    assert response["Location"] == "/en/play/"
    _nothing_stored()


def test_an_invalid_drill_deal_makes_no_guest(tables):
    client = Client()
    assert client.post("/en/trainer/deal/", {"focus": "nonsense"}).status_code == 400
    assert User.objects.count() == 0


@pytest.mark.parametrize("path", ["/en/", "/en/play/", "/en/trainer/", "/en/play/table/scribes/"])
def test_an_anonymous_get_stores_no_session(tables, path):
    client = Client()
    assert client.get(path).status_code == 200
    assert Session.objects.count() == 0
    assert "sessionid" not in client.cookies


@pytest.mark.parametrize(
    "target",
    ["http://testserver/en/play/history/", "https://testserver/en/", "//evil.example/", "x"],
)
def test_top_up_next_must_be_a_local_path(logged_in_learner, tables, target):
    response = logged_in_learner.post("/en/play/top-up/", {"next": target})
    assert response["Location"] == "/en/play/"


@pytest.fixture
def logged_in_learner(client, learner):
    client.force_login(learner)
    return client
