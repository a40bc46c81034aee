"""Fixtures: the house rules' computed tables, computed once per test session."""

from tests.computed.docs import (  # noqa: F401  (fixtures)
    THOTH,
    _no_threads_and_fresh_cache,
    docs_for,
    thoth_docs,
    thoth_tables,
)
