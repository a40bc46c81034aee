"""Every figure the articles print, and the one door from the articles to the engine and the
stored tables.

The other apps are being re-laid (the engine behind one public face, the stored tables and
their jobs in their own app, the jobs on a task queue): every import of ``blackjack``,
``trainer.charts``, ``trainer.store``, ``trainer.services`` and ``trainer.selectors`` made by
the articles is in this module, so that the merge touches only it.

A *figure set* is computed once per rule set (:func:`figures_compute`, about a minute of CPU:
five presets' house edges, three simple policies' edges, the dealer's bust chances, the soft
17/18 and insurance figures), stored as one document in the table store, and kept parsed in
process memory (:func:`figures_get`), so that a page render does no mathematics and at most one
query per process and rule set.  Names are dotted (``dealer_bust.6``, ``edge.thoth``): see
:data:`FIGURE_KINDS` for how each is shown.
"""

from __future__ import annotations

import itertools
import json
import logging
import math
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from blackjack import (
    DEFAULT_PRESET,
    PRESETS,
    UPS,
    Chart,
    Move,
    Rules,
    TableStore,
    analyze,
    basic_chart,
    dealer_probabilities,
    full_composition,
    house_edge,
    load_json,
    parse_cards,
    prepare_full_shoe,
    remove_cards,
    replay,
    round_ev,
    save_json,
    table_key,
)
from blackjack import points_total as hand_total
from blackjack.counting import HI_LO, IndexTable, Ramp, Tally, study
from computed import indices as computed_indices
from computed import selectors as computed_selectors
from computed import services as computed_services
from computed.models import ChartJob
from computed.store import DatabaseTableStore
from computed.tables import (
    HARD_ROWS,
    PAIR_ROWS,
    SOFT_ROWS,
    build_chart,
    chart_key,
    compute_tables,
)
from game.stakes import HOUSE_TABLES, stakes_for_preset
from trainer.forms import PRESET_LABELS

logger = logging.getLogger(__name__)

FORMAT_VERSION = 2  # 2: edge.h17
HOUSE = PRESETS[DEFAULT_PRESET]
UP_NAMES: dict[int, str] = {1: "A", **{p: str(p) for p in range(2, 11)}}

# --- simple ways of playing, as charts the engine can play (``HandChart``) ---------------


class _TotalPolicy:
    """A player who looks only at the total: hits while ``hit(total, soft, up)``, never
    doubles, splits or insures.  The engine plays it like a chart (``round_ev``)."""

    def __init__(self, name: str, hit: Any) -> None:
        self.name = name
        self._hit = hit

    def move_for(self, hand: Sequence[int], up: int, legal: frozenset[Move]) -> Move:
        total, soft = hand_total(hand)
        return self.move_for_total(total, soft, up, legal)

    def move_for_total(self, total: int, soft: bool, up: int, legal: frozenset[Move]) -> Move:
        if Move.HIT in legal and self._hit(total, soft, up):
            return Move.HIT
        return Move.STAND


# The Easy AI seat-mate (blackjack.strategy.EasyPolicy): hits below 17, whatever the cards.
EASY = _TotalPolicy("easy", lambda total, soft, up: total < 17)
# Mimic the dealer: hit below 17 and on soft 17 under H17; here the house stands on soft 17,
# so it is the Easy AI's rule -- kept apart because it differs under H17.
MIMIC = _TotalPolicy("mimic", lambda total, soft, up: total < 17)
MIMIC_H17 = _TotalPolicy("mimic", lambda total, soft, up: total < 17 or (total == 17 and soft))
# Never bust: hit only a hand no card can take over 21 (hard 11 or less, or any soft hand
# below 17: a soft hand cannot bust on one card; stand on soft 17 and up as most do).
NEVER_BUST = _TotalPolicy(
    "never_bust", lambda total, soft, up: total <= 11 or (soft and total < 17)
)
POLICIES: dict[str, _TotalPolicy] = {p.name: p for p in (MIMIC, NEVER_BUST, EASY)}


