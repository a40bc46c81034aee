"""The data download: everything of the user's, nothing of anyone else's, no secret card."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from decisions.models import Decision
from game.models import LedgerEntry, Round, Wallet
from tests.privacy.conftest import FILLER, HOLE, NEXT, NOTE, OTHER_SECRET, fill, situation
from trainer.models import Situation

pytestmark = pytest.mark.django_db
URL = "/en/accounts/data/"


def download(client) -> tuple[object, str]:
    response = client.get(URL)
    assert response.status_code == 200
    assert response.streaming
    return response, b"".join(response.streaming_content).decode()


def test_the_file_is_an_attachment_never_cached(client, world):
    client.force_login(world.learner)
    response, text = download(client)
    assert response["Content-Type"] == "application/json; charset=utf-8"
    disposition = response["Content-Disposition"]
    assert disposition.startswith('attachment; filename="hall-of-thoth-nefer-')
    assert disposition.endswith('.json"')
    assert "no-cache" in response["Cache-Control"] and "private" in response["Cache-Control"]
    json.loads(text)


def test_the_file_holds_every_kind_of_the_users_rows(client, world):
    client.force_login(world.learner)
    data = json.loads(download(client)[1])
    me = world.learner
    assert data["format"] == "hall-of-thoth/user-data" and data["version"] == 1
    account = data["account"]
    assert account["username"] == "nefer"
    assert account["display_name"] == "Nefer" and account["real_name"] == "Nefertari Amun"
    assert account["preferred_language"] == "en" and account["role"] == "learner"
    assert "password" not in account and account["has_password"] is True

    wallet = Wallet.objects.get(user=me)
    assert Decimal(data["wallet"]["balance"]) == wallet.balance
    ledger = list(LedgerEntry.objects.filter(wallet=wallet).order_by("id"))
    assert [e["id"] for e in data["ledger"]] == [e.pk for e in ledger]
    assert [Decimal(e["amount"]) for e in data["ledger"]] == [e.amount for e in ledger]
    assert sum(Decimal(e["amount"]) for e in data["ledger"]) == wallet.balance
    assert [e["kind"] for e in data["ledger"]] == ["opening", "bet", "payout", "bet"]

    assert [s["table"] for s in data["seats"]] == ["scribes"]
    assert "shoe" not in data["seats"][0]

    rounds = data["rounds"]
    assert [r["id"] for r in rounds] == [world.settled.pk, world.live.pk]
    assert [r["number"] for r in rounds] == [1, 2]
    assert [r["status"] for r in rounds] == ["settled", "playing"]
    settled = rounds[0]
    assert Decimal(settled["net"]) == Decimal(100)
    # A finished round whole: every dealt card, the dealer's hole card revealed.
    assert settled["cards"]["dealer"]["cards"] == ["10h", "7c"]
    assert settled["cards"]["boxes"][0]["hands"][0]["cards"] == ["10s", "9d"]
    assert "shoe" not in settled["cards"] and settled["cards"]["shoe_remaining"] > 0

    decisions = Decision.objects.filter(user=me).order_by("created_at", "id")
    assert [d["id"] for d in data["decisions"]] == [d.pk for d in decisions]
    assert [d["source"] for d in data["decisions"]] == ["table", "drill", "drill", "drill"]
    assert data["decisions"][0]["source_ref"] == f"round:{world.settled.pk}"
    first = data["decisions"][1]
    assert first["choice"] == "stand" and first["best"] == "hit" and first["correct"] is False
    assert first["ev"] == {"hit": -0.5, "stand": -0.54}

    assert data["weak_spots"] == [
        {
            "chart_kind": "hard",
            "chart_row": 16,
            "dealer_points": 10,
            "box": 2,
            "misses": 3,
            "due_at": data["weak_spots"][0]["due_at"],
            "example": [10, 6],
        }
    ]
    questions = data["drill_questions"]
    assert [q["id"] for q in questions] == list(
        Situation.objects.filter(user=me).order_by("dealt_at", "id").values_list("id", flat=True)
    )
    answered, open_one = questions
    assert answered["decision"] == first["id"] and answered["chart_move"] == "hit"
    # The open question's answer is not given away.
    assert open_one["decision"] is None
    assert "ev" not in open_one and "chart_move" not in open_one and "dealer_bust" not in open_one


def test_a_round_in_play_shows_no_hole_card_and_no_shoe(client, world):
    client.force_login(world.learner)
    text = download(client)[1]
    live = json.loads(text)["rounds"][1]
    assert live["cards"]["dealer"] == {
        "cards": ["9h"],
        "hidden": 1,
        "total": 9,
        "display": "9",
        "revealed": False,
    }
    for event in live["cards"]["events"]:
        if event["kind"] == "hole":
            assert "card" not in event
    # Not anywhere in the file: the hole card, the next card, the undealt shoe's filler.
    for secret in (HOLE, NEXT, FILLER):
        assert f'"{secret}"' not in text
    assert "legal_moves" not in live["cards"]


def test_no_one_elses_rows_and_no_teachers_note(client, world):
    client.force_login(world.learner)
    text = download(client)[1]
    data = json.loads(text)
    assert OTHER_SECRET not in text
    assert NOTE not in text
    others = world.other
    assert not {d["id"] for d in data["decisions"]} & set(
        Decision.objects.filter(user=others).values_list("id", flat=True)
    )
    assert not {r["id"] for r in data["rounds"]} & set(
        Round.objects.filter(user=others).values_list("id", flat=True)
    )
    assert not {e["id"] for e in data["ledger"]} & set(
        LedgerEntry.objects.filter(wallet__user=others).values_list("id", flat=True)
    )
    assert not {q["id"] for q in data["drill_questions"]} & set(
        Situation.objects.filter(user=others).values_list("id", flat=True)
    )


def test_a_students_classes_with_their_own_progress_only(client, world):
    client.force_login(world.learner)
    classes = json.loads(download(client)[1])["classes"]
    assert classes["teaching"] == []
    (member,) = classes["member_of"]
    assert member["name"] == "Year 9" and member["teacher"] == "Thoth"
    assert "note" not in member
    (assignment,) = member["assignments"]
    assert assignment["title"] == "Hard totals" and assignment["hands"] == 2
    # One answer of the learner's counts (the other student's wrong one is not theirs).
    assert assignment["your_answers"] == 1 and assignment["your_correct"] == 1
    assert assignment["your_accuracy"] == 100.0 and assignment["done"] is False


def test_a_teachers_classes_without_the_students(client, world):
    client.force_login(world.teacher)
    text = download(client)[1]
    classes = json.loads(text)["classes"]
    assert classes["member_of"] == []
    (taught,) = classes["teaching"]
    assert taught["name"] == "Year 9" and taught["role"] == "owner"
    assert taught["students"] == 2 and taught["join_code"] == world.klass.code
    assert [a["title"] for a in taught["assignments"]] == ["Hard totals"]
    assert taught["assignments"][0]["set_by_you"] is True
    for student_data in (OTHER_SECRET, "Nefertari", NOTE, "nefer"):
        assert student_data not in text


def test_a_guest_downloads_too(client, tables, rig):
    guest = User.objects.create_user(username="guest-0123456789ab", is_guest=True)
    fill(guest, tables["scribes"], rig)
    client.force_login(guest)
    data = json.loads(download(client)[1])
    assert data["account"]["is_guest"] is True and len(data["rounds"]) == 2


def test_anonymous_is_sent_to_log_in_and_nothing_is_written(client):
    response = client.get(URL)
    assert response.status_code == 302
    assert response["Location"].startswith("/en/accounts/login/?next=/en/accounts/data/")
    assert not User.objects.exists()


def test_a_post_is_refused(client, world):
    client.force_login(world.learner)
    assert client.post(URL).status_code == 405


def _copy(row):
    fields = {f.attname: getattr(row, f.attname) for f in type(row)._meta.concrete_fields}
    return type(row)(**{**fields, "id": None})


def _many(user, n: int) -> None:
    """``n`` more decisions, drill questions, rounds and ledger entries, written in bulk."""
    Decision.objects.bulk_create([_copy(Decision.objects.filter(user=user)[0]) for _ in range(n)])
    question = situation(user)
    Situation.objects.bulk_create([_copy(question) for _ in range(n)])
    rnd = Round.objects.filter(user=user, status="settled").first()
    assert rnd is not None
    Round.objects.bulk_create(
        [
            Round(seat=rnd.seat, user=user, state=rnd.state, status="settled", seq=1)
            for _ in range(n // 10)
        ]
    )
    wallet = Wallet.objects.get(user=user)
    LedgerEntry.objects.bulk_create(
        [
            LedgerEntry(wallet=wallet, kind="bet", amount=0, balance_after=wallet.balance)
            for _ in range(n)
        ]
    )


def _queries(client) -> tuple[int, int]:
    with CaptureQueriesContext(connection) as ctx:
        text = download(client)[1]
    return len(ctx), len(text)


def test_the_number_of_queries_does_not_grow_with_the_rows(client, world):
    client.force_login(world.learner)
    client.get("/en/")  # the user's row kept (with a shared cache), as for the second download
    few, small = _queries(client)
    _many(world.learner, 3000)
    many, big = _queries(client)
    assert big > 50 * small // 10
    assert many == few
    data = json.loads(download(client)[1])
    assert len(data["decisions"]) == 3004 and len(data["rounds"]) == 302
    assert len(data["ledger"]) == 3004 and len(data["drill_questions"]) == 3003
