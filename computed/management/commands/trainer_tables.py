"""``manage.py trainer_tables [PRESET ...] [--all]``: compute rule sets' tables ahead of time.

A worker process may run this instead of leaving the work to the app servers' threads.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from blackjack import PRESETS
from computed.services import chart_job_run, tables_stored


class Command(BaseCommand):
    help = "Compute the chart and drill tables of presets that do not have them yet."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("presets", nargs="*", help="preset names (default: thoth)")
        parser.add_argument("--all", action="store_true", help="every preset")
        parser.add_argument("--force", action="store_true", help="recompute stored tables")

    def handle(self, *args: Any, **options: Any) -> None:
        names = list(PRESETS) if options["all"] else options["presets"] or ["thoth"]
        for name in names:
            if name not in PRESETS:
                raise CommandError(f"unknown preset {name!r}; choose from {sorted(PRESETS)}")
            rules = PRESETS[name]
            if not options["force"] and tables_stored(rules):
                self.stdout.write(f"{name}: already stored")
                continue
            started = time.perf_counter()
            chart_job_run(rules=rules)
            self.stdout.write(f"{name}: computed in {time.perf_counter() - started:.1f} s")