def _dealt(rules: Rules, hand: Sequence[int], up: int) -> float:
    """Chance of being dealt this multiset of two cards from a full shoe less the up card."""
    comp = list(full_composition(rules.decks))
    comp[up - 1] -= 1
    n = sum(comp)
    a, b = hand
    p = comp[a - 1] / n * (comp[b - 1] - (a == b)) / (n - 1)
    return p if a == b else 2 * p


def policy_return(rules: Rules, policy: _TotalPolicy) -> float:
    """Expected return per initial bet of a round played by ``policy`` (insurance declined;
    a dealer blackjack found by the peek takes the bet, a player blackjack pushes it)."""
    if policy is MIMIC and rules.dealer_hits_soft_17:
        policy = MIMIC_H17
    full = full_composition(rules.decks)
    n = sum(full)
    prepare_full_shoe(rules)
    total = 0.0
    for up in range(1, 11):
        for hand in itertools.combinations_with_replacement(range(1, 11), 2):
            p = full[up - 1] / n * _dealt(rules, hand, up)
            total += p * round_ev(rules, hand, up, policy)
    return total


# --- the figure set ------------------------------------------------------------------------


def figures_key(rules: Rules) -> str:
    return table_key("articles-figures", rules).replace("-v1-", f"-v{FORMAT_VERSION}-")


def _dealer_bust(rules: Rules, up: int, *, after_peek: bool) -> float:
    comp = remove_cards(full_composition(rules.decks), [up])
    return dealer_probabilities(rules, up, comp, no_blackjack=after_peek).bust


def _edges(rules: Rules, store: TableStore | None) -> tuple[float, float]:
    """House edge (positive: the house's) with basic strategy and with exact play."""
    e = house_edge(rules, store=store)
    return -e.basic_strategy, -e.composition_dependent


def figures_compute(rules: Rules = HOUSE, store: TableStore | None = None) -> dict[str, Any]:
    """Every figure of the articles for ``rules`` (the house rules; the presets' figures are
    always those of each preset).  Values are floats: probabilities and returns as fractions
    (0.0041 is 0.41 %), counts as numbers."""
    f: dict[str, Any] = {}
    for up in range(1, 11):
        name = UP_NAMES[up]
        f[f"dealer_bust.{name}"] = _dealer_bust(rules, up, after_peek=rules.peeks_under(up))
        f[f"dealer_bust_pre.{name}"] = _dealer_bust(rules, up, after_peek=False)
    basic, cd = _edges(rules, store)
    f["edge.basic"], f["edge.cd"] = basic, cd
    f["edge.cd_gain"] = basic - cd
    # The FAQ's soft-17 answer: the same rules with a dealer who hits soft 17.
    f["edge.h17"] = _edges(replace(rules, dealer_hits_soft_17=True), store)[0]
    for preset, prules in PRESETS.items():
        pb, pcd = (basic, cd) if prules == rules else _edges(prules, store)
        f[f"preset.{preset}.edge"] = pb
        f[f"preset.{preset}.edge_cd"] = pcd
        f[f"preset.{preset}.bust.6"] = _dealer_bust(prules, 6, after_peek=False)
        f[f"preset.{preset}.bust.10"] = _dealer_bust(prules, 10, after_peek=prules.peeks_under(10))
        f[f"preset.{preset}.decks"] = prules.decks
        stakes = stakes_for_preset(preset)
        f[f"preset.{preset}.min_bet"] = stakes.min_bet
        f[f"preset.{preset}.max_bet"] = stakes.max_bet
    for name, policy in POLICIES.items():
        edge = -policy_return(rules, policy)
        f[f"policy.{name}"] = edge
        f[f"policy.{name}.cost"] = edge - basic
    chart = basic_chart(rules, store=store)
    f["chart.splits_88_vs_10"] = 1 if chart.cell("pair", 8, 10).move == Move.SPLIT else 0
    for total, soft_hand in ((17, (1, 6)), (18, (1, 7))):
        for up in UPS:
            a = analyze(rules, soft_hand, up)
            for move in (Move.STAND, Move.HIT, Move.DOUBLE):
                if move in a.ev:
                    f[f"soft{total}.{UP_NAMES[up]}.{move.value}"] = a.ev[move]
            f[f"soft{total}.{UP_NAMES[up]}.best"] = a.best.value
    # Insurance, six decks, the player's own two cards not counted (the chance a reader uses).
    comp = remove_cards(full_composition(rules.decks), [1])
    tens, unseen = comp[9], sum(comp)
    f["ins.tens"], f["ins.unseen"] = tens, unseen
    f["ins.p_ten"] = tens / unseen
    f["ins.ev"] = 3 * tens / unseen - 1  # per unit of the insurance bet
    f["ins.ev_main"] = 0.5 * f["ins.ev"]  # per unit of the main bet (insurance is half of it)
    a = analyze(rules, (10, 10), 1)
    assert a.insurance is not None
    f["ins.ev_main.10_10"] = a.insurance
    bj = analyze(rules, (1, 10), 1)
    assert bj.insurance is not None
    f["ins.even_money"] = bj.insurance  # what taking even money adds (negative: it costs)
    p_ace = full_composition(rules.decks)[0] / sum(full_composition(rules.decks))
    f["ins.p_ace_up"] = p_ace
    f["ins.habit_per_100"] = -100 * p_ace * f["ins.ev_main"]  # bets lost per 100 hands
    f["shoe.cards"] = rules.decks * 52
    f["shoe.reshuffle_below"] = rules.reshuffle_point
    f["shoe.decks"] = rules.decks
    return {"version": FORMAT_VERSION, "rules": rules.to_dict(), "figures": f}


