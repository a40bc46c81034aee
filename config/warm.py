"""What a web worker needs before its first request, done once before the workers start.

gunicorn (``config/gunicorn.py``) loads the app in its master process and calls :func:`warm`
there; every worker, the first ones and those that replace a worker after ``--max-requests``,
is forked from that process and so starts with everything below already in memory: a first
request costs what the thousandth does (issue 17: the first minute of ``bench/play_load.py``
had a p99 three times that of the later minutes).
"""

from __future__ import annotations

import time
from pathlib import Path

from django.conf import settings
from django.db import connections
from django.template import engines
from django.template.loader import get_template
from django.urls import reverse
from django.utils import translation

from blackjack import PRESETS, prepare_full_shoe
from computed.selectors import tables_get
from core.languages import language_codes
from game.limits import table_rules
from game.selectors import lobby_tables


def _template_names() -> list[str]:
    names: set[str] = set()
    for engine in engines.all():
        for folder in getattr(engine, "template_dirs", ()):
            root = Path(folder)
            names.update(str(p.relative_to(root)) for p in root.rglob("*.html"))
    return sorted(names)


def warm() -> list[str]:
    """Compile every template, load every catalogue and URL pattern, read the stored tables of
    every table's rule set and batch the EV engine's dealer work for the house rules.  Returns
    a line per step for the log; closes the database connections it opened (a forked worker
    must not share them)."""
    done: list[str] = []
    started = time.perf_counter()
    names = _template_names()
    for name in names:
        get_template(name)
    done.append(f"{len(names)} templates compiled")
    for code in language_codes():
        with translation.override(code):
            reverse("core:home")
            translation.gettext("Hall of Thoth")
    done.append(f"{len(language_codes())} catalogues and URL patterns loaded")
    try:
        house, variants = lobby_tables()  # kept: the workers' lobby reads no table row
        rule_sets = {table_rules(t).key(): table_rules(t) for t in (*house, *variants)}
        stored = [key for key, rules in rule_sets.items() if tables_get(rules) is not None]
        done.append(f"stored tables of {len(stored)} of {len(rule_sets)} rule sets read")
    finally:
        connections.close_all()
    prepare_full_shoe(PRESETS["thoth"])
    done.append("the house rules' dealer work batched")
    done.append(f"warm in {time.perf_counter() - started:.1f} s (DEBUG={settings.DEBUG})")
    return done
