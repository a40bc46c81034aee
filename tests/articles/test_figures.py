"""Every figure an article uses equals the engine's value, computed here from the engine's own
functions (not through articles.figures), and is shown in the page's language."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.utils import translation

from articles import content, figures, numbers, selectors
from blackjack import (
    EASY,
    PRESETS,
    Move,
    analyze,
    dealer_probabilities,
    full_composition,
    house_edge,
    insurance_return,
    remove_cards,
)
from blackjack.counting import Tally
from game.stakes import HOUSE_TABLES, stakes_for_preset
from tests.articles.conftest import _DOC, COUNT_ROUNDS, count_doc, count_table, house_doc

UP = {"A": 1, **{str(p): p for p in range(2, 11)}}
RULES = PRESETS["thoth"]


def _bust(rules, up: int, *, peeked: bool) -> float:
    comp = remove_cards(full_composition(rules.decks), [up])
    return dealer_probabilities(rules, up, comp, no_blackjack=peeked).bust


def _edge(rules) -> tuple[float, float]:
    """``house_edge`` itself, reading the tables it stored while the session's figures were
    computed (the chart and the edge are the engine's own documents: recomputing them here
    would only repeat the same calls for another half-minute)."""
    house_doc()
    e = house_edge(rules, store=_DOC["store"])
    return -e.basic_strategy, -e.composition_dependent


def engine_value(name: str):
    """The engine's value of one figure, straight from ``blackjack``."""
    parts = name.split(".")
    head = parts[0]
    if head == "dealer_bust":
        up = UP[parts[1]]
        return _bust(RULES, up, peeked=RULES.peeks_under(up))
    if head == "dealer_bust_pre":
        return _bust(RULES, UP[parts[1]], peeked=False)
    if head == "edge":
        if parts[1] == "h17":
            return _edge(replace(RULES, dealer_hits_soft_17=True))[0]
        basic, cd = _edge(RULES)
        return {"basic": basic, "cd": cd, "cd_gain": basic - cd}[parts[1]]
    if head == "preset":
        rules = PRESETS[parts[1]]
        what = ".".join(parts[2:])
        if what in ("edge", "edge_cd"):
            return _edge(rules)[what == "edge_cd"]
        if what == "bust.6":
            return _bust(rules, 6, peeked=False)
        if what == "bust.10":
            return _bust(rules, 10, peeked=rules.peeks_under(10))
        if what == "decks":
            return rules.decks
        if what == "name":
            return None  # a display name, not a figure: test_content checks it is shown
        stakes = stakes_for_preset(parts[1])
        return {"min_bet": stakes.min_bet, "max_bet": stakes.max_bet}[what]
    if head in ("soft17", "soft18"):
        hand = (1, 6) if head == "soft17" else (1, 7)
        a = analyze(RULES, hand, UP[parts[1]])
        return a.best.value if parts[2] == "best" else a.ev[Move(parts[2])]
    if head == "ins":
        comp = remove_cards(full_composition(6), [1])
        p_ace = 24 / 312
        return {
            "tens": comp[9],
            "unseen": sum(comp),
            "p_ten": comp[9] / sum(comp),
            "ev": insurance_return(comp),
            "ev_main": 0.5 * insurance_return(comp),
            "ev_main.10_10": analyze(RULES, (10, 10), 1).insurance,
            "even_money": analyze(RULES, (1, 10), 1).insurance,
            "p_ace_up": p_ace,
            "habit_per_100": -100 * p_ace * 0.5 * insurance_return(comp),
        }[".".join(parts[1:])]
    if head == "shoe":
        return {"cards": 312, "reshuffle_below": 78, "decks": 6}[parts[1]]
    if head == "policy":
        return None  # checked below against the engine's own AI and published figures
    if head == "chart":
        return 1
    if head == "table":
        t = next(t for t in HOUSE_TABLES if t.slug == parts[1])
        return {"min": t.min_bet, "max": t.max_bet, "chips": list(t.chips)}[parts[2]]
    if head == "wallet":
        return 1000
    if head in ("boxes", "split"):
        return {"boxes": 5, "split": 4}[head]
    if head == "round":
        return None  # the worked round: see test_worked_round
    if head in ("count", "index"):
        return count_oracle(name)
    raise AssertionError(f"no engine oracle for {name!r}")


def count_oracle(name: str):
    """The counting figures from the simulation's own tallies and the stored index table."""
    doc = count_doc()
    flat, counter = Tally.from_dict(doc["flat"]), Tally.from_dict(doc["counter"])
    if name.startswith("index."):
        key, _, what = name.removeprefix("index.").partition(".")
        cells = {"16v10": ("hard", 16, 10), "15v10": ("hard", 15, 10),
                 "12v3": ("hard", 12, 3), "insurance": ("insurance", 0, 1)}  # fmt: skip
        kind, row, up = cells[key]
        (play,) = count_table().find(kind, row, up)
        return play.gain if what == "gain" else play.index
    return {
        "count.rounds": COUNT_ROUNDS,
        "count.seed": 7,
        "count.shoes": counter.shoes,
        "count.penetration": 0.75,
        "count.flat.edge": -flat.won / flat.bet,
        "count.flat.return": flat.won / flat.bet,
        "count.flat.sigma": flat.of_bet_sigma,
        "count.ramp.return": counter.won / counter.bet,
        "count.ramp.sigma": counter.of_bet_sigma,
        "count.ramp.per_round": counter.won / COUNT_ROUNDS,
        "count.ramp.per_round_sigma": counter.per_round_sigma,
        "count.ramp.per_100": 100 * counter.won / COUNT_ROUNDS,
        "count.ramp.sd_round": counter.sd_round,
        "count.ramp.average_bet": counter.bet / COUNT_ROUNDS,
        "count.ramp.n0": doc["figures"]["count.ramp.n0"],
        "count.gain": counter.won / counter.bet - flat.won / flat.bet,
        "count.ramp.low": 1,
        "count.ramp.high": 8,
        "count.ramp.start": 1,
        "count.ramp.step": 2,
        "count.ramp.first": 2,
        "count.ramp.top": 5,
        "count.rounds_per_second": None,
    }[name]


