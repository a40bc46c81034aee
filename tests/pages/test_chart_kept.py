"""The chart page keeps its grids per rule set and language (issue 17) and shows the same."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from core.templatetags import once

pytestmark = pytest.mark.django_db


def _body(html: str) -> str:
    return re.sub(r'value="[A-Za-z0-9]{32,}"|"X-CSRFToken": "[^"]+"', "", html)


def test_the_kept_chart_is_the_chart(tables, settings):
    once.forget()
    client = Client()
    first = client.get("/en/trainer/chart/").content.decode()
    again = client.get("/en/trainer/chart/").content.decode()
    assert 'class="chart-grid"' in first
    assert _body(first) == _body(again)
    uk = client.get("/uk/trainer/chart/").content.decode()
    assert 'class="chart-grid"' in uk and "Hard totals" not in uk
    once.forget()
    assert _body(client.get("/en/trainer/chart/").content.decode()) == _body(first)


def test_a_drill_form_with_errors_is_shown_with_them_and_not_kept(tables):
    once.forget()
    client = Client()
    assert "errorlist" not in client.get("/en/trainer/").content.decode()
    refused = client.post("/en/trainer/deal/", {"focus": "nonsense", "up": "6", "preset": "thoth"})
    assert refused.status_code == 400
    assert "errorlist" in refused.content.decode()
    assert "errorlist" not in client.get("/en/trainer/").content.decode()
    # The same settings from another query string: the form shows them, not the default's.
    picked = client.get("/en/trainer/?focus=pair&up=9&preset=live").content.decode()
    assert re.search(r'<option value="9" selected>', picked)
    assert not re.search(r'<option value="6" selected>', picked)


def test_the_kept_statistics_follow_every_new_decision(tables, learner):
    from random import Random

    from tests.pages.helpers import decisions_for

    once.forget()
    client = Client()
    client.force_login(learner)
    assert "No answers yet" in client.get("/en/trainer/stats/").content.decode()
    decisions_for(learner, 30, Random(1))
    first = client.get("/en/trainer/stats/").content.decode()
    assert '<td class="num" data-label="Answers">30</td>' in first
    assert _body(client.get("/en/trainer/stats/").content.decode()) == _body(first)  # kept
    # A new decision is made now (its time is set on insert), as the statistics' stamp expects.
    decisions_for(learner, 1, Random(2), days=0)
    assert (
        '<td class="num" data-label="Answers">31</td>'
        in client.get("/en/trainer/stats/").content.decode()
    )


def test_the_kept_header_is_each_visitor_s_own(tables, learner):
    """A visitor's and a guest's header are kept per page; a signed-in user's never is (its
    log-out form carries the user's CSRF token)."""
    once.forget()
    visitor = Client()
    home = visitor.get("/en/").content.decode()
    assert 'href="/en/accounts/login/"' in home
    assert 'aria-current="page"' not in home.split("</header>")[0]
    lobby = visitor.get("/en/play/").content.decode().split("</header>")[0]
    assert '<a href="/en/play/" aria-current="page">' in lobby
    assert 'href="/uk/play/"' in lobby
    signed_in = Client()
    signed_in.force_login(learner)
    page = signed_in.get("/en/play/").content.decode().split("</header>")[0]
    assert "Log out" in page and learner.shown_name in page
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token
    again = signed_in.get("/en/play/").content.decode().split("</header>")[0]
    assert "Log out" in again
    # The anonymous header is not shown to the signed-in user, nor theirs to a visitor.
    assert "Log out" not in visitor.get("/en/play/").content.decode().split("</header>")[0]
    # Query strings are kept in the switcher's links, page by page.
    chart = visitor.get("/en/trainer/chart/?preset=live").content.decode()
    assert 'href="/cs/trainer/chart/?preset=live"' in chart
    alternate = '<link rel="alternate" hreflang="cs" href="http://testserver/cs/trainer/chart/">'
    assert alternate in chart
