import io
import subprocess
import sys

import pytest

from blackjack.cli import build_parser, run_deal


def deal(argv, stdin=""):
    args = build_parser().parse_args(["deal", *argv])
    out = io.StringIO()
    assert run_deal(args, stdin=io.StringIO(stdin), out=out) == 0
    return out.getvalue()


def test_auto_play_is_reproducible_with_a_seed():
    first = deal(["--rules", "thoth", "--seed", "7", "--boxes", "3", "--auto", "--rounds", "3"])
    second = deal(["--rules", "thoth", "--seed", "7", "--boxes", "3", "--auto", "--rounds", "3"])
    assert first == second
    assert first.count("dealer reveals") + first.count("blackjack!") == 3
    assert first.count("staked 300") >= 1


def test_interactive_round_reads_the_keys():
    # Seed 7, two boxes: 10♠ Q♥ (20) and K♥ Q♦ (20) against an 8: d doubles, h hits.
    out = deal(["--seed", "7", "--boxes", "2"], stdin="d\nh\n")
    assert "box 0: double (+100)" in out
    assert "box 1: hit" in out
    assert "staked 300, paid 0, net -300" in out


def test_unknown_keys_are_asked_again_and_end_of_input_stands():
    out = deal(["--seed", "7", "--boxes", "1"], stdin="x\n")
    assert "choose one of" in out
    assert "box 0: stand" in out


def test_rule_options_reach_the_table():
    out = deal(["--rules", "live", "--decks", "2", "--seed", "1", "--auto"])
    assert "a fresh shoe of 2 decks" in out


@pytest.mark.parametrize("argv", [["deal", "--help"]])
def test_help_explains_the_command(argv):
    res = subprocess.run([sys.executable, "-m", "blackjack", *argv], capture_output=True,
                         text=True, check=True)  # fmt: skip
    assert "--seed" in res.stdout and "--auto" in res.stdout and "--rules" in res.stdout


def test_module_entry_point_plays_a_round():
    res = subprocess.run(
        [sys.executable, "-m", "blackjack", "deal", "--rules", "thoth", "--seed", "7", "--auto"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert "dealer: (face down)" in res.stdout
    assert "cards left" in res.stdout
