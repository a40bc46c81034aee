import doctest
import importlib

import pytest
from django.utils import translation

MODULES = [
    "trainer.charts",
    "trainer.dealing",
    "trainer.selectors",
    "trainer.store",
    "trainer.templatetags.trainer_tags",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    with translation.override("en"):  # the examples show English number formats
        result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
