"""The engine must stand alone: no module of ``blackjack/`` may import Django."""

import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import blackjack

PACKAGE = Path(blackjack.__file__).parent


def module_names():
    """Every module of the engine, sub-packages' included."""
    return sorted(m.name for m in pkgutil.walk_packages([str(PACKAGE)], prefix="blackjack."))


def test_importing_every_module_imports_no_django():
    names = [n for n in module_names() if n != "blackjack.__main__"]
    assert {"blackjack.hand", "blackjack.round", "blackjack.cards"} <= set(names)
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}: importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_no_source_file_mentions_a_django_import():
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "import django" not in text and "from django" not in text, path.name


def test_every_module_imports():
    for name in module_names():
        if name != "blackjack.__main__":
            importlib.import_module(name)
