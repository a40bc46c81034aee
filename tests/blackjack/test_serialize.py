import json
from fractions import Fraction

import pytest

from blackjack import from_json, player_view, to_json
from tests.blackjack.helpers import deal, play


def rounds():
    yield deal(["8s 8h", "9c 2d"], "6h 10c", "3c 9h 10d Ks 7d", bets=[200, 500])
    yield play(deal(["8s 8h", "9c 2d"], "6h 10c", "3c 9h 10d Ks 7d"), "split", "double")
    yield play(deal(["As Kh", "10c 9d", "7s 7h"], "Ad Qs", bets=[5, 7, 9]), "decline", "insure")
    yield play(
        deal(["As Kh"], "7h 10c", bets=[5]),
    )


@pytest.mark.parametrize("state", list(rounds()))
def test_json_round_trip_is_exact_and_plain(state):
    data = to_json(state)
    text = json.dumps(data)
    assert data["version"] == 1
    again = from_json(json.loads(text))
    assert again == state
    assert again.events == state.events


def test_fractional_amounts_survive_json():
    state = play(deal(["As Kh"], "7h 10c", bets=[5]))
    assert state.box(0).hands[0].paid == Fraction(25, 2)
    data = json.loads(json.dumps(to_json(state)))
    assert data["boxes"][0]["hands"][0]["paid"] == "25/2"
    assert from_json(data).box(0).hands[0].paid == Fraction(25, 2)


def test_unknown_version_is_refused():
    data = to_json(next(rounds()))
    data["version"] = 99
    with pytest.raises(ValueError, match="version"):
        from_json(data)


def test_player_view_hides_the_hole_card_and_the_shoe():
    # 5♣ is the hole card and appears nowhere else at the table.
    state = deal(["8s 8h", "9c 2d"], "6h 5c", "3c 9h 10d Ks 7d")
    view = player_view(state)
    text = json.dumps(view)
    assert "5c" not in text
    assert view["dealer"]["cards"] == ["6h"] and view["dealer"]["hidden"] == 1
    assert view["shoe_remaining"] == 5
    assert "shoe" not in view
    for code in ("3c", "9h", "10d", "Ks", "7d"):  # the undealt cards
        assert code not in text
    assert view["legal_moves"] == ["double", "hit", "split", "stand"]
    assert view["boxes"][1]["hands"][0]["display"] == "11"


def test_player_view_shows_the_hole_card_once_revealed():
    state = play(deal(["9c 2d"], "6h 5c", "Ks 7d 2s"), "double")
    view = player_view(state)
    assert view["dealer"]["cards"] == ["6h", "5c", "7d"]
    assert view["dealer"]["display"] == "18"
    assert any(e.get("card") == "5c" for e in view["events"])
    assert view["legal_moves"] == []


def test_player_view_legal_moves_respect_the_balance():
    state = deal(["8s 8h"], "6h 5c", "3c")
    assert player_view(state, balance=50)["legal_moves"] == ["hit", "stand"]
