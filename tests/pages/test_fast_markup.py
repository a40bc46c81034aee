"""The Python-built parts of the statistics and past-rounds pages say what the template loops
said: the same rounding and decimal mark as ``floatformat:1`` in every language."""

from __future__ import annotations

from random import Random

import pytest
from django.template.defaultfilters import floatformat
from django.utils import translation

from core.languages import language_codes
from core.numbers import percent
from trainer.templatetags.stats_tags import _mark, _value, row_label


@pytest.mark.parametrize("lang", language_codes())
def test_a_plot_value_is_floatformat_1(lang):
    rng = Random(3)
    values = [rng.random() * 100 for _ in range(3000)] + [x / 100 for x in range(10001)]
    values += [0.05, 0.25, 0.35, 2.45, 66.65, 99.95, 100.0, 0.0]
    with translation.override(lang):
        mark = _mark()
        assert [v for v in values if _value(v, False, mark) != floatformat(v, 1)] == []
        assert [v for v in values if _value(v, True, mark) != percent(floatformat(v, 1))] == []


def test_row_labels_as_the_chart_names_them():
    assert [row_label("hard", 16), row_label("soft", 18), row_label("pair", 8)] == [
        "16", "A-7", "8-8",
    ]  # fmt: skip
    assert row_label("pair", 1) == "A-A"