_FIGURES: dict[str, dict[str, Any]] = {}
_LOCK = threading.Lock()


def figures_store(*, doc: dict[str, Any], rules: Rules = HOUSE) -> None:
    """Keep a computed figure set (``manage.py bootstrap``, tests)."""
    save_json(DatabaseTableStore(), figures_key(rules), doc)
    with _LOCK:
        _FIGURES.pop(figures_key(rules), None)


def figures_get(rules: Rules = HOUSE) -> dict[str, Any] | None:
    """The stored figures of ``rules`` (one query per process), or ``None`` if not computed."""
    key = figures_key(rules)
    with _LOCK:
        found = _FIGURES.get(key)
    if found is not None:
        return found
    doc = load_json(DatabaseTableStore(), key)
    if doc is None or doc.get("version") != FORMAT_VERSION:
        return None
    figures: dict[str, Any] = doc["figures"]
    with _LOCK:
        _FIGURES[key] = figures
    return figures


def figures_forget() -> None:
    with _LOCK:
        _FIGURES.clear()
        _COUNTS.clear()
        _EDGES.clear()
        _CHART_DOCS.clear()


def figures_ensure() -> bool:
    """Compute and keep the house figures unless stored (bootstrap). True if computed."""
    if figures_get() is not None:
        return False
    figures_store(doc=figures_compute(HOUSE, DatabaseTableStore()))
    return True


# --- the worked round --------------------------------------------------------------------

# A real round of the engine: this shoe order, these moves, the house rules.  The 8s are split
# against a 6, the first hand doubles after the split, the dealer draws to 16 and busts.
WORKED_SHOE = "8s 6h 8d 10s 3c 10d Kc 7c"
WORKED_MOVES = (Move.SPLIT, Move.DOUBLE, Move.STAND)
WORKED_BET = 500


def worked_round() -> Any:
    """The finished round (a ``RoundState``) replayed through the engine."""
    cards = parse_cards(WORKED_SHOE)
    state = replay(HOUSE, {0: WORKED_BET}, cards, WORKED_MOVES)
    return state


