import doctest
import importlib

import pytest

MODULES = [
    "trainer.charts",
    "trainer.dealing",
    "trainer.selectors",
    "trainer.store",
    "trainer.templatetags.trainer_tags",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
