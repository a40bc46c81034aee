"""Every doctest of the apps runs (the engine's run under tests/blackjack).

The examples show English number formats, and some store a row, so each module's examples
run in the English language with a test database.
"""

import doctest
import importlib
import pkgutil

import pytest
from django.utils import translation

APPS = (
    "accounts",
    "classroom",
    "computed",
    "config",
    "core",
    "decisions",
    "game",
    "privacy",
    "trainer",
)


def _modules() -> list[str]:
    names = []
    for app in APPS:
        package = importlib.import_module(app)
        for info in pkgutil.walk_packages(package.__path__, prefix=f"{app}."):
            if ".migrations" in info.name or info.name.startswith("config.settings."):
                continue
            names.append(info.name)
    return sorted(names)


def _with_examples(name: str) -> bool:
    module = importlib.import_module(name)
    return any(test.examples for test in doctest.DocTestFinder().find(module))


MODULES = [name for name in _modules() if _with_examples(name)]


def test_the_apps_have_doctests():
    assert len(MODULES) >= 8, MODULES


@pytest.mark.django_db
@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    with translation.override("en"):
        result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