def worked_round_figures() -> dict[str, Any]:
    """The round's numbers for the text: bet, totals, stakes and payouts."""
    state = worked_round()
    box = state.box(0)
    hands = box.hands
    return {
        "round.bet": WORKED_BET,
        "round.hand1": hands[0].total,
        "round.hand2": hands[1].total,
        "round.hand1_stake": hands[0].stake,
        "round.hand2_stake": hands[1].stake,
        "round.dealer_first": hand_total([c.points for c in state.dealer[:2]])[0],
        "round.dealer_final": state.dealer_total,
        "round.staked": int(box.staked),
        "round.paid": int(box.paid),
        "round.won": int(box.paid - box.staked),
    }


# --- the chart ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ChartGrid:
    kind: str
    rows: list[tuple[int, list[tuple[int, str]]]]  # row, [(up, code)]


_CHART_DOCS: dict[str, Chart] = {}


def chart_grids(rules: Rules = HOUSE) -> list[ChartGrid] | None:
    """The stored chart's cells (the document ``/trainer/chart/`` shows), or ``None`` if it is
    not stored yet.  Read once per process; never computed here."""
    key = chart_key(rules)
    with _LOCK:
        chart = _CHART_DOCS.get(key)
    if chart is None:
        data = load_json(DatabaseTableStore(), key)
        if data is None:
            return None
        chart = Chart.from_dict(data)
        with _LOCK:
            _CHART_DOCS[key] = chart
    rows = {"hard": HARD_ROWS, "soft": SOFT_ROWS, "pair": PAIR_ROWS}
    return [
        ChartGrid(
            kind,
            [(row, [(up, chart.cell(kind, row, up).code()) for up in UPS]) for row in rows[kind]],
        )
        for kind in ("hard", "soft", "pair")
    ]


def chart_ups() -> tuple[int, ...]:
    return UPS


# --- the house-edge calculator -------------------------------------------------------------


@dataclass(frozen=True)
class EdgeAnswer:
    rules: Rules
    basic: float  # house edge, positive: the house's
    cd: float


_EDGES: dict[str, EdgeAnswer] = {}


def edge_get(rules: Rules) -> EdgeAnswer | None:
    """The stored house edge of ``rules`` (read only: a GET starts no work)."""
    key = rules.key()
    with _LOCK:
        found = _EDGES.get(key)
    if found is not None:
        return found
    data = load_json(DatabaseTableStore(), table_key("edge", rules))
    if data is None:
        return None
    answer = EdgeAnswer(
        rules, -float(data["basic_strategy"]), -float(data["composition_dependent"])
    )
    with _LOCK:
        _EDGES[key] = answer
    return answer


def edge_store(*, rules: Rules, basic: float, cd: float) -> None:
    """Keep a house edge as the engine keeps it (tests, and the job below)."""
    save_json(
        DatabaseTableStore(),
        table_key("edge", rules),
        {"basic_strategy": -basic, "composition_dependent": -cd},
    )


def rules_from_options(options: dict[str, Any]) -> Rules:
    """The house rules with the calculator's options applied; ``ValueError`` if impossible."""
    return Rules.from_dict({**HOUSE.to_dict(), **options})


@dataclass(frozen=True)
class EdgeProgress:
    percent: int
    failed: bool


def edge_compute(rules: Rules, progress: Callable[[int, int], None] | None = None) -> None:
    """The house edge of ``rules``: its chart (one up card at a time, ``progress(done, 10)``
    after each, unless it is stored), then the edge pass.  A worker's first step on a job of
    kind "edge", registered on the computed app's jobs by ``ArticlesConfig.ready``."""
    store = DatabaseTableStore()
    if store.get(chart_key(rules)) is None:
        chart = build_chart(rules, progress)
        save_json(store, chart_key(rules), chart.to_dict())
    house_edge(rules, store=store)


def edge_stored(rules: Rules) -> bool:
    return edge_get(rules) is not None


def edge_jobs_start(
    rule_sets: Sequence[Rules], *, user_key: str | None = None, address: str | None = None
) -> None:
    """Ask a worker for the house edge of each rule set (its chart first), unless it is
    stored or already asked for: the trainer's chart jobs, of kind "edge".  Raises
    ``computed.services.Busy`` (nothing asked for) when the line of jobs has no room for
    them all, ``computed.services.RateLimited`` when the requester asked for too much new
    work."""
    computed_services.jobs_request(
        rule_sets=rule_sets, kind=ChartJob.Kind.EDGE, user_key=user_key, address=address
    )


