import pytest

from blackjack import (
    PRESETS,
    PairsBy,
    Rules,
    best_total,
    hand_total,
    is_blackjack,
    is_bust,
    is_pair,
    parse_cards,
)


@pytest.mark.parametrize(
    ("cards", "hard", "soft", "best", "display"),
    [
        ("As 6d", 7, True, 17, "7 / 17"),
        ("As 6d 9c", 16, False, 16, "16"),
        ("As Ad", 2, True, 12, "2 / 12"),
        ("As Ad 9h", 11, True, 21, "21"),
        ("As Kd", 11, True, 21, "21"),
        ("Kh Qd", 20, False, 20, "20"),
        ("Kh Qd 5s", 25, False, 25, "25"),
        ("2c 3d", 5, False, 5, "5"),
        ("As 5d 5h", 11, True, 21, "21"),
        ("As 5d 6h", 12, False, 12, "12"),
        ("Ac Ad Ah As", 4, True, 14, "4 / 14"),
    ],
)
def test_hand_total(cards, hard, soft, best, display):
    total = hand_total(parse_cards(cards))
    assert (total.hard, total.soft, total.best, total.display) == (hard, soft, best, display)
    assert best_total(parse_cards(cards)) == best


@pytest.mark.parametrize(
    ("cards", "from_split", "expected"),
    [
        ("As Kd", False, True),
        ("10h Ac", False, True),
        ("As Kd", True, False),
        ("As 5d 5h", False, False),
        ("Kd Qd", False, False),
        ("As Ad", False, False),
    ],
)
def test_is_blackjack(cards, from_split, expected):
    assert is_blackjack(parse_cards(cards), from_split=from_split) is expected


@pytest.mark.parametrize(
    ("cards", "pairs_by", "expected"),
    [
        ("Kh 10c", PairsBy.VALUE, True),
        ("Kh 10c", PairsBy.RANK, False),
        ("Kh Kc", PairsBy.RANK, True),
        ("8s 8h", PairsBy.VALUE, True),
        ("As Ah", PairsBy.RANK, True),
        ("8s 9h", PairsBy.VALUE, False),
        ("8s 8h 8c", PairsBy.VALUE, False),
    ],
)
def test_is_pair(cards, pairs_by, expected):
    assert is_pair(parse_cards(cards), Rules(pairs_by=pairs_by)) is expected


def test_presets_pair_kings_and_tens_as_the_sources_say():
    kt = parse_cards("Kh 10c")
    assert {name: is_pair(kt, r) for name, r in PRESETS.items()} == {
        "thoth": True, "live": False, "sixdeck": True, "free": True, "european": True,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("cards", "expected"),
    [("Kh 6d 6s", True), ("Ah Kd Ks", False), ("Kh Qd Ac", False), ("Kh Qd 2c", True)],
)
def test_is_bust(cards, expected):
    assert is_bust(parse_cards(cards)) is expected
