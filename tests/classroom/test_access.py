"""Who may see and do what: every view and export, for each of the seven kinds of visitor.

A teacher sees only the classes they teach (owner or co-teacher); a student only their own
page; anyone else gets a 404, whatever the id in the URL.
"""

from __future__ import annotations

import pytest

from classroom.models import Assignment, Membership
from classroom.services import assignment_create
from tests.classroom.conftest import THOTH, make_decision

pytestmark = pytest.mark.django_db

ROLES = ("owner", "co", "student", "other_student", "other", "guest", "anonymous")
TEACHERS = {"owner": 200, "co": 200}
SETTINGS = {"focus": "hard", "up": "6", "preset": "thoth"}


def _client(client, people, role):
    if people[role] is not None:
        client.force_login(people[role])
    return client


def _setup(people):
    k = people["class"]
    make_decision(people["student"], correct=False, lost=0.3, kind="hard", row=16, up=10)
    make_decision(people["other_student"], correct=False, lost=0.5)
    a = assignment_create(
        classroom=k,
        created_by=people["owner"],
        title="Hard totals",
        settings=SETTINGS,
        rules=THOTH,
        hands=10,
        target_accuracy=80,
    )
    return k, a


# (name, method, url, data, expected status per role; unlisted roles get 404)
def _cases(people, k, a):
    s = people["student"].pk
    base = f"/en/classes/{k.pk}"
    teacher_get = [
        ("dashboard", f"{base}/"),
        ("dashboard sorted", f"{base}/?sort=-accuracy&start=2020-01-01"),
        ("heat map", f"{base}/heat/"),
        ("cell", f"{base}/heat/hard/16/10/"),
        ("student page", f"{base}/students/{s}/"),
        ("dashboard csv", f"{base}/export.csv"),
        ("student csv", f"{base}/students/{s}/answers.csv?start=2020-01-01&end=2099-01-01"),
    ]
    cases = [(name, "get", url, None, TEACHERS) for name, url in teacher_get]
    cases += [
        (
            "note",
            "post",
            f"{base}/students/{s}/note/",
            {"note": "Watch 16 v 10"},
            {"owner": 302, "co": 302},
        ),
        (
            "assignment",
            "post",
            f"{base}/assignments/new/",
            {**SETTINGS, "title": "T", "hands": 5, "target_accuracy": 90},
            {"owner": 302, "co": 302},
        ),
        (
            "remedial",
            "post",
            f"{base}/assignments/remedial/",
            {"preset": "thoth", "hands": 5, "target_accuracy": 90},
            {"owner": 302, "co": 302},
        ),
        ("regenerate", "post", f"{base}/code/", {}, {"owner": 302, "co": 403}),
        ("archive", "post", f"{base}/archive/", {"archived": "1"}, {"owner": 302, "co": 403}),
        (
            "co-teacher",
            "post",
            f"{base}/co-teachers/",
            {"username": "other"},
            {"owner": 302, "co": 403},
        ),
        ("my class", "get", f"{base}/mine/", None, {"student": 200}),
        ("start", "post", f"{base}/mine/{a.pk}/start/", {}, {"student": 302}),
        ("leave", "post", f"{base}/leave/", {}, {"student": 302}),
    ]
    return cases


