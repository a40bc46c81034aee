import pytest

from blackjack import PRESETS, Chart, Move, analyze, basic_chart
from computed.tables import UPS, Tables, chart_move_with, drill_key, live_cell
from tests.computed.docs import thoth_docs

THOTH = PRESETS["thoth"]


@pytest.fixture(scope="module")
def tables():
    docs = thoth_docs()
    return Tables.from_json(docs["data"], Chart.from_dict(docs["chart"]))


# The published six-deck, S17, DAS basic strategy (e.g. Wizard of Odds' chart for these rules).
@pytest.mark.parametrize(
    ("kind", "row", "up", "code"),
    [
        ("hard", 16, 10, "H"),
        ("hard", 16, 6, "S"),
        ("hard", 12, 2, "H"),
        ("hard", 12, 4, "S"),
        ("hard", 11, 10, "Dh"),
        ("hard", 11, 1, "H"),
        ("hard", 10, 9, "Dh"),
        ("hard", 9, 2, "H"),
        ("hard", 9, 3, "Dh"),
        ("hard", 8, 6, "H"),
        ("hard", 17, 1, "S"),
        ("soft", 18, 2, "S"),
        ("soft", 18, 3, "Ds"),
        ("soft", 18, 9, "H"),
        ("soft", 17, 2, "H"),
        ("soft", 17, 3, "Dh"),
        ("soft", 13, 5, "Dh"),
        ("soft", 19, 6, "S"),
        ("pair", 1, 1, "P"),
        ("pair", 8, 10, "P"),
        ("pair", 9, 7, "S"),
        ("pair", 9, 8, "P"),
        ("pair", 10, 6, "S"),
        ("pair", 5, 9, "Dh"),
        ("pair", 4, 5, "P"),
        ("pair", 4, 4, "H"),
        ("pair", 2, 7, "P"),
        ("pair", 6, 7, "H"),
    ],
)
def test_thoth_chart_is_the_published_basic_strategy(tables, kind, row, up, code):
    assert tables.cell(kind, row, up).code() == code


def test_the_chart_is_the_strategy_modules(tables):
    assert len(tables.chart.cells) == (17 + 9 + 10) * len(UPS)
    reference = basic_chart(THOTH)
    assert tables.chart.cells.keys() == reference.cells.keys()
    for key, cell in reference.cells.items():
        assert tables.chart.cells[key].move == cell.move
        assert tables.chart.cells[key].ev == pytest.approx(cell.ev, abs=1e-12)


@pytest.mark.parametrize(("hand", "up"), [((10, 6), 10), ((8, 8), 6), ((1, 7), 3), ((5, 5), 1)])
def test_stored_analysis_is_the_engines(tables, hand, up):
    stored = tables.two_card_ev(hand, up, pair=hand[0] == hand[1])
    # Equal to rounding: the engine's memo, filled in another order by earlier tests, may add
    # the same terms in another order (seen: 0.4055152609228876 against ...883).
    assert stored == pytest.approx(analyze(THOTH, hand, up).ev, abs=1e-12)


def test_chart_or_exact_list_holds_multi_card_hands_where_they_differ(tables):
    assert len(tables.exact) > 10
    for cards, up, best, chart in tables.exact:
        assert len(cards) >= 3 and best != chart
        assert analyze(THOTH, cards, up, pair=False).best == best
    # The classic case: a three-card 16 against a ten stands, the chart hits.
    assert ((2, 4, 10), 10, Move.STAND, Move.HIT) in tables.exact


@pytest.mark.parametrize(
    ("hand", "up", "legal", "expected"),
    [
        ((1, 7), 3, {Move.HIT, Move.STAND, Move.DOUBLE}, Move.DOUBLE),
        ((1, 3, 4), 3, {Move.HIT, Move.STAND}, Move.STAND),  # "Ds" without a double: stand
        ((2, 4, 5), 6, {Move.HIT, Move.STAND}, Move.HIT),  # "D" without a double: hit
        ((8, 8), 10, {Move.HIT, Move.STAND, Move.DOUBLE, Move.SPLIT}, Move.SPLIT),
        ((8, 8), 10, {Move.HIT, Move.STAND, Move.DOUBLE}, Move.HIT),  # no split: hard 16
        ((10, 5, 6), 10, {Move.STAND}, Move.STAND),
        ((2, 2), 7, {Move.HIT, Move.STAND, Move.DOUBLE}, Move.HIT),  # hard 4 reads row 5
    ],
)
def test_chart_move_falls_back_where_the_move_is_not_allowed(tables, hand, up, legal, expected):
    pair = len(hand) == 2 and hand[0] == hand[1]
    assert tables.chart_move(hand, up, frozenset(legal), pair=pair) == expected


def test_surrender_cells_of_the_sixdeck_preset():
    rules = PRESETS["sixdeck"]

    def cell(kind, row):
        return live_cell(rules, kind, row, 10)

    assert cell("hard", 16).code() == "Rh"
    legal = frozenset({Move.HIT, Move.STAND})
    assert chart_move_with(cell, (10, 2, 4), legal, pair=False) == Move.HIT


def test_keys():
    assert drill_key(THOTH) == f"drill-v4-{THOTH.key()}"


@pytest.mark.parametrize(("hand", "up"), [((2, 4, 10), 10), ((3, 4, 5), 6), ((1, 2, 3), 6)])
def test_multi_card_hands_are_stored_with_the_dealers_bust_chance(tables, hand, up):
    ev, bust = tables.lookup(hand, up, pair=False)
    a = analyze(THOTH, hand, up, pair=False)
    assert ev == pytest.approx(a.ev, abs=1e-12) and bust == pytest.approx(a.dealer.bust, abs=1e-12)
    assert tables.lookup((9, 9, 2), up, pair=False) is None  # hard 20: not asked
