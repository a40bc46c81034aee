"""Suite-wide hooks: PostgreSQL-only tests, no silent skips on CI, the default language."""

from __future__ import annotations

import pytest
from django.conf import settings

from config.settings.env import env

# On CI these must run: a skip means the browser or the database was not really tested.
MUST_RUN_ON_CI = ("e2e", "postgres")
POSTGRES_ENGINE = "django.db.backends.postgresql"


def database_is_postgres() -> bool:
    return bool(settings.DATABASES["default"]["ENGINE"] == POSTGRES_ENGINE)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselect (not skip) the PostgreSQL tests on an SQLite run; `.ci/run` makes both runs."""
    if database_is_postgres():
        return
    kept = [item for item in items if item.get_closest_marker("postgres") is None]
    dropped = [item for item in items if item.get_closest_marker("postgres") is not None]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> pytest.TestReport:
    report: pytest.TestReport = yield
    if report.skipped and env.ci():
        markers = [name for name in MUST_RUN_ON_CI if item.get_closest_marker(name)]
        if markers:
            reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
            report.outcome = "failed"
            report.longrepr = f"CI=true: a {markers[0]} test may not be skipped ({reason})"
    return report


@pytest.fixture(autouse=True)
def _default_language_after_each_test():
    """A request in another language leaves it active in the thread; the next test would
    read its messages in that language."""
    yield
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _no_kept_tables():
    """The play tables a process keeps (game.selectors) and the fragments it keeps
    ({% once %}, keyed by ids) are those of one test's database: another test's rows have the
    same ids."""
    from core.templatetags.once import forget
    from game.selectors import tables_forget

    tables_forget()
    forget()
    yield
    tables_forget()
    forget()


@pytest.fixture(autouse=True)
def _no_kept_fragments():
    """The template fragments ``{% cache %}`` keeps are per language and what they show, not
    per test: emptied all the same, so that no test reads another's."""
    from django.core.cache import caches

    caches["template_fragments"].clear()
    yield
