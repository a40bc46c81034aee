"""Deleting one's account: the password, a confirmation, then every row of the user's goes
in one transaction, classes are handed on or archived, and nobody else's row changes."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import SESSION_KEY
from django.core import signing
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from classroom import services as class_services
from classroom.models import Assignment, Classroom, Membership
from decisions.models import Decision, WeakSpot
from game.models import LedgerEntry, Round, Seat, Wallet
from privacy import services
from tests.classroom.conftest import user as make_user
from tests.game.conftest import PASSWORD
from tests.privacy.conftest import fill
from trainer.models import Situation

pytestmark = pytest.mark.django_db
START = "/en/accounts/delete/"
CONFIRM = "/en/accounts/delete/confirm/"
TOKEN = re.compile(r'name="token" value="([^"]+)"')

OWNED = {
    "wallets": lambda u: Wallet.objects.filter(user=u),
    "ledger": lambda u: LedgerEntry.objects.filter(wallet__user=u),
    "rounds": lambda u: Round.objects.filter(user=u),
    "seats": lambda u: Seat.objects.filter(user=u),
    "decisions": lambda u: Decision.objects.filter(user=u),
    "weak spots": lambda u: WeakSpot.objects.filter(user=u),
    "drill questions": lambda u: Situation.objects.filter(user=u),
    "memberships": lambda u: Membership.objects.filter(student=u),
    "co-teaching": lambda u: Classroom.co_teachers.through.objects.filter(user=u),
}


def counts(user) -> dict[str, int]:
    return {kind: rows(user).count() for kind, rows in OWNED.items()}


def everything() -> dict[str, int]:
    models = (User, Wallet, LedgerEntry, Round, Seat, Decision, WeakSpot, Situation, Membership)
    out = {m.__name__: m.objects.count() for m in models}
    out["Classroom"] = Classroom.objects.count()
    out["co-teachers"] = Classroom.co_teachers.through.objects.count()
    return out


def confirm_page(client, password=PASSWORD):
    response = client.post(START, {"password": password})
    assert response.status_code == 200, response.content.decode()[:2000]
    return response, TOKEN.search(response.content.decode()).group(1)


def test_the_account_page_offers_the_download_and_the_deletion(client, world):
    client.force_login(world.learner)
    html = client.get("/en/accounts/").content.decode()
    assert 'href="/en/accounts/data/" download' in html
    assert 'action="/en/accounts/delete/"' in html
    assert 'name="password"' in html and 'autocomplete="current-password"' in html


def test_the_whole_deletion_goes_and_leaves_everyone_else_alone(client, world):
    me, other = world.learner, world.other
    assert all(counts(me)[k] for k in ("wallets", "ledger", "rounds", "decisions", "memberships"))
    theirs = counts(other)
    teacher_before = counts(world.teacher)
    client.force_login(me)
    response, token = confirm_page(client)
    html = response.content.decode()
    assert "2 rounds will be deleted." in html and "4 decisions will be deleted." in html
    assert counts(me)["rounds"] == 2  # nothing deleted by the password step

    response = client.post(CONFIRM, {"token": token})
    assert response.status_code == 302 and response["Location"] == "/en/"
    assert not User.objects.filter(pk=me.pk).exists()
    assert set(counts(me).values()) == {0}
    assert counts(other) == theirs and counts(world.teacher) == teacher_before
    assert SESSION_KEY not in client.session
    page = client.get("/en/").content.decode()
    assert "Your account has been deleted, with everything stored about you." in page
    # The other student's membership, note and class stay as they were.
    assert Membership.objects.get(student=other).note
    assert Assignment.objects.filter(pk=world.assignment.pk).exists()


def test_a_wrong_password_deletes_nothing(client, world):
    client.force_login(world.learner)
    before = everything()
    response = client.post(START, {"password": "not-it"})
    assert response.status_code == 400
    assert "This is not your password. Please enter it again." in response.content.decode()
    assert 'name="token"' not in response.content.decode()
    response = client.post(START, {})
    assert response.status_code == 400
    assert everything() == before


def test_five_wrong_passwords_lock_the_form_like_a_log_in(client, world):
    client.force_login(world.learner)
    before = everything()
    for _ in range(4):
        assert client.post(START, {"password": "wrong"}).status_code == 400
    assert client.post(START, {"password": "wrong"}).status_code == 429
    # Locked: the right password is refused too, and no confirmation is given.
    response = client.post(START, {"password": PASSWORD})
    assert response.status_code == 429
    assert 'name="token"' not in response.content.decode()
    assert everything() == before


@pytest.mark.parametrize(
    "token",
    [
        "",
        "forged",
        signing.dumps({"user": 1, "hash": "x"}, salt="another-salt"),
    ],
)
def test_a_missing_or_forged_confirmation_deletes_nothing(client, world, token):
    client.force_login(world.learner)
    before = everything()
    response = client.post(CONFIRM, {"token": token})
    assert response.status_code == 400
    assert "The confirmation has expired" in response.content.decode()
    assert everything() == before


def test_another_users_confirmation_does_not_delete_me_or_them(client, world):
    client.force_login(world.other)
    _, theirs = confirm_page(client)
    client.force_login(world.learner)
    before = everything()
    assert client.post(CONFIRM, {"token": theirs}).status_code == 400
    assert everything() == before


def test_a_confirmation_expires_and_dies_with_a_password_change(client, world, monkeypatch):
    client.force_login(world.learner)
    _, token = confirm_page(client)
    before = everything()
    later = timezone.now() + timedelta(seconds=services.CONFIRM_MAX_AGE + 5)
    monkeypatch.setattr(signing.time, "time", lambda: later.timestamp())
    assert client.post(CONFIRM, {"token": token}).status_code == 400
    monkeypatch.undo()
    world.learner.set_password("Obelisk-Granite-5512")
    world.learner.save()
    client.force_login(world.learner)
    assert client.post(CONFIRM, {"token": token}).status_code == 400
    assert everything() == before


def test_the_forms_need_their_csrf_token(world):
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.learner)
    before = everything()
    assert client.post(START, {"password": PASSWORD}).status_code == 403
    token = services.confirmation_token(user=world.learner)
    assert client.post(CONFIRM, {"token": token}).status_code == 403
    assert everything() == before


def test_anonymous_visitors_are_sent_to_log_in(client, world):
    before = everything()
    for url in (START, CONFIRM):
        response = client.post(url, {"password": PASSWORD})
        assert response.status_code == 302
        assert response["Location"].startswith("/en/accounts/login/")
    assert client.get(START).status_code == 302
    assert everything() == before


def test_a_get_of_the_confirmation_is_refused(client, world):
    client.force_login(world.learner)
    assert client.get(CONFIRM).status_code == 405


def test_a_class_goes_to_its_longest_serving_co_teacher(client, world):
    first = make_user("first", teacher=True, display_name="First")
    second = make_user("second", teacher=True)
    klass = world.klass
    class_services.co_teacher_add(classroom=klass, username="first")
    class_services.co_teacher_add(classroom=klass, username="second")
    client.force_login(world.teacher)
    response, token = confirm_page(client)
    assert "Year 9 passes to First." in response.content.decode()
    client.post(CONFIRM, {"token": token})
    klass.refresh_from_db()
    assert klass.owner == first and klass.archived_at is None
    assert list(klass.co_teachers.all()) == [second]
    # The students, their notes, the assignments stay; the new owner runs the class.
    assert klass.memberships.count() == 2 and klass.assignments.count() == 1
    assert Assignment.objects.get(pk=world.assignment.pk).created_by is None
    client.force_login(first)
    assert client.get(f"/en/classes/{klass.pk}/").status_code == 200


def test_a_class_without_co_teacher_is_archived_without_owner(client, world):
    client.force_login(world.teacher)
    response, token = confirm_page(client)
    assert "Year 9 has no co-teacher: it will be archived" in response.content.decode()
    client.post(CONFIRM, {"token": token})
    klass = Classroom.objects.get(pk=world.klass.pk)
    assert klass.owner is None and klass.archived_at is not None
    assert klass.memberships.count() == 2
    # Its students still read their progress; nobody may join it any more.
    client.force_login(world.learner)
    page = client.get(f"/en/classes/{klass.pk}/mine/")
    assert page.status_code == 200
    assert "The class's teacher has deleted their account" in page.content.decode()
    assert "archived: its teacher has left" in client.get("/en/classes/").content.decode()
    newcomer = make_user("newcomer")
    with pytest.raises(class_services.ClassError):
        class_services.class_join(user=newcomer, classroom=klass)


def test_a_co_teacher_who_leaves_leaves_the_class_with_its_owner(client, world):
    co = make_user("co", teacher=True)
    co.set_password(PASSWORD)
    co.save()
    class_services.co_teacher_add(classroom=world.klass, username="co")
    client.force_login(co)
    _, token = confirm_page(client)
    client.post(CONFIRM, {"token": token})
    klass = Classroom.objects.get(pk=world.klass.pk)
    assert klass.owner == world.teacher and not klass.co_teachers.exists()


def test_a_failing_step_rolls_everything_back(world, monkeypatch):
    class_services.co_teacher_add(
        classroom=world.klass, username=make_user("heir", teacher=True).username
    )
    before = everything()

    def broken(*, user):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(services, "user_delete", broken)
    with pytest.raises(RuntimeError):
        services.account_delete(user=world.teacher)
    with pytest.raises(RuntimeError):
        services.account_delete(user=world.learner)
    assert everything() == before
    assert Classroom.objects.get(pk=world.klass.pk).owner == world.teacher


def test_a_guest_deletes_without_a_password(client, tables, rig):
    guest = User.objects.create_user(username="guest-0123456789ab", is_guest=True)
    fill(guest, tables["scribes"], rig)
    client.force_login(guest)
    page = client.get(START).content.decode()
    assert "Delete my data" in page and 'name="password"' not in page
    response = client.post(START)
    token = TOKEN.search(response.content.decode()).group(1)
    assert client.post(CONFIRM, {"token": token}).status_code == 302
    assert not User.objects.filter(pk=guest.pk).exists()
    assert set(counts(guest).values()) == {0}
    page = client.get("/en/").content.decode()
    assert "Everything stored about you as a guest has been deleted." in page


def test_a_staff_account_is_not_deleted_from_the_account_page(client, world):
    User.objects.filter(pk=world.learner.pk).update(is_staff=True)
    client.force_login(world.learner)
    before = everything()
    response = client.post(START, {"password": PASSWORD})
    assert response.status_code == 302
    with pytest.raises(services.DeletionRefused):
        services.account_delete(user=User.objects.get(pk=world.learner.pk))
    assert everything() == before


def _deletion_queries(user) -> int:
    with CaptureQueriesContext(connection) as ctx:
        services.account_delete(user=user)
    return len(ctx)


def test_a_long_history_costs_no_more_queries_to_delete(world):
    from tests.privacy.test_export import _many

    few = _deletion_queries(world.other)
    _many(world.learner, 3000)
    many = _deletion_queries(world.learner)
    assert set(counts(world.learner).values()) == {0}
    assert many == few


def test_a_deletion_that_keeps_meeting_writes_says_so_and_keeps_everything(
    client, world, monkeypatch
):
    from django.db import IntegrityError

    client.force_login(world.learner)
    _, token = confirm_page(client)
    before = everything()
    tries = []

    def racing(*, user):
        tries.append(user.pk)
        raise IntegrityError("a decision was stored meanwhile")

    monkeypatch.setattr(services, "user_delete", racing)
    response = client.post(CONFIRM, {"token": token})
    assert response.status_code == 409 and len(tries) == services.ATTEMPTS
    assert "nothing was deleted" in response.content.decode()
    assert everything() == before
    assert client.session[SESSION_KEY] == str(world.learner.pk)
