"""``python -m blackjack analyze | dealer | edge | chart``: the JSON other tools rely on."""

import json

import pytest

from blackjack import (
    HARD_ROWS,
    PAIR_ROWS,
    PRESETS,
    SOFT_ROWS,
    Cell,
    Chart,
    FileStore,
    Move,
    Rules,
    basic_chart,
    table_key,
)
from blackjack.cli import main

THOTH_CELLS = [
    (kind, row, up)
    for kind, rows in (("hard", HARD_ROWS), ("soft", SOFT_ROWS), ("pair", PAIR_ROWS))
    for row in rows
    for up in range(1, 11)
]


@pytest.fixture(autouse=True)
def cache(tmp_path_factory, monkeypatch):
    directory = tmp_path_factory.getbasetemp() / "cli-cache"
    monkeypatch.setenv("BLACKJACK_CACHE_DIR", str(directory))
    return directory


def run(capsys, *argv: str):
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_analyze_one_situation(capsys):
    out = json.loads(run(capsys, "analyze", "--rules", "thoth", "--hand", "10,6",
                         "--dealer", "10", "--json"))  # fmt: skip
    assert out["hand"] == ["10", "6"]
    assert out["dealer"] == "10"
    assert set(out["ev"]) == {"stand", "hit", "double"}
    assert out["ev"]["stand"] == pytest.approx(-0.5410, abs=1e-4)
    assert out["best"] == "hit"
    assert out["chart"] == "hit"
    assert "insurance" not in out


def test_analyze_with_removed_cards_and_face_cards(capsys):
    plain = json.loads(run(capsys, "analyze", "--hand", "K,6", "--dealer", "Q", "--json"))
    seen = json.loads(run(capsys, "analyze", "--hand", "K,6", "--dealer", "Q",
                          "--removed", "5,5", "--json"))  # fmt: skip
    assert plain["hand"] == ["K", "6"]
    assert seen["removed"] == ["5", "5"]
    assert seen["ev"]["hit"] < plain["ev"]["hit"]


def test_analyze_insurance_against_an_ace(capsys):
    out = json.loads(run(capsys, "analyze", "--hand", "A,K", "--dealer", "A", "--json"))
    assert out["ev"] == {"stand": 1.5}
    assert out["insurance"] == pytest.approx(1 - 1.5 * (1 - 95 / 309), abs=1e-12)


def test_analyze_all_lists_550_situations(capsys):
    out = json.loads(run(capsys, "analyze", "--rules", "thoth", "--all", "--json"))
    assert len(out) == 550
    assert {tuple(s["hand"]) for s in out} >= {("A", "A"), ("10", "10"), ("2", "3")}
    assert len({(tuple(s["hand"]), s["dealer"]) for s in out}) == 550
    eight = next(s for s in out if s["hand"] == ["8", "8"] and s["dealer"] == "10")
    assert eight["best"] == "split" == eight["chart"]


def test_analyze_under_rank_pairing_splits_only_equal_ranks(capsys, cache):
    # A stand-in chart in the store: this test is about reading the ranks, not the chart.
    rules = PRESETS["live"]
    cells = {(k, r, u): Cell(Move.STAND, {Move.STAND: 0.0}) for k, r, u in THOTH_CELLS}
    FileStore(cache).put(
        table_key("chart", rules), json.dumps(Chart(rules, cells).to_dict()).encode()
    )
    kq = json.loads(run(capsys, "analyze", "--rules", "live", "--hand", "K,Q", "--dealer", "6",
                        "--json"))  # fmt: skip
    kk = json.loads(run(capsys, "analyze", "--rules", "live", "--hand", "K,K", "--dealer", "6",
                        "--json"))  # fmt: skip
    assert "split" not in kq["ev"]
    assert "split" in kk["ev"]


def test_dealer(capsys):
    out = json.loads(run(capsys, "dealer", "--rules", "thoth", "--dealer", "6", "--json"))
    assert list(out) == ["17", "18", "19", "20", "21", "bust", "blackjack"]
    assert out["bust"] == pytest.approx(0.4228, abs=5e-5)
    peeked = json.loads(run(capsys, "dealer", "--dealer", "10", "--no-blackjack", "--json"))
    assert peeked["bust"] == pytest.approx(0.2302, abs=5e-5)
    assert peeked["blackjack"] == 0.0


def test_rule_options_on_the_command_line(capsys):
    s17 = json.loads(run(capsys, "dealer", "--dealer", "6", "--json"))
    h17 = json.loads(run(capsys, "dealer", "--dealer", "6", "--h17", "--decks", "8", "--json"))
    assert h17["bust"] > s17["bust"]


def test_edge_and_chart_come_from_the_store(capsys, cache):
    out = json.loads(run(capsys, "edge", "--rules", "thoth", "--json"))
    assert set(out) == {"basic_strategy", "composition_dependent"}
    assert out["basic_strategy"] == pytest.approx(-0.0040, abs=1e-4)
    store = FileStore(cache)
    assert store.get(table_key("edge", Rules())) is not None
    text = run(capsys, "chart", "--rules", "thoth")
    assert text.splitlines()[0].split() == ["2", "3", "4", "5", "6", "7", "8", "9", "10", "A"]
    assert text == basic_chart(Rules()).text() + "\n"


def test_help_lists_the_rule_options(capsys):
    with pytest.raises(SystemExit):
        main(["analyze", "--help"])
    help_text = capsys.readouterr().out
    for option in ("--decks", "--h17", "--no-das", "--surrender", "--max-hands", "--rsa"):
        assert option in help_text


@pytest.mark.parametrize(
    "argv",
    [
        ["analyze", "--hand", "10,X", "--dealer", "6"],
        ["analyze", "--hand", "10,9,5", "--dealer", "6"],  # bust
        ["analyze", "--hand", "A,A", "--dealer", "A", "--removed", "A,A,A,A", "--decks", "1"],
        ["dealer", "--dealer", "11"],
    ],
)
def test_bad_input_ends_with_a_message(argv):
    with pytest.raises(SystemExit, match="error: "):
        main(argv)
