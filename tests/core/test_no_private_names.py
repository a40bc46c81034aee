"""No private name of Django or of any other package is reached from our code (issue 30).

A name that starts with one underscore is its package's own business: it may change or go in
any release, without a deprecation.  So our source may write ``x._name`` only for a ``_name``
our own source defines (our classes' attributes, our modules' helpers), may not import a
``_name`` from another package, and may not spell one in a string (``getattr(x, "_name")``,
``hasattr``), unless :data:`ALLOWED` names it with the reason no public way exists.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = (
    "accounts", "articles", "blackjack", "classroom", "computed", "config", "core", "decisions",
    "game", "privacy", "trainer", "bench",
)  # fmt: skip
OURS = frozenset(PACKAGES) - {"bench"} | {"tests", "manage"}

# name -> why no public way exists.  Each is documented public API despite its underscore.
ALLOWED = {
    # "Model _meta API" (Django's reference, models/meta): the documented way to a model's fields.
    "_meta": "Django's documented Model _meta API",
    # "Default managers" / "Base managers" (Django's managers topic): documented for code that
    # must handle any model (core.rows.delete_rows); elsewhere write Model.objects.
    "_default_manager": "documented in Django's managers topic",
    "_base_manager": "documented in Django's managers topic",
}

PRIVATE = re.compile(r"^_[A-Za-z0-9]\w*$")  # one leading underscore, not a dunder


def private(name: str) -> bool:
    return bool(PRIVATE.match(name)) and not name.endswith("__")


def sources() -> list[Path]:
    out: list[Path] = [ROOT / "manage.py"]
    for package in PACKAGES:
        out += sorted(p for p in (ROOT / package).rglob("*.py") if "migrations" not in p.parts)
    return out


def trees() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(), str(path)) for path in sources()}


def defined(tree: ast.AST) -> Iterator[str]:
    """Every name a module binds: functions, classes, assignments (to names or attributes),
    arguments, imports' aliases, keyword arguments (``Model(_x=...)`` is ours only then)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.name
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            yield node.id
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store | ast.Del):
            yield node.attr
        elif isinstance(node, ast.arg):
            yield node.arg
        elif isinstance(node, ast.alias) and node.asname:
            yield node.asname


def imported_from_elsewhere(node: ast.ImportFrom) -> bool:
    if node.level:  # a relative import is ours
        return False
    return (node.module or "").split(".")[0] not in OURS


def violations(tree: ast.Module, ours: frozenset[str]) -> Iterator[tuple[int, str]]:
    """(line, what) for each private name of another package reached in ``tree``."""
    in_fstrings = {  # a piece of an f-string is text, not a name
        id(part)
        for node in ast.walk(tree)
        if isinstance(node, ast.JoinedStr)
        for part in node.values
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and imported_from_elsewhere(node):
            for alias in node.names:
                if private(alias.name) and alias.name not in ALLOWED:
                    yield node.lineno, f"from {node.module} import {alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] not in OURS and any(private(p) for p in parts):
                    yield node.lineno, f"import {alias.name}"
        elif isinstance(node, ast.Attribute) and private(node.attr):
            if node.attr not in ours and node.attr not in ALLOWED:
                yield node.lineno, f"._{node.attr[1:]}"
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) in in_fstrings:
                continue
            # A string spelling a private name: getattr(x, "_name"), hasattr, a list of them.
            if private(node.value) and node.value not in ours and node.value not in ALLOWED:
                yield node.lineno, repr(node.value)


def all_violations() -> list[str]:
    parsed = trees()
    ours = frozenset(name for tree in parsed.values() for name in defined(tree) if private(name))
    return [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for path, tree in parsed.items()
        for line, what in violations(tree, ours)
    ]


def test_no_private_name_of_another_package_is_used() -> None:
    assert all_violations() == []


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("from django.middleware import _unmask", ["from django.middleware import _unmask"]),
        ("import django.utils._os", ["import django.utils._os"]),
        ("x = rows._raw_delete(db)", ["._raw_delete"]),
        ("x = getattr(request, '_csp_nonce', None)", ["'_csp_nonce'"]),
        ("x = obj._state.adding", ["._state"]),
        ("x = Model._meta.fields", []),
        ("class A:\n    def f(self):\n        self._own = 1\n        return self._own", []),
        ("def _helper(): pass\n_helper()", []),
        ("x = f'{name}_ev'", []),
        ("from core.display import _helper", []),
    ],
)  # fmt: skip
def test_the_check_finds_private_names(source: str, found: list[str]) -> None:
    tree = ast.parse(source)
    ours = frozenset(name for name in defined(tree) if private(name))
    assert [what for _, what in violations(tree, ours)] == found