def edge_progress(rules: Rules) -> EdgeProgress | None:
    """How far the background computation of ``rules`` is (the chart is most of the work);
    ``None`` when nobody asked for it."""
    job = computed_selectors.chart_job_get(rules)
    if job is None:
        return None
    percent = 95 if job.finished else math.floor(0.95 * job.percent)
    return EdgeProgress(percent, job.status == ChartJob.Status.FAILED)


def house_stakes() -> list[Any]:

    return list(HOUSE_TABLES)


def dumps(doc: dict[str, Any]) -> str:
    return json.dumps(doc, sort_keys=True)


def edge_precompute(rules: Rules) -> None:
    """Compute and keep a house edge now (bootstrap; never in a request)."""
    house_edge(rules, store=DatabaseTableStore())


def preset_names() -> dict[str, Any]:
    """``preset.<name>.name``: each rule set's display name (the trainer's and the tables'),
    lazy, so that a page shows it in its own language; the prose never names a preset by its
    code name."""
    return {f"preset.{name}.name": PRESET_LABELS[name] for name in PRESETS}


def static_figures() -> dict[str, Any]:
    """Facts of the house that are data, not mathematics: the tables' stakes and chips, the
    wallet's opening balance and top-up (read from the game's constants)."""
    from game.models import OPENING_BALANCE, TOP_UP_AMOUNT

    out: dict[str, Any] = {
        "wallet.start": int(OPENING_BALANCE),
        "wallet.top_up": int(TOP_UP_AMOUNT),
        "boxes": 5,
        "split.max_hands": HOUSE.max_hands,
    }
    for t in HOUSE_TABLES:
        out[f"table.{t.slug}.min"] = t.min_bet
        out[f"table.{t.slug}.max"] = t.max_bet
        out[f"table.{t.slug}.chips"] = list(t.chips)
    return out


# --- what counting is worth: the simulation's figures ----------------------------------------

# The counting article's figures are a stored document of their own, computed by the task
# worker (job kind "count", registered by ArticlesConfig.ready): about five minutes of CPU,
# too long for the bootstrap to wait for.  Names under these heads may be missing until then:
# a page shows "…" for them, as for every figure before the figure set is stored.
LATE_HEADS: tuple[str, ...] = ("count", "index")
COUNT_VERSION = 1
# Rounds per player: the flat player's σ is then about 1.16 / √rounds units, 0.05 % of the
# bet (the brief's aim); the worker plays about 45,000 rounds a second on one core.
COUNT_ROUNDS = 5_400_000
COUNT_SEED = 20261204
COUNT_RAMP = Ramp()
# The index plays the article quotes: (name, kind, row, up).
COUNT_INDICES: tuple[tuple[str, str, int, int], ...] = (
    ("16v10", "hard", 16, 10),
    ("15v10", "hard", 15, 10),
    ("12v3", "hard", 12, 3),
    ("insurance", "insurance", 0, 1),
)


def count_key(rules: Rules) -> str:
    return table_key("articles-count", rules).replace("-v1-", f"-v{COUNT_VERSION}-")


