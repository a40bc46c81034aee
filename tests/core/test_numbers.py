"""The percent sign as each language writes it: "54%" in English, "54 %" elsewhere."""

from __future__ import annotations

import doctest

import pytest
from django.template import Context, Template
from django.utils import translation

from core import numbers


def test_doctests():
    assert doctest.testmod(numbers).failed == 0


@pytest.mark.parametrize(
    ("lang", "shown"),
    [("en", "54%"), ("uk", "54\u00a0%"), ("ru", "54\u00a0%"), ("be", "54\u00a0%"),
     ("cs", "54\u00a0%"), ("hy", "54\u00a0%")],
)  # fmt: skip
def test_the_percent_filter_follows_the_language(lang, shown):
    with translation.override(lang):
        assert Template("{% load percent %}{{ v|percent }}").render(Context({"v": "54"})) == shown


def test_the_filter_shows_a_dash_for_nothing():
    assert Template("{% load percent %}{{ v|percent }}").render(Context({"v": None})) == "–"
