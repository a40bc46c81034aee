"""Charts, the best move, house edges against published figures, and the AI levels."""

import itertools
import json

import pytest

from blackjack import (
    EASY,
    HARD,
    MOVE_ORDER,
    NORMAL,
    POLICIES,
    PRESETS,
    UPS,
    Cell,
    Chart,
    MemoryStore,
    Move,
    Peek,
    Rules,
    Surrender,
    basic_chart,
    best_move,
    build_cell,
    cell_key,
    house_edge,
    rule_effects,
    rule_variations,
    table_key,
)

THOTH = PRESETS["thoth"]
HIT_STAND = frozenset({Move.HIT, Move.STAND})
FIRST_TWO = frozenset({Move.HIT, Move.STAND, Move.DOUBLE})

# The familiar six-deck, S17, DAS chart (columns 2-10, A), written out by hand.
THOTH_CHART_TEXT = """\
             2   3   4   5   6   7   8   9  10   A
hard 5       H   H   H   H   H   H   H   H   H   H
hard 6       H   H   H   H   H   H   H   H   H   H
hard 7       H   H   H   H   H   H   H   H   H   H
hard 8       H   H   H   H   H   H   H   H   H   H
hard 9       H  Dh  Dh  Dh  Dh   H   H   H   H   H
hard 10     Dh  Dh  Dh  Dh  Dh  Dh  Dh  Dh   H   H
hard 11     Dh  Dh  Dh  Dh  Dh  Dh  Dh  Dh  Dh   H
hard 12      H   H   S   S   S   H   H   H   H   H
hard 13      S   S   S   S   S   H   H   H   H   H
hard 14      S   S   S   S   S   H   H   H   H   H
hard 15      S   S   S   S   S   H   H   H   H   H
hard 16      S   S   S   S   S   H   H   H   H   H
hard 17      S   S   S   S   S   S   S   S   S   S
hard 18      S   S   S   S   S   S   S   S   S   S
hard 19      S   S   S   S   S   S   S   S   S   S
hard 20      S   S   S   S   S   S   S   S   S   S
hard 21      S   S   S   S   S   S   S   S   S   S
soft 13      H   H   H  Dh  Dh   H   H   H   H   H
soft 14      H   H   H  Dh  Dh   H   H   H   H   H
soft 15      H   H  Dh  Dh  Dh   H   H   H   H   H
soft 16      H   H  Dh  Dh  Dh   H   H   H   H   H
soft 17      H  Dh  Dh  Dh  Dh   H   H   H   H   H
soft 18      S  Ds  Ds  Ds  Ds   S   S   H   H   H
soft 19      S   S   S   S   S   S   S   S   S   S
soft 20      S   S   S   S   S   S   S   S   S   S
soft 21      S   S   S   S   S   S   S   S   S   S
pair A,A     P   P   P   P   P   P   P   P   P   P
pair 2,2     P   P   P   P   P   P   H   H   H   H
pair 3,3     P   P   P   P   P   P   H   H   H   H
pair 4,4     H   H   H   P   P   H   H   H   H   H
pair 5,5    Dh  Dh  Dh  Dh  Dh  Dh  Dh  Dh   H   H
pair 6,6     P   P   P   P   P   H   H   H   H   H
pair 7,7     P   P   P   P   P   P   H   H   H   H
pair 8,8     P   P   P   P   P   P   P   P   P   P
pair 9,9     P   P   P   P   P   S   P   P   S   S
pair 10,10   S   S   S   S   S   S   S   S   S   S"""


@pytest.fixture(scope="module")
def store():
    return MemoryStore()


@pytest.fixture(scope="module")
def chart(store):
    return basic_chart(THOTH, store=store)


def test_thoth_chart_is_the_familiar_chart(chart):
    assert chart.text() == THOTH_CHART_TEXT


def test_chart_is_stored_and_read_back(chart, store):
    data = store.get(table_key("chart", THOTH))
    assert data is not None
    again = Chart.from_dict(json.loads(data))
    assert again.cells == chart.cells
    assert again.rules == THOTH