def count_figures(doc: dict[str, Any], indices: IndexTable) -> dict[str, Any]:
    """The named figures of a simulation document (:func:`blackjack.counting.study`) and the
    index table it played.  Returns as fractions (0.0041 is 0.41 %), the player's: negative
    is the house's edge."""
    rules = Rules.from_dict(doc["rules"])
    flat, counter = Tally.from_dict(doc["flat"]), Tally.from_dict(doc["counter"])
    ramp = doc["ramp"]
    f: dict[str, Any] = {
        "count.rounds": doc["rounds"],
        "count.seed": doc["seed"],
        "count.shoes": counter.shoes,
        "count.flat.return": flat.of_bet,
        "count.flat.edge": -flat.of_bet,
        "count.flat.sigma": flat.of_bet_sigma,
        "count.ramp.return": counter.of_bet,
        "count.ramp.sigma": counter.of_bet_sigma,
        "count.ramp.per_round": counter.per_round,
        "count.ramp.per_round_sigma": counter.per_round_sigma,
        "count.ramp.per_100": 100 * counter.per_round,
        "count.ramp.sd_round": counter.sd_round,
        # Rounds until the expected win equals one standard deviation of the result ("N0").
        # Rounded to thousands: a rough figure, and one every language's plural reads alike.
        "count.ramp.n0": round((counter.sd_round / counter.per_round) ** 2, -3)
        if counter.per_round > 0
        else 0,
        "count.ramp.average_bet": counter.average_bet,
        "count.gain": counter.of_bet - flat.of_bet,
        "count.ramp.low": ramp["low"],
        "count.ramp.high": ramp["high"],
        "count.ramp.start": ramp["start"],
        "count.ramp.step": ramp["step"],
        "count.ramp.first": ramp["start"] + 1,
        "count.ramp.top": ramp["start"] + math.ceil(ramp["high"] / ramp["step"]),
        "count.penetration": 1 - rules.reshuffle_point / (rules.decks * 52),
        "count.rounds_per_second": doc["rounds_per_second"],
    }
    for name, kind, row, up in COUNT_INDICES:
        plays = indices.find(kind, row, up)
        if plays:
            f[f"index.{name}"] = plays[0].index
            f[f"index.{name}.gain"] = plays[0].gain
    return f


def count_compute(rules: Rules, progress: Callable[[int, int], None]) -> None:
    """The worker's work on a job of kind "count": the rule set's tables and Hi-Lo index table
    unless stored (each stored as the other jobs store them), then the simulation, stored
    with its figures.  Progress: the indices to 30 %, the rounds the rest."""
    store = DatabaseTableStore()
    if not computed_services.tables_stored(rules):
        computed_services.tables_store(rules=rules, data=compute_tables(rules, None, store=store))
    chart = Chart.from_dict(load_json(store, chart_key(rules)))
    table = computed_indices.indices_get(rules, HI_LO)
    if table is None:
        table = computed_indices.indices_build(
            rules, HI_LO, chart, lambda done, total: progress(3 * done, 10 * total)
        )
        save_json(store, computed_indices.indices_key(rules, HI_LO), table.to_dict())
    doc = study(
        rules, chart, table, rounds=COUNT_ROUNDS, seed=COUNT_SEED, ramp=COUNT_RAMP,
        progress=lambda done, total: progress(3 * total + 7 * done, 10 * total),
    )  # fmt: skip
    count_store(rules=rules, doc={**doc, "figures": count_figures(doc, table)})


def count_store(*, rules: Rules, doc: dict[str, Any]) -> None:
    save_json(DatabaseTableStore(), count_key(rules), doc)
    with _LOCK:
        _COUNTS.pop(count_key(rules), None)


_COUNTS: dict[str, dict[str, Any]] = {}


def count_get(rules: Rules = HOUSE) -> dict[str, Any] | None:
    """The stored counting figures of ``rules`` (kept once found), or ``None``: asked again
    on the next read, since the worker stores them in its own time."""
    key = count_key(rules)
    with _LOCK:
        found = _COUNTS.get(key)
    if found is not None:
        return found
    doc = load_json(DatabaseTableStore(), key)
    if doc is None or doc.get("version") != COUNT_VERSION:
        return None
    figures: dict[str, Any] = doc["figures"]
    with _LOCK:
        _COUNTS[key] = figures
    return figures


def count_stored(rules: Rules) -> bool:
    return load_json(DatabaseTableStore(), count_key(rules)) is not None


def count_request(rules: Rules = HOUSE) -> bool:
    """Ask a worker for the counting figures of ``rules`` unless stored or asked for (the
    bootstrap). True if a job was asked for or joined."""
    if count_stored(rules):
        return False
    computed_services.jobs_request(
        rule_sets=[rules], kind=ChartJob.Kind.COUNT, user_key=None, address=None
    )
    return True
