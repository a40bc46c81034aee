"""``manage.py articles``: keep each translated article tied to the English it translates.

``articles stamp <lang> <slug> …`` writes the current English version into those translations'
front matter (``translates:``), once the translator has carried the English changes;
``articles stamp <lang> --all`` every article of a language, ``articles stamp --all`` every
translation. ``articles check`` lists the translations behind their English (as
``translations check`` and the tests do).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from articles import content


class Command(BaseCommand):
    help = "Stamp translated articles with the English version they carry, or check them."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=("stamp", "check"))
        parser.add_argument("lang", nargs="?", help="a language code (not en)")
        parser.add_argument("slugs", nargs="*", help="article slugs")
        parser.add_argument("--all", action="store_true", help="every article (of the language)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["action"] == "check":
            self._check()
            return
        lang, slugs = options["lang"], options["slugs"]
        if options["all"]:
            if slugs:
                raise CommandError("give slugs or --all, not both")
            targets = [(lg, s) for lg, s, _path in content.translations() if lang in (None, lg)]
            if lang is not None and not targets:
                raise CommandError(f"no translated articles in {lang!r}")
        else:
            if lang is None or not slugs:
                raise CommandError("say which: articles stamp <lang> <slug> …, or --all")
            targets = [(lang, s) for s in slugs]
        for lg, slug in targets:
            try:
                changed = content.stamp(lg, slug)
            except content.ContentError as e:
                raise CommandError(str(e)) from None
            version = content.english_version(slug)
            word = "stamped" if changed else "already"
            self.stdout.write(f"{lg}/{slug}: {word} {content.TRANSLATES}: {version}")

    def _check(self) -> None:
        problems = content.behind()
        for line in problems:
            self.stderr.write(line)
        if problems:
            raise CommandError(f"{len(problems)} translated articles behind their English")
        self.stdout.write(f"{len(content.translations())} translated articles carry their English")
