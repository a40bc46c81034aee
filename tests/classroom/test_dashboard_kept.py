"""The dashboard's page is kept per stamp: a reload that nothing changed computes nothing, and
every change a teacher or a student makes shows on the next request."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from classroom import services
from classroom.models import Classroom
from core.templatetags import once
from tests.classroom.conftest import THOTH, join, make_decision, user

pytestmark = pytest.mark.django_db
SETTINGS = {"focus": "hard", "up": "6", "preset": "thoth"}


@pytest.fixture(autouse=True)
def _nothing_kept():
    once.forget()
    yield
    once.forget()


def _page(client: Client, klass: Classroom) -> tuple[str, int]:
    with CaptureQueriesContext(connection) as ctx:
        r = client.get(f"/en/classes/{klass.pk}/")
    assert r.status_code == 200
    return r.content.decode(), len(ctx.captured_queries)


def test_an_unchanged_page_is_served_as_kept(client, people):
    k = people["class"]
    make_decision(people["student"], correct=False, lost=0.5)
    client.force_login(people["owner"])
    first, drawn = _page(client, k)
    again, kept = _page(client, k)
    # Only the class with its stamp (and the user's and the session's rows, unless the cache
    # keeps them): no figure, row or teacher is read.
    session_row = settings.SESSION_ENGINE.endswith(".db")
    user_row = not settings.ACCOUNTS_USER_CACHE_SECONDS
    assert kept == 1 + user_row + session_row < drawn
    strip = re.compile(r'name="csrfmiddlewaretoken" value="\w+"|"X-CSRFToken": "\w+"')
    assert strip.sub("", again) == strip.sub("", first)


def test_every_change_shows_at_once(client, people):
    k, owner, student = people["class"], people["owner"], people["student"]
    client.force_login(owner)
    page, _ = _page(client, k)
    # A student's answer.
    make_decision(student, correct=False, lost=0.5)
    page, _ = _page(client, k)
    assert re.search(r'data-student="student"><th scope="row">.*?<td class="num">1<', page)
    # A new student.
    newcomer = user("newcomer", real_name="Nova Newcomer")
    join(newcomer, k)
    assert "Nova Newcomer" in _page(client, k)[0]
    # An assignment.
    services.assignment_create(
        classroom=k, created_by=owner, title="Stand on hard 17", settings=SETTINGS, rules=THOTH,
        hands=5, target_accuracy=80,
    )  # fmt: skip
    assert "Stand on hard 17" in _page(client, k)[0]
    # A new join code.
    code = services.class_code_regenerate(classroom=k)
    assert code[:4] in _page(client, k)[0]
    # A co-teacher, then without them.
    user("helper", teacher=True, display_name="Seshat")
    services.co_teacher_add(classroom=k, username="helper")
    assert "Seshat" in _page(client, k)[0]
    helper = services.User.objects.get(username="helper")
    services.co_teacher_remove(classroom=k, user_id=helper.pk)
    assert "Seshat" not in _page(client, k)[0]
    # A student leaves; another deletes their account.
    services.class_leave(user=newcomer, classroom=k)
    assert "Nova Newcomer" not in _page(client, k)[0]
    services.classes_release(user=student)
    assert 'data-student="student"' not in _page(client, k)[0]
    # Archived.
    services.class_set_archived(classroom=Classroom.objects.get(pk=k.pk), archived=True)
    assert 'class="tag"' in _page(client, k)[0]


def test_the_owner_and_a_co_teacher_see_their_own_page(people):
    k = people["class"]
    owner, co = Client(), Client()
    owner.force_login(people["owner"])
    co.force_login(people["co"])
    assert "New join code" in _page(owner, k)[0]
    assert "New join code" not in _page(co, k)[0]
    assert "New join code" in _page(owner, k)[0]


def test_a_kept_page_carries_each_visitors_own_csrf_token(people):
    """The forms of a kept page post: each browser's token is its own, never another's."""
    k = people["class"]
    browsers = []
    for _ in range(2):
        c = Client(enforce_csrf_checks=True)
        c.force_login(people["owner"])
        browsers.append(c)
    tokens = []
    for c in browsers:
        page, _ = _page(c, k)
        found = set(re.findall(r'name="csrfmiddlewaretoken" value="(\w+)"', page))
        assert len(found) == 1
        assert once.TOKEN_PLACEHOLDER not in page
        tokens.append(found.pop())
    assert tokens[0] != tokens[1]
    for c, token in zip(browsers, tokens, strict=True):
        r = c.post(f"/en/classes/{k.pk}/archive/", {"archived": "1", "csrfmiddlewaretoken": token})
        assert r.status_code == 302, r.status_code
    # The other browser's token is refused with this browser's cookie.
    r = browsers[0].post(f"/en/classes/{k.pk}/archive/",
                         {"archived": "0", "csrfmiddlewaretoken": "x" * 64})  # fmt: skip
    assert r.status_code == 403


def test_a_refused_range_is_drawn_anew(client, people):
    client.force_login(people["owner"])
    url = f"/en/classes/{people['class'].pk}/"
    for _ in range(2):
        r = client.get(url + "?start=nonsense")
        assert r.status_code == 400
        assert "nonsense" in r.content.decode()


def test_the_dashboards_sql_agrees_with_the_orm(people):
    """teacher_dashboard_class is written in SQL: it lets in exactly whom teacher_class_get
    lets in, and its latest answer is the latest of the students' answers."""
    from classroom import selectors

    k, other = people["class"], people["other_class"]
    visitors = [people[w] for w in ("owner", "co", "student", "other", "guest")]
    for klass in (k, other):
        for who in visitors:
            orm = selectors.teacher_class_get(user=who, pk=klass.pk)
            sql = selectors.teacher_dashboard_class(user=who, pk=klass.pk)
            assert (orm and orm.pk) == (sql and sql.pk), (who, klass)
    assert selectors.teacher_dashboard_class(user=None, pk=k.pk) is None
    for missing in (10**9, 10**21, -(10**21)):  # the last two fit no id column
        assert selectors.teacher_dashboard_class(user=people["owner"], pk=missing) is None
    found = selectors.teacher_dashboard_class(user=people["owner"], pk=k.pk)
    assert found is not None and found.latest_answer is None and found.name == "Year 9"
    orm = Classroom.objects.get(pk=k.pk)  # the row made into the class as the ORM makes it
    fields = [f.attname for f in Classroom._meta.concrete_fields]
    assert [getattr(found, f) for f in fields] == [getattr(orm, f) for f in fields]
    assert not found.get_deferred_fields() and not found._state.adding
    first = make_decision(people["student"])
    second = make_decision(people["other_student"])  # another class's student: not counted
    found = selectors.teacher_dashboard_class(user=people["co"], pk=k.pk)
    latest = found.latest_answer
    if isinstance(latest, str):  # SQLite hands the annotation back as text, in UTC
        latest = datetime.fromisoformat(latest).replace(tzinfo=UTC)
    assert latest == first.created_at != second.created_at