def test_chart_is_read_from_the_store_before_computing():
    rules = Rules(decks=2, dealer_hits_soft_17=True, max_hands=3)  # never computed here
    fake = Chart(rules, {("hard", 16, 10): Cell(Move.STAND, {Move.STAND: 0.0, Move.HIT: -1.0})})
    store = MemoryStore()
    store.put(table_key("chart", rules), json.dumps(fake.to_dict()).encode())
    assert basic_chart(rules, store=store).cell("hard", 16, 10).move == Move.STAND


@pytest.mark.parametrize(("kind", "row", "up"), [("hard", 16, 10), ("soft", 18, 9), ("pair", 9, 7)])
def test_a_cell_built_alone_is_the_charts_cell(chart, kind, row, up):
    # The chart's batch and a lone cell sum the same terms in another order: equal to 1e-12.
    alone, in_chart = build_cell(THOTH, kind, row, up), chart.cell(kind, row, up)
    assert alone.move == in_chart.move
    assert alone.ev == pytest.approx(in_chart.ev, abs=1e-12)


def test_cells_hold_the_evs_behind_the_move(chart):
    cell = chart.cell("hard", 16, 10)
    assert set(cell.ev) == {Move.STAND, Move.HIT, Move.DOUBLE}
    assert cell.move == Move.HIT
    assert cell.ev[Move.HIT] == max(cell.ev.values())
    assert cell.ev[Move.STAND] == pytest.approx(-0.5404, abs=5e-4)


@pytest.mark.parametrize(
    ("hand", "up", "legal", "move"),
    [
        ([5, 6], 6, FIRST_TWO, Move.DOUBLE),
        ([5, 6], 6, HIT_STAND, Move.HIT),  # Dh
        ([1, 7], 4, FIRST_TWO, Move.DOUBLE),
        ([1, 7], 4, HIT_STAND, Move.STAND),  # Ds
        ([1, 3, 4], 4, HIT_STAND, Move.STAND),  # soft 18 of three cards
        ([8, 8], 10, FIRST_TWO | {Move.SPLIT}, Move.SPLIT),
        ([8, 8], 10, FIRST_TWO, Move.HIT),  # no more splits: the pair row's next best
        ([10, 2, 4], 10, HIT_STAND, Move.HIT),
        ([10, 2, 4], 6, HIT_STAND, Move.STAND),
        ([10, 5, 6], 6, frozenset({Move.STAND}), Move.STAND),
    ],
)
def test_move_for_falls_back_like_a_printed_chart(chart, hand, up, legal, move):
    assert chart.move_for(hand, up, legal) == move


def test_surrender_cells_with_late_surrender():
    chart = basic_chart(Rules(decks=1, surrender=Surrender.LATE))
    cell = chart.cell("hard", 16, 10)
    assert cell.move == Move.SURRENDER
    assert cell.code() == "Rh"
    assert chart.move_for([10, 6], 10, HIT_STAND) == Move.HIT


@pytest.mark.parametrize(("hand", "up", "move"), [([10, 2], 4, Move.HIT), ([7, 5], 4, Move.STAND)])
def test_best_move_is_composition_dependent(chart, hand, up, move):
    assert best_move(THOTH, hand, up) == move
    assert chart.move_for(hand, up, FIRST_TWO) == Move.STAND


def test_best_move_respects_legal():
    assert best_move(THOTH, [5, 6], 6, legal=HIT_STAND) == Move.HIT


def test_thoth_house_edge_is_about_0_4_percent(store):
    edge = house_edge(THOTH, store=store)
    assert edge.basic_strategy == pytest.approx(-0.0040, abs=1e-4)
    assert edge.basic_strategy < edge.composition_dependent < edge.basic_strategy + 1e-4
    assert json.loads(store.get(table_key("edge", THOTH)))["basic_strategy"] == (
        edge.basic_strategy
    )


