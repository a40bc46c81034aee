"""``manage.py bootstrap``: create what the app needs to start. Safe to run again and again.

Each installed app may ship a ``bootstrap`` module with a ``run() -> list[str]`` function that
creates its start-up rows idempotently (``get_or_create``, ``update_or_create``) and returns a
line per thing it did. ``make run`` and ``make test`` call this command after ``migrate``.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from django.apps import apps
from django.core.management.base import BaseCommand
from django.db import transaction


class Command(BaseCommand):
    help = "Create the rows the app needs to start (tables of stakes, …); idempotent."

    def handle(self, *args: Any, **options: Any) -> None:
        for config in apps.get_app_configs():
            module_name = f"{config.name}.bootstrap"
            if importlib.util.find_spec(module_name) is None:
                continue
            module = importlib.import_module(module_name)
            with transaction.atomic():
                lines: list[str] = module.run()
            for line in lines:
                self.stdout.write(f"{config.label}: {line}")
        self.stdout.write(self.style.SUCCESS("Bootstrap complete."))