def used_names() -> list[str]:
    names = {
        name
        for lang in content.language_codes()
        for slug in content.SLUGS
        if (src := content.source(lang, slug)) is not None
        for name, _fmt in src.placeholders()
    }
    return sorted(names)


def stored() -> dict:
    return {
        **house_doc()["figures"],
        **count_doc()["figures"],
        **figures.worked_round_figures(),
        **figures.static_figures(),
        **figures.preset_names(),
    }


@pytest.mark.parametrize("name", used_names())
def test_every_placeholder_is_the_engines_value(name):
    value = stored()[name]
    expected = engine_value(name)
    if expected is None:
        return
    if isinstance(expected, float):
        assert value == pytest.approx(expected, rel=1e-12, abs=1e-12), name
    else:
        assert value == expected, name


def test_the_presets_edges_match_published_figures():
    f = house_doc()["figures"]
    # RULES.md: about 0.4 % with basic strategy; Grochowski 0.40 % for these rules.
    assert f["edge.basic"] == pytest.approx(0.0040, abs=0.0002)
    assert f["preset.free.edge"] == f["edge.basic"], "insurance does not change the edge"


def test_a_dealer_hitting_soft_17_costs_what_is_published():
    """The FAQ's figure: Wizard of Odds (appendix 9, five decks, DAS) has H17 at 0.5918 % and S17
    at 0.3804 %, a cost of 0.21 %; six decks cost about the same."""
    f = house_doc()["figures"]
    assert f["edge.h17"] - f["edge.basic"] == pytest.approx(0.005918 - 0.003804, abs=0.0002)


def test_the_easy_policy_is_the_engines_easy_ai():
    """The policy whose edge the article prints plays every total as the Easy AI does."""
    legal = frozenset({Move.HIT, Move.STAND, Move.DOUBLE})
    for cards in ([10, 2], [10, 6], [9, 8], [1, 6], [1, 5, 1], [5, 5], [8, 8], [1, 7]):
        for up in range(1, 11):
            ours = figures.EASY.move_for(cards, up, legal)
            theirs = EASY.choose(cards=cards, up=up, legal=legal, rules=RULES)
            assert ours == theirs, (cards, up)


def test_simple_policies_cost_what_is_published():
    """Mimicking the dealer costs about 5.5 % (Wizard of Odds: 5.48 % for 6 decks, S17) and
    never busting more; both are far worse than the chart."""
    f = house_doc()["figures"]
    assert f["policy.mimic"] == pytest.approx(0.055, abs=0.003)
    assert f["policy.never_bust"] > f["policy.mimic"] > f["edge.basic"]
    assert f["policy.easy"] == f["policy.mimic"], "S17: the Easy AI's rule is the dealer's"


def test_worked_round_is_a_real_round():
    state = figures.worked_round()
    assert state.phase.value == "settled"
    r = figures.worked_round_figures()
    assert r["round.paid"] == sum(h.paid for h in state.box(0).hands)
    assert r["round.won"] == r["round.paid"] - r["round.staked"]
    assert (r["round.hand1"], r["round.hand2"], r["round.dealer_final"]) == (21, 18, 23)


@pytest.mark.parametrize(
    ("lang", "value", "fmt", "text"),
    [
        ("en", 0.42284, "pct1", "42.3%"),
        ("uk", 0.42284, "pct1", "42,3\u00a0%"),
        ("cs", -0.07395, "signed1", "\u22127,4\u00a0%"),
        ("ru", 1500, "int", "1\u00a0500"),
        ("en", 1500, "int", "1,500"),
        ("hy", 0.004057, "pct2", "0,41\u00a0%"),
        ("be", 0.1201, "signed1", "+12,0\u00a0%"),
    ],
)
def test_figures_in_the_pages_language(lang, value, fmt, text):
    with translation.override(lang):
        assert numbers.FORMATS[fmt](value) == text


def test_a_page_render_reads_the_figures_once(house_figures, django_assert_max_num_queries):
    selectors.forget()
    with django_assert_max_num_queries(3):  # the figures, the chart tables: once per process
        selectors.page("en", "basic-strategy")
        selectors.page("en", "rules")
    with django_assert_max_num_queries(0):
        selectors.page("en", "basic-strategy")
        selectors.page("en", "insurance")


def test_edge_compute_stores_the_chart_then_the_edge_with_progress(db):
    """A worker's first step on a calculator job: the chart one up card at a time (progress
    after each), stored, then the engine's house edge of those rules."""
    from blackjack import Rules, basic_chart, load_json, table_key
    from computed.store import DatabaseTableStore
    from computed.tables import chart_key

    rules = Rules(decks=8, double_after_split=False)
    seen = []
    figures.edge_compute(rules, lambda done, total: seen.append((done, total)))
    assert seen == [(n, 10) for n in range(1, 11)]
    store = DatabaseTableStore()
    assert store.get(chart_key(rules)) is not None
    stored = figures.edge_get(rules)
    assert stored is not None
    assert load_json(store, table_key("edge", rules)) is not None
    edge = house_edge(rules)
    assert stored.basic == -edge.basic_strategy and stored.cd == -edge.composition_dependent
    assert basic_chart(rules).cells == basic_chart(rules, store=store).cells