# Wizard of Odds appendix 9 (resplit to 4 hands, no resplit of aces, peek, 3:2).
WIZARD = [
    (dict(decks=1), 0.001839),
    (dict(decks=1, double_after_split=False), 0.000423),
    (dict(decks=1, dealer_hits_soft_17=True), -0.000072),
    (dict(decks=1, dealer_hits_soft_17=True, double_after_split=False), -0.001513),
    (dict(decks=2, dealer_hits_soft_17=True), -0.003797),
    (dict(decks=2, dealer_hits_soft_17=True, double_after_split=False), -0.005252),
    (dict(decks=6, dealer_hits_soft_17=True, peek=Peek.NONE), -0.0072705),
    (dict(decks=6, dealer_hits_soft_17=True, peek=Peek.NONE, double_after_split=False),
     -0.0086975),
]  # fmt: skip


@pytest.mark.parametrize(("rules", "expected"), WIZARD[:1])
def test_house_edge_matches_wizard_of_odds(rules, expected):
    edge = house_edge(Rules(**rules))
    # Exact analyzers land within 0.001 percentage points of the site's figures.
    assert edge.composition_dependent == pytest.approx(expected, abs=1e-5)
    assert edge.basic_strategy <= edge.composition_dependent


def only_with_slow(request: pytest.FixtureRequest) -> None:
    """Long checks run only when asked for with ``-m slow``."""
    if "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("a long check: run with -m slow")


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "expected"), WIZARD[1:])
def test_house_edge_matches_wizard_of_odds_slow(request, rules, expected):
    only_with_slow(request)
    test_house_edge_matches_wizard_of_odds(rules, expected)


@pytest.mark.slow
def test_late_surrender_brings_thoth_to_about_0_33_percent(request):
    only_with_slow(request)
    edge = house_edge(Rules(surrender=Surrender.LATE))
    assert edge.basic_strategy == pytest.approx(-0.0033, abs=1e-4)


def test_rule_variations_change_one_rule_each():
    variants = rule_variations(THOTH)
    assert variants["--h17"] == Rules(dealer_hits_soft_17=True)
    assert variants["--surrender late"] == Rules(surrender=Surrender.LATE)
    assert "--decks 6" not in variants
    for variant in variants.values():
        differing = [f for f in THOTH.to_dict() if THOTH.to_dict()[f] != variant.to_dict()[f]]
        assert len(differing) == 1


# --- the AI levels ------------------------------------------------------------------------

OFFER = frozenset({Move.INSURE, Move.DECLINE})


@pytest.mark.parametrize(
    ("cards", "legal", "move"),
    [
        ([10, 6], FIRST_TWO, Move.HIT),
        ([10, 7], FIRST_TWO, Move.STAND),
        ([1, 5], FIRST_TWO, Move.HIT),  # soft 16 is below 17
        ([1, 6], FIRST_TWO, Move.STAND),
        ([10, 5], frozenset({Move.STAND}), Move.STAND),
        ([5, 5], OFFER, Move.DECLINE),
    ],
)
def test_easy_hits_below_17(cards, legal, move):
    assert EASY.choose(cards=cards, up=10, legal=legal, rules=THOTH) == move


def test_normal_follows_the_chart(chart):
    assert NORMAL.choose(cards=[10, 2], up=4, legal=FIRST_TWO, rules=THOTH) == Move.STAND
    assert NORMAL.choose(cards=[5, 6], up=6, legal=HIT_STAND, rules=THOTH) == Move.HIT
    assert NORMAL.choose(cards=[1, 10], up=1, legal=OFFER, rules=THOTH) == Move.DECLINE


def test_hard_plays_the_exact_best_move():
    assert HARD.choose(cards=[10, 2], up=4, legal=FIRST_TWO, rules=THOTH) == Move.HIT
    assert HARD.choose(cards=[5, 6], up=6, legal=HIT_STAND, rules=THOTH) == Move.HIT


