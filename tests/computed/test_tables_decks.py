"""Issue 15, finding 2: every one-deck chart failed (``ValueError('card not in the shoe')``):
the "chart or exact" search asked about hands such as 3,3,3,3 against a 3, which a one-deck
shoe cannot deal.  Charts for a sample of the option combinations the form accepts, one and
two decks with every preset among them."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from blackjack import (
    PRESETS,
    Chart,
    DoubleOn,
    MemoryStore,
    Move,
    PairsBy,
    Peek,
    Rules,
    Surrender,
    can_deal,
    load_json,
)
from computed.tables import Tables, chart_key, compute_tables


def check(rules: Rules) -> None:
    store = MemoryStore()
    data = compute_tables(rules, store=store)
    chart = load_json(store, chart_key(rules))
    assert chart is not None
    tables = Tables.from_json(data, Chart.from_dict(chart))
    assert tables.rules == rules
    for key, ev in data["analyses"].items():
        assert ev and all(-2.0 - 1e-9 <= v <= 2.0 + 1e-9 for v in ev.values()), key
    for cards, up, _best, _chart in tables.exact:
        assert can_deal(rules, [*cards, up])
    # every two-card hand but a blackjack is stored, splits included
    assert Move.SPLIT in tables.two_card_ev([8, 8], 10, pair=True)


@pytest.mark.parametrize("name", ["live", "sixdeck"])
def test_one_deck_chart(name):
    check(replace(PRESETS[name], decks=1))


@pytest.mark.slow
@pytest.mark.parametrize("decks", [1, 2])
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_one_and_two_decks(name, decks):
    check(replace(PRESETS[name], decks=decks))


def sample_rules(count: int, seed: int) -> list[Rules]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        base = PRESETS[sorted(PRESETS)[i % len(PRESETS)]]
        out.append(
            replace(
                base,
                decks=rng.choice([1, 2, 4, 6, 8]) if i >= 2 else i + 1,
                dealer_hits_soft_17=rng.random() < 0.5,
                peek=rng.choice(list(Peek)),
                double_on=rng.choice(list(DoubleOn)),
                double_soft=rng.random() < 0.5,
                double_after_split=rng.random() < 0.5,
                max_hands=rng.choice([2, 3, 4]),
                pairs_by=rng.choice(list(PairsBy)),
                resplit_aces=rng.random() < 0.5,
                hit_split_aces=rng.random() < 0.5,
                surrender=rng.choice(list(Surrender)),
            )
        )
    return out


@pytest.mark.slow
@pytest.mark.parametrize("rules", sample_rules(8, seed=15), ids=lambda r: r.key()[:12])
def test_sampled_option_combinations(rules):
    check(rules)


def test_can_deal():
    assert not can_deal(Rules(decks=1), [3, 3, 3, 3, 3])
    assert can_deal(Rules(decks=1), [10] * 16)
    assert not can_deal(Rules(decks=1), [1, 1, 1, 10, 1, 1])
    assert can_deal(Rules(decks=2), [1, 1, 1, 10, 1, 1])
