"""Join codes, joining, the owner's actions and the remedial assignment."""

from __future__ import annotations

import pytest

from accounts.models import User
from classroom import services
from classroom.codes import ALPHABET, code_normalise
from classroom.models import Assignment, Membership
from tests.classroom.conftest import make_decision, user

pytestmark = pytest.mark.django_db


def test_codes_are_long_unambiguous_and_unique(people):
    codes = {services.class_create(owner=people["owner"], name=str(i)).code for i in range(30)}
    assert len(codes) == 30
    for code in codes:
        assert len(code) == 8 and set(code) <= set(ALPHABET)
    assert not set("0O1IL") & set(ALPHABET)
    assert len(ALPHABET) ** 8 > 10**11


@pytest.mark.parametrize("typed", ["abcd-efgh", " ABCD EFGH ", "abcdefgh"])
def test_codes_read_case_insensitively(typed):
    assert code_normalise(typed) == "ABCDEFGH"


@pytest.mark.parametrize("typed", ["", "ABCDEFG", "ABCDEFGHJ", "ABCDEFG0", "ABCDEFGI", "ABCD<FGH"])
def test_malformed_codes_are_refused(typed):
    assert code_normalise(typed) is None


def test_join_with_the_code_in_lower_case_and_a_dash(client, people):
    k = people["class"]
    client.force_login(people["other"])
    typed = f"{k.code[:4].lower()}-{k.code[4:].lower()}"
    r = client.post("/en/classes/join/", {"code": typed})
    assert r.status_code == 302 and r["Location"] == f"/en/classes/{k.pk}/mine/"
    assert Membership.objects.filter(classroom=k, student=people["other"]).exists()


def test_a_wrong_code_says_so(client, people):
    client.force_login(people["other"])
    r = client.post("/en/classes/join/", {"code": "QQQQ-QQQQ"})
    assert r.status_code == 404 and b"No class has this code" in r.content


def test_wrong_codes_are_rate_limited_per_account(client, people):
    client.force_login(people["other"])
    for _ in range(services.JOIN_FAILURES_PER_USER):
        assert client.post("/en/classes/join/", {"code": "QQQQQQQQ"}).status_code == 404
    k = people["class"]
    r = client.post("/en/classes/join/", {"code": k.code})
    assert r.status_code == 429 and b"Too many join attempts" in r.content
    assert not Membership.objects.filter(student=people["other"]).exists()
    # the join link is held to the limit too
    assert client.get(f"/en/classes/join/{k.code}/").status_code == 429


def test_regenerating_the_code_retires_the_old_one(client, people):
    k = people["class"]
    old = k.code
    client.force_login(people["owner"])
    client.post(f"/en/classes/{k.pk}/code/")
    k.refresh_from_db()
    assert k.code != old
    client.force_login(people["other"])
    assert client.post("/en/classes/join/", {"code": old}).status_code == 404
    assert client.post("/en/classes/join/", {"code": k.code}).status_code == 302


def test_an_archived_class_takes_no_one_and_can_be_restored(client, people):
    k = people["class"]
    client.force_login(people["owner"])
    client.post(f"/en/classes/{k.pk}/archive/", {"archived": "1"})
    client.force_login(people["other"])
    r = client.post(f"/en/classes/join/{k.code}/")
    assert r.status_code == 409 and b"archived" in r.content
    client.force_login(people["owner"])
    assert b"Restore the class" in client.get(f"/en/classes/{k.pk}/").content
    client.post(f"/en/classes/{k.pk}/archive/", {"archived": "0"})
    client.force_login(people["other"])
    assert client.post(f"/en/classes/join/{k.code}/").status_code == 302


def test_a_guest_signs_up_then_joins_and_keeps_their_answers(client, people):
    k = people["class"]
    guest = User.objects.create(username="guest-77", is_guest=True)
    make_decision(guest)
    client.force_login(guest)
    r = client.post(f"/en/classes/join/{k.code}/")
    assert r["Location"] == f"/en/accounts/signup/?next=/en/classes/join/{k.code}/"
    page = client.get(f"/en/classes/join/{k.code}/").content.decode()
    assert f'href="/en/accounts/signup/?next=/en/classes/join/{k.code}/"' in page
    password = "Scarab-Lapis-9173"
    r = client.post(
        f"/en/accounts/signup/?next=/en/classes/join/{k.code}/",
        {"username": "nefer", "display_name": "Nefer", "role": "learner",
         "preferred_language": "en", "password1": password, "password2": password,
         "next": f"/en/classes/join/{k.code}/"},
    )  # fmt: skip
    assert r["Location"] == f"/en/classes/join/{k.code}/"
    assert client.post(f"/en/classes/join/{k.code}/").status_code == 302
    member = Membership.objects.get(classroom=k, student__username="nefer")
    assert member.student_id == guest.pk and guest.decisions.count() == 1


