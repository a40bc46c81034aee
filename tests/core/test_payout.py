"""A payout ratio is written as the reader's language writes it: "3:2", Czech „3 : 2“."""

from __future__ import annotations

from django.utils import translation

from articles.forms import CalculatorForm
from blackjack import Rules
from core.display import payout
from game.presenters import rules_line

RATIO_CS = "3\u00a0:\u00a02"  # no-break spaces, so that the ratio never breaks across lines


def test_the_ratio_in_each_language():
    with translation.override("en"):
        assert payout(3, 2) == "3:2" and payout(6, 5) == "6:5"
    with translation.override("cs"):
        assert payout(3, 2) == RATIO_CS
    with translation.override("uk"):
        assert payout(3, 2) == "3:2"


def test_the_calculator_s_choices_follow_the_language_of_the_request():
    """The form's choices are made at import; their labels are read when the page is drawn."""
    with translation.override("cs"):
        assert RATIO_CS in str(CalculatorForm()["bj_pays"])
    with translation.override("en"):
        html = str(CalculatorForm()["bj_pays"])
    assert 'value="3:2"' in html and ">3:2<" in html


def test_the_tables_rules_line_writes_the_ratio_as_the_language_does():
    with translation.override("cs"):
        assert RATIO_CS in rules_line(Rules())
    with translation.override("en"):
        assert "· 3:2 ·" in rules_line(Rules())
