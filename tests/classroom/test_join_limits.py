"""Issue 33, finding 1: the join rate limit counts wrong codes, per signed-in account and per
client address (behind the load balancer, the visitor's own), so that neither a guesser
elsewhere nor a whole class behind one address stops anyone joining."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from classroom import services
from classroom.models import Membership
from tests.classroom.conftest import user

pytestmark = pytest.mark.django_db

BALANCER = "10.0.0.5"
behind_the_balancer = override_settings(TRUSTED_PROXIES=["10.0.0.0/24"])
WRONG = "QQQQ-QQQQ"


def _via_balancer(address: str, forged: str = "") -> Client:
    """A browser at ``address`` reaching us through the load balancer (which appends the
    address it saw to whatever ``X-Forwarded-For`` the browser sent)."""
    forwarded = f"{forged}, {address}" if forged else address
    return Client(REMOTE_ADDR=BALANCER, HTTP_X_FORWARDED_FOR=forwarded)


def _signed_in(client: Client, name: str) -> Client:
    client.force_login(user(name))
    return client


def _typo(code: str) -> str:
    """The code with its last character mistyped."""
    return code[:7] + ("R" if code[7] == "Q" else "Q")


def _join(client: Client, code: str) -> int:
    return client.post("/en/classes/join/", {"code": code}).status_code


@behind_the_balancer
def test_a_guessers_wrong_codes_do_not_block_another_address(people):
    k = people["class"]
    guesser = _via_balancer("203.0.113.9")
    for i in range(services.JOIN_FAILURES_PER_ADDRESS):
        # Whatever the guesser writes into the header, the balancer's last entry is believed.
        guesser.defaults["HTTP_X_FORWARDED_FOR"] = f"6.6.6.{i % 250}, 203.0.113.9"
        assert _join(guesser, WRONG) == 404
    assert _join(guesser, k.code) == 429  # that address is held up, even with a real code
    assert guesser.get(f"/en/classes/join/{k.code}/").status_code == 429
    # A student elsewhere, through the same balancer, joins at once.
    student = _signed_in(_via_balancer("198.51.100.7"), "nefer")
    assert _join(student, k.code) == 302
    assert Membership.objects.filter(classroom=k, student__username="nefer").exists()


@behind_the_balancer
def test_signed_in_users_are_limited_each_on_their_own(people):
    k = people["class"]
    guesser = _signed_in(_via_balancer("203.0.113.9"), "guesser")
    for _ in range(services.JOIN_FAILURES_PER_USER):
        assert _join(guesser, WRONG) == 404
    for _ in range(5):  # refused attempts: they count nothing more
        assert _join(guesser, WRONG) == 429
    assert _join(guesser, k.code) == 429
    # Another user behind the same balancer, from the guesser's own address, and one from
    # another address: both join.
    neighbour = _signed_in(_via_balancer("203.0.113.9"), "neighbour")
    assert _join(neighbour, k.code) == 302
    elsewhere = _signed_in(_via_balancer("198.51.100.7"), "elsewhere")
    assert _join(elsewhere, k.code) == 302
    joined = Membership.objects.filter(classroom=k).values_list("student__username", flat=True)
    assert sorted(joined) == ["elsewhere", "neighbour", "student"]


def test_a_class_of_40_behind_one_address_joins_in_one_lesson(people):
    """A school's one NAT address (no balancer): each student opens the link, presses Join,
    and mistypes the code once first; all 40 get in, and a guesser at the same address is
    still held to the address's limit afterwards."""
    k = people["class"]
    school = "192.0.2.10"
    for i in range(40):
        student = _signed_in(Client(REMOTE_ADDR=school), f"pupil{i}")
        assert _join(student, _typo(k.code)) == 404
        assert student.get(f"/en/classes/join/{k.code}/").status_code == 200
        assert student.post(f"/en/classes/join/{k.code}/").status_code == 302
    assert (
        Membership.objects.filter(classroom=k, student__username__startswith="pupil").count() == 40
    )
    guesser = Client(REMOTE_ADDR=school)
    for _ in range(services.JOIN_FAILURES_PER_ADDRESS - 40):
        assert _join(guesser, WRONG) == 404
    assert _join(guesser, WRONG) == 429


def test_the_right_code_counts_nothing(people):
    k = people["class"]
    student = _signed_in(Client(REMOTE_ADDR="192.0.2.11"), "reader")
    for _ in range(services.JOIN_FAILURES_PER_USER * 2):
        assert student.get(f"/en/classes/join/{k.code}/").status_code == 200
    for _ in range(services.JOIN_FAILURES_PER_USER):
        assert _join(student, WRONG) == 404
    assert _join(student, WRONG) == 429