def test_co_teachers(client, people):
    k = people["class"]
    client.force_login(people["owner"])
    r = client.post(f"/en/classes/{k.pk}/co-teachers/", {"username": "student"})
    assert r.status_code == 400 and b"No teacher has this username" in r.content
    r = client.post(f"/en/classes/{k.pk}/co-teachers/", {"username": "co"})
    assert r.status_code == 400 and b"already teaches" in r.content
    assert client.post(f"/en/classes/{k.pk}/co-teachers/", {"username": "OTHER"}).status_code == 302
    client.force_login(people["other"])
    assert client.get(f"/en/classes/{k.pk}/").status_code == 200
    client.force_login(people["owner"])
    client.post(f"/en/classes/{k.pk}/co-teachers/", {"remove": people["other"].pk})
    client.force_login(people["other"])
    assert client.get(f"/en/classes/{k.pk}/").status_code == 404
    client.force_login(people["owner"])
    assert client.post(f"/en/classes/{k.pk}/co-teachers/", {"remove": "x"}).status_code == 404


def test_remedial_assignment_takes_the_costliest_dealable_cells(client, people):
    s = people["student"]
    k = people["class"]
    make_decision(s, correct=False, lost=5.0, kind="hard", row=20, up=6)  # no two-card hand
    for i, (row, up) in enumerate([(16, 10), (12, 2), (15, 10), (11, 1), (13, 2), (14, 3), (9, 2)]):
        make_decision(s, correct=False, lost=1.0 - 0.1 * i, row=row, up=up)
    make_decision(people["other_student"], correct=False, lost=3.0, row=8, up=5)
    client.force_login(people["owner"])
    r = client.post(f"/en/classes/{k.pk}/assignments/remedial/",
                    {"preset": "thoth", "hands": 20, "target_accuracy": 85})  # fmt: skip
    assert r.status_code == 302
    a = Assignment.objects.get(classroom=k)
    assert a.title == "Weak spots of the class" and a.focus == "cells"
    assert a.cells == [["hard", 16, 10], ["hard", 12, 2], ["hard", 15, 10], ["hard", 11, 1],
                       ["hard", 13, 2], ["hard", 14, 3]]  # fmt: skip
    assert a.settings == {"focus": "cells", "up": "6", "preset": "thoth"}


def test_remedial_without_mistakes_is_refused(client, people):
    client.force_login(people["owner"])
    r = client.post(f"/en/classes/{people['class'].pk}/assignments/remedial/",
                    {"preset": "thoth", "hands": 20, "target_accuracy": 85})  # fmt: skip
    assert r.status_code == 400 and b"nothing to practise" in r.content
    assert not Assignment.objects.exists()


def test_bad_assignment_input_is_refused_with_a_message(client, people):
    client.force_login(people["owner"])
    url = f"/en/classes/{people['class'].pk}/assignments/new/"
    r = client.post(url, {"title": "T", "focus": "nope", "preset": "thoth", "hands": 0,
                          "target_accuracy": 101})  # fmt: skip
    assert r.status_code == 400 and not Assignment.objects.exists()
    r = client.post(url, {"title": "T", "focus": "soft", "preset": "live", "decks": "6",
                          "hands": 3, "target_accuracy": 70, "due": "2099-01-31"})  # fmt: skip
    a = Assignment.objects.get()
    assert a.settings == {"focus": "soft", "up": "6", "preset": "live", "decks": "6"}
    assert a.rules["decks"] == 6 and a.due_at.date().isoformat() == "2099-01-31"


def test_leaving_deletes_the_membership_and_note(people):
    k = people["class"]
    m = Membership.objects.get(classroom=k, student=people["student"])
    services.note_set(membership=m, note="private")
    services.class_leave(user=people["student"], classroom=k)
    assert not Membership.objects.filter(pk=m.pk).exists()
    assert user("x").memberships.count() == 0