CASE_NAMES = [
    "dashboard",
    "dashboard sorted",
    "heat map",
    "cell",
    "student page",
    "dashboard csv",
    "student csv",
    "note",
    "assignment",
    "remedial",
    "regenerate",
    "archive",
    "co-teacher",
    "my class",
    "start",
    "leave",
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("case", CASE_NAMES)
def test_access_matrix(client, people, role, case):
    k, a = _setup(people)
    _name, method, url, data, expected = next(c for c in _cases(people, k, a) if c[0] == case)
    c = _client(client, people, role)
    before = (Assignment.objects.count(), Membership.objects.count())
    r = c.get(url) if method == "get" else c.post(url, data or {})
    want = expected.get(role, 404)
    assert r.status_code == want, (role, case, r.status_code)
    body = b"".join(r.streaming_content) if r.streaming else r.content
    if want == 404:
        assert "Анна".encode() not in body and b"Year 9" not in body
        # nothing was written
        assert (Assignment.objects.count(), Membership.objects.count()) == before
        k.refresh_from_db()
        assert k.archived_at is None


def test_anonymous_get_writes_nothing(client, people):
    from django.contrib.sessions.models import Session

    k, _a = _setup(people)
    for url in ("/en/classes/", f"/en/classes/join/{k.code}/", "/en/classes/join/"):
        assert client.get(url).status_code == 200
    assert not Session.objects.exists()


@pytest.mark.parametrize("role", ROLES)
def test_index_is_open_to_everyone_and_shows_only_ones_own(client, people, role):
    _k, _a = _setup(people)
    r = _client(client, people, role).get("/en/classes/")
    assert r.status_code == 200
    html = r.content.decode()
    assert ("Year 9" in html) == (role in ("owner", "co", "student"))
    assert ("Other" in html) == (role == "other_student")


@pytest.mark.parametrize(
    "role, status",
    [
        ("owner", 302),
        ("co", 302),
        ("other", 302),
        ("student", 404),
        ("guest", 404),
        ("anonymous", 404),
    ],
)
def test_only_teachers_open_classes(client, people, role, status):
    r = _client(client, people, role).post("/en/classes/new/", {"name": "New class"})
    assert r.status_code == status


@pytest.mark.parametrize(
    "role, status, joined",
    [
        ("owner", 409, False),
        ("co", 409, False),
        ("student", 302, True),
        ("other_student", 302, True),
        ("other", 302, True),
        ("guest", 302, False),
        ("anonymous", 302, False),
    ],
)
def test_join_by_code_for_each_visitor(client, people, role, status, joined):
    k = people["class"]
    r = _client(client, people, role).post("/en/classes/join/", {"code": k.code.lower()})
    assert r.status_code == status
    user = people[role]
    assert Membership.objects.filter(classroom=k, student=user).exists() is joined if user else True
    if role in ("guest", "anonymous"):
        assert r["Location"] == f"/en/accounts/signup/?next=/en/classes/join/{k.code}/"


def test_the_link_shows_the_class_only_with_a_right_code(client, people):
    k = people["class"]
    assert b"Year 9" in client.get(f"/en/classes/join/{k.code}/").content
    r = client.get("/en/classes/join/ZZZZZZZZ/")
    assert r.status_code == 404 and b"Year 9" not in r.content


def test_a_student_who_left_is_no_longer_seen(client, people):
    k, _a = _setup(people)
    s = people["student"]
    client.force_login(s)
    client.post(f"/en/classes/{k.pk}/leave/")
    client.force_login(people["owner"])
    assert client.get(f"/en/classes/{k.pk}/students/{s.pk}/").status_code == 404
    assert client.get(f"/en/classes/{k.pk}/students/{s.pk}/answers.csv").status_code == 404
    html = client.get(f"/en/classes/{k.pk}/").content.decode()
    assert "Анна" not in html
    csv = b"".join(client.get(f"/en/classes/{k.pk}/export.csv").streaming_content).decode()
    assert "student" not in csv.split("\n", 1)[1]
    assert client.get(f"/en/classes/{k.pk}/heat/hard/16/10/").content.count(b"answer-wrong") == 0


@pytest.mark.parametrize(
    "role, shows",
    [
        ("owner", "Join the class"),
        ("co", "Join the class"),
        ("student", "You are in this class."),
        ("other_student", "Join the class"),
        ("other", "Join the class"),
        ("guest", "Sign up first"),
        ("anonymous", "Sign up first"),
    ],
)
def test_join_link_and_join_page_for_each_visitor(client, people, role, shows):
    k = people["class"]
    c = _client(client, people, role)
    r = c.get(f"/en/classes/join/{k.code.lower()}/")
    assert r.status_code == 200 and shows in r.content.decode()
    assert c.get("/en/classes/join/").status_code == 200
    assert c.get("/en/classes/join/AAAA-AAAA/").status_code == 404
