"""The glossary's forbidden renderings never appear in a catalogue or an article.

``locale/GLOSSARY.md`` lists, per language, words the reviews ruled out (a Czech shoe is not
«botník», an Armenian one is not «կոշիկ»). The test reads that table, so a new ruling is one row in
the glossary and nothing here; it matches whole words, case-insensitively, and ``*`` stands for
any ending. An article is read as prose: its figures (``{{ … }}``), tags (``{% … %}``), heading
anchors (``{#…}``) and link targets (``](…)``) are code names, not words a reader sees.
"""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "locale" / "GLOSSARY.md"
LANGUAGES = ("uk", "ru", "be", "cs", "hy")
SECTION = "## Forbidden renderings"


def forbidden_renderings(text: str) -> dict[str, list[str]]:
    """Map each language to its forbidden renderings, read from the glossary's table rows
    ``| lang | `rendering` | use instead |`` under the section heading."""
    rules: dict[str, list[str]] = {}
    in_section = False
    for line in text.splitlines():
        if line.startswith("## "):
            in_section = line.strip() == SECTION
            continue
        if not in_section or not line.startswith("|"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 2 or cells[0] not in LANGUAGES:
            continue
        rules.setdefault(cells[0], []).extend(re.findall(r"`([^`]+)`", cells[1]))
    return rules


def pattern(rendering: str) -> re.Pattern[str]:
    """Whole words: no letter may touch either end; ``*`` is any run of letters."""
    body = r"\w*".join(re.escape(part) for part in rendering.split("*"))
    return re.compile(rf"(?<!\w){body}(?!\w)", re.IGNORECASE)


def violations(po: polib.POFile, renderings: list[str]) -> list[str]:
    found = []
    patterns = [(rendering, pattern(rendering)) for rendering in renderings]
    for entry in po:
        if entry.obsolete:
            continue
        texts = [entry.msgstr, *entry.msgstr_plural.values()]
        for rendering, regex in patterns:
            if any(regex.search(text) for text in texts):
                found.append(f"{entry.msgid!r}: uses {rendering!r}")
    return found


CODE = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#[^}]*\}|\]\([^)]*\)", re.DOTALL)


def article_violations(text: str, renderings: list[str]) -> list[str]:
    prose = CODE.sub(" ", text)
    return [rendering for rendering in renderings if pattern(rendering).search(prose)]


def catalogue(language: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))


def test_the_glossary_rules_out_something_in_every_language():
    rules = forbidden_renderings(GLOSSARY.read_text(encoding="utf-8"))
    assert sorted(rules) == sorted(LANGUAGES)
    assert "botník*" in rules["cs"]
    assert "կոշիկ*" in rules["hy"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_catalogue_uses_a_forbidden_rendering(language):
    rules = forbidden_renderings(GLOSSARY.read_text(encoding="utf-8"))
    assert violations(catalogue(language), rules[language]) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_article_uses_a_forbidden_rendering(language):
    rules = forbidden_renderings(GLOSSARY.read_text(encoding="utf-8"))
    found = {
        path.name: words
        for path in sorted((ROOT / "articles" / "content" / language).glob("*.md"))
        if (words := article_violations(path.read_text(encoding="utf-8"), rules[language]))
    }
    assert found == {}


def test_an_article_is_read_without_its_figures_anchors_and_links():
    text = "Krupiér ({{ dealer_bust.6 }}) [pravidla](article:rules#dealer) {#dealer} engine"
    assert article_violations(text, ["dealer*", "engine"]) == ["engine"]


def bad_catalogue(*msgstrs: str) -> polib.POFile:
    po = polib.POFile()
    for number, msgstr in enumerate(msgstrs):
        po.append(polib.POEntry(msgid=f"entry {number}", msgstr=msgstr))
    return po


@pytest.mark.parametrize(
    ("msgstr", "caught"),
    [
        ("Čerstvě zamíchaný botník.", True),  # the stem with an ending
        ("Karet v BOTNÍKU", True),  # case does not matter
        ("Kasino a dealer.", True),
        ("Zásobník došel.", False),  # a word that merely ends like the stem
        ("Předsálí", False),
    ],
)
def test_a_deliberate_bad_entry_is_caught_and_a_lookalike_is_not(msgstr, caught):
    found = violations(bad_catalogue(msgstr), ["botník*", "dealer*", "hala"])
    assert bool(found) is caught


def test_plural_forms_are_checked_too():
    po = polib.POFile()
    po.append(
        polib.POEntry(
            msgid="%(n)d deck",
            msgid_plural="%(n)d decks",
            msgstr_plural={0: "%(n)d տրցակ", 1: "%(n)d կապուկ"},
        )
    )
    assert violations(po, ["կապուկ*"]) == ["'%(n)d deck': uses 'կապուկ*'"]


def test_several_words_and_a_wildcard_inside_a_phrase():
    found = violations(bad_catalogue("Ласкаво просимо до Зали Тота.", "Зала"), ["Зал* Тота"])
    assert found == ["'entry 0': uses 'Зал* Тота'"]
