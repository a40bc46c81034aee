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