def test_hard_uses_the_cards_it_has_seen():
    # With many small cards gone, 16 against a 10 is better left alone.
    seen = [2, 3, 4, 5, 1] * 6
    assert HARD.choose(cards=[10, 6], up=10, legal=HIT_STAND, rules=THOTH) == Move.HIT
    assert HARD.choose(cards=[10, 6], up=10, legal=HIT_STAND, rules=THOTH, seen=seen) == (
        Move.STAND
    )


def test_hard_insures_only_when_the_shoe_is_rich_in_tens():
    assert HARD.choose(cards=[5, 6], up=1, legal=OFFER, rules=THOTH) == Move.DECLINE
    small = [2, 3, 4, 5, 6, 7, 8, 9] * 10
    assert HARD.choose(cards=[5, 6], up=1, legal=OFFER, rules=THOTH, seen=small) == Move.INSURE


def test_policies_by_name():
    assert set(POLICIES) == {"easy", "normal", "hard"}
    assert all(POLICIES[name].name == name for name in POLICIES)


@pytest.mark.slow
def test_rule_effects_have_the_familiar_signs_and_sizes(request):
    only_with_slow(request)
    effects = rule_effects(THOTH, store=MemoryStore())
    assert effects["--h17"] == pytest.approx(-0.0020, abs=0.0005)
    assert effects["--bj-pays 6:5"] == pytest.approx(-0.0136, abs=0.001)
    assert effects["--no-das"] == pytest.approx(-0.0014, abs=0.0005)
    assert effects["--surrender late"] == pytest.approx(0.0007, abs=0.0003)
    assert effects["--decks 1"] > effects["--decks 2"] > 0 > effects["--decks 8"]
    assert effects["--double 10-11"] < effects["--double 9-11"] < 0
    assert effects["--peek none"] < 0


def _all_legal_sets():
    return [
        frozenset(subset)
        for size in range(1, len(MOVE_ORDER) + 1)
        for subset in itertools.combinations(MOVE_ORDER, size)
    ]


@pytest.mark.parametrize("rules", [THOTH, Rules(decks=1, surrender=Surrender.LATE)])
def test_precomputed_pick_matches_the_max_over_evs_on_every_cell_and_legal_set(rules):
    chart = basic_chart(rules)
    checked = 0
    for kind, row, up in chart.cells:
        cell = chart.cell(kind, row, up)
        for legal in _all_legal_sets():
            expected = Chart._pick(cell, legal)
            if kind == "pair":
                assert chart.move_for([row, row], up, legal) == expected
            else:
                assert chart.move_for_total(row, kind == "soft", up, legal) == expected
            checked += 1
    assert checked == len(chart.cells) * (2 ** len(MOVE_ORDER) - 1)


def test_precomputed_pick_breaks_ties_by_move_order():
    evs = {Move.HIT: 0.0, Move.STAND: 0.0, Move.DOUBLE: 0.0}
    fake = Chart(THOTH, {("hard", 11, 6): Cell(Move.HIT, evs)})
    for legal in _all_legal_sets():
        assert fake.move_for([5, 6], 6, legal) == Chart._pick(fake.cell("hard", 11, 6), legal)


@pytest.mark.parametrize("up", UPS)
def test_move_for_maps_every_hand_to_its_cell(chart, up):
    hands = [[a, b] for a in range(1, 11) for b in range(1, 11)]
    hands += [[a, b, c] for a in range(1, 11) for b in range(1, 11) for c in range(1, 11)]
    for hand in hands:
        if sum(hand) > 21 or (len(hand) == 2 and sorted(hand) == [1, 10]):
            continue
        kind, row, _up = cell_key(hand, up)
        for legal in (HIT_STAND, FIRST_TWO, FIRST_TWO | {Move.SPLIT}):
            assert chart.move_for(hand, up, legal) == Chart._pick(chart.cell(kind, row, up), legal)


def test_move_for_refuses_a_bust_hand(chart):
    with pytest.raises(ValueError, match="bust"):
        chart.move_for([10, 10, 5], 6, HIT_STAND)
