import gettext

import polib
import pytest
from django.core.management import CommandError, call_command


def write_po(directory, entries):
    po = polib.POFile()
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8"}
    for msgid, msgstr, fuzzy in entries:
        entry = polib.POEntry(msgid=msgid, msgstr=msgstr)
        if fuzzy:
            entry.flags.append("fuzzy")
        po.append(entry)
    path = directory / "uk" / "LC_MESSAGES"
    path.mkdir(parents=True)
    po.save(str(path / "django.po"))
    return path


def test_compile_writes_a_catalogue_that_gettext_reads(tmp_path, settings):
    settings.LOCALE_PATHS = [tmp_path]
    path = write_po(tmp_path, [("Deal", "Роздати", False)])
    call_command("translations", "compile")
    with open(path / "django.mo", "rb") as f:
        assert gettext.GNUTranslations(f).gettext("Deal") == "Роздати"


@pytest.mark.parametrize(("msgstr", "fuzzy"), [("", False), ("Роздати", True)])
def test_check_fails_on_untranslated_or_fuzzy(tmp_path, settings, msgstr, fuzzy):
    settings.LOCALE_PATHS = [tmp_path]
    write_po(tmp_path, [("Deal", msgstr, fuzzy)])
    with pytest.raises(CommandError, match="untranslated or fuzzy"):
        call_command("translations", "check")


def test_the_project_catalogues_are_complete():
    call_command("translations", "check")


def test_no_message_is_marked_inside_an_f_string():
    """xgettext does not read inside an f-string's braces: a ``gettext("…")`` there never
    reaches the catalogues, and ``make messages`` would drop its translation."""
    import io
    import re
    import tokenize
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    apps = ("accounts", "articles", "classroom", "computed", "core", "decisions", "game",
            "privacy", "trainer", "config")  # fmt: skip
    marked = re.compile(r"\{[^{}]*\b(?:_|gettext|ngettext|pgettext|npgettext)(?:_lazy)?\(")
    found = []
    for app in apps:
        for path in (root / app).rglob("*.py"):
            tokens = tokenize.generate_tokens(io.StringIO(path.read_text()).readline)
            for token in tokens:
                prefix = token.string[:2].lower().rstrip("'\"")
                if token.type == tokenize.STRING and "f" in prefix and marked.search(token.string):
                    found.append(f"{path.relative_to(root)}:{token.start[0]}")
    assert not found, found
