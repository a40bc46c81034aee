"""Compile and check the gettext catalogues in pure Python (polib), so that a fresh machine with
only Python 3.11 can run the app: GNU gettext's ``msgfmt`` is not needed.

``manage.py translations compile`` writes every ``locale/*/LC_MESSAGES/django.mo``;
``manage.py translations check`` fails on any untranslated or fuzzy entry, like
``msgfmt --statistics``, and on whatever an app's ``translations`` module reports: each
installed app may ship one with ``problems() -> list[str]`` (the articles: a translation that
does not name its English's current version).
"""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path

import polib
from django.apps import apps
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser


def catalogues() -> list[Path]:
    return sorted(p for d in settings.LOCALE_PATHS for p in Path(d).glob("*/LC_MESSAGES/*.po"))


class Command(BaseCommand):
    help = "Compile (compile) or check (check) the project's gettext catalogues without msgfmt."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=("compile", "check"))

    def handle(self, *args: object, **options: object) -> None:
        problems = []
        for path in catalogues():
            po = polib.pofile(str(path))
            if options["action"] == "compile":
                po.save_as_mofile(str(path.with_suffix(".mo")))
                continue
            untranslated = len(po.untranslated_entries())
            fuzzy = len(po.fuzzy_entries())
            line = f"{path}: {len(po.translated_entries())} translated"
            if untranslated or fuzzy:
                line += f", {untranslated} untranslated, {fuzzy} fuzzy"
                problems.append(line)
            self.stdout.write(line)
        if problems:
            listing = "\n".join(problems)
            raise CommandError(f"catalogues with untranslated or fuzzy entries:\n{listing}")
        if options["action"] == "check":
            others = app_problems()
            if others:
                listing = "\n".join(others)
                raise CommandError(f"translations behind their source:\n{listing}")


def app_problems() -> list[str]:
    """What each app's ``translations.problems()`` reports, prefixed with the app's label."""
    found = []
    for config in apps.get_app_configs():
        module_name = f"{config.name}.translations"
        if importlib.util.find_spec(module_name) is None:
            continue
        module = importlib.import_module(module_name)
        found += [f"{config.label}: {line}" for line in module.problems()]
    return found
