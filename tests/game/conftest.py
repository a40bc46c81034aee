"""Fixtures of play mode: the tables, a learner, and a shoe in a chosen order."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from accounts.models import User
from blackjack import PRESETS, parse_cards
from computed import selectors as computed_selectors
from computed import services as computed_services
from game import bootstrap
from game.models import Seat, Table
from game.services import seat_get_or_create
from tests.blackjack.helpers import deal_order
from tests.computed.docs import thoth_docs

# Filler after the chosen cards: a card that none of the tests deals on purpose, so that an
# undealt card is easy to look for in a response.
FILLER = "4c"
PASSWORD = "Scarab-Lapis-9173"


@pytest.fixture
def tables(db: None) -> dict[str, Table]:
    """The tables, and the house rules' chart and two-card analyses stored and read as after
    ``make run``'s bootstrap (computed once per test session)."""
    computed_services.tables_store(rules=PRESETS["thoth"], **thoth_docs())
    assert not any("computed" in line for line in bootstrap.run())
    computed_selectors.tables_forget()
    assert computed_selectors.tables_get(PRESETS["thoth"]) is not None
    return {t.slug: t for t in Table.objects.all()}


@pytest.fixture
def learner(db: None) -> User:
    return User.objects.create_user(username="nefer", password=PASSWORD)


@pytest.fixture
def other(db: None) -> User:
    return User.objects.create_user(username="other", password=PASSWORD)


def set_shoe(user: User, table: Table, cards: Sequence[str]) -> Seat:
    """Make the seat's shoe deal ``cards`` first: a fixed order, padded with filler so that
    more cards remain than any preset's reshuffle point (104 for eight decks)."""
    seat = seat_get_or_create(user=user, table=table)
    codes = [c.code for c in parse_cards(list(cards))]
    codes += [FILLER] * max(0, 120 - len(codes))
    seat.shoe = {"cards": codes, "position": 0, "decks": 0}
    seat.save(update_fields=["shoe"])
    return seat


ShoeSetter = Callable[..., Seat]


@pytest.fixture
def rig() -> Callable[..., Seat]:
    """``rig(user, table, boxes=["10s 6d"], dealer="9h 7c", rest="5s")``: the deal order of
    tests.blackjack.helpers, box by box in seat order."""

    def _rig(
        user: User, table: Table, *, boxes: Sequence[str], dealer: str, rest: str = ""
    ) -> Seat:
        return set_shoe(user, table, [c.code for c in deal_order(boxes, dealer, rest)])

    return _rig
