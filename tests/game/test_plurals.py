"""An amount of debens takes the right plural form in every language, fractions included.

Fractional amounts reach ``ngettext`` as they are (``game.plurals.plural_count``); uk, ru and be
give them the genitive singular (2,5 дебена / дэбена), cs its own form (2,5 debenu), hy the
singular after any number, en the plural.  The words are the glossary's.
"""

from __future__ import annotations

import gettext
import re
import warnings
from decimal import Decimal
from pathlib import Path

import polib
import pytest
from django.utils import translation
from django.utils.translation import ngettext

from core.display import fmt
from game.plurals import plural_count

ROOT = Path(__file__).resolve().parents[2]
AMOUNTS = ("1", "2", "5", "11", "12", "21", "22", "101", "111", "1.5", "2.5", "5.5", "7.5", "12.5")


def _words(one: str, few: str, many: str, fraction: str, *, czech: bool = False) -> dict[str, str]:
    """The word after each of :data:`AMOUNTS`, by the Slavic rule (21 and 101 as 1, 22 as 2);
    Czech puts 21, 22 and 101 with 5."""
    whole = {"1": one, "2": few, "5": many, "11": many, "12": many, "21": one, "22": few,
             "101": one, "111": many}  # fmt: skip
    if czech:
        whole.update({"21": many, "22": many, "101": many})
    return {**whole, **{a: fraction for a in AMOUNTS if "." in a}}


EXPECTED: dict[str, dict[str, str]] = {
    "en": {a: "deben" if a == "1" else "debens" for a in AMOUNTS},
    "uk": _words("дебен", "дебени", "дебенів", "дебена"),
    "ru": _words("дебен", "дебена", "дебенов", "дебена"),
    "be": _words("дэбен", "дэбены", "дэбенаў", "дэбена"),
    "cs": _words("deben", "debeny", "debenů", "debenu", czech=True),
    "hy": {a: "դեբեն" for a in AMOUNTS},
}
CASES = [(lang, amount, word) for lang, words in EXPECTED.items() for amount, word in words.items()]


@pytest.mark.parametrize(("lang", "amount", "word"), CASES)
def test_an_amount_of_debens_takes_its_plural_form(lang, amount, word):
    value = Decimal(amount)
    with translation.override(lang):
        text = ngettext(
            "You won %(amount)s deben.", "You won %(amount)s debens.", plural_count(value)
        ) % {"amount": fmt(value)}
        shown = fmt(value)
    assert re.search(rf"{re.escape(shown)} {word}\b", text), text


def _catalogue(lang: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / lang / "LC_MESSAGES" / "django.po"))


@pytest.mark.parametrize("lang", ["uk", "ru", "be", "cs", "hy"])
def test_every_deben_entry_of_the_catalogue_picks_the_right_form(lang):
    """Read from the ``.po`` itself: its Plural-Forms formula chooses, for each amount, the
    msgstr that has the expected word right after the amount."""
    po = _catalogue(lang)
    header = po.metadata["Plural-Forms"]
    plural = gettext.c2py(header.split("plural=", 1)[1].rstrip(";"))
    nplurals = int(re.search(r"nplurals=(\d+)", header).group(1))  # type: ignore[union-attr]
    entries = [e for e in po if e.msgid_plural and "%(amount)s" in e.msgid_plural]
    assert len(entries) >= 5
    wrong = []
    for entry in entries:
        assert len(entry.msgstr_plural) == nplurals, entry.msgid
        for amount, word in EXPECTED[lang].items():
            value = Decimal(amount)
            count = int(value) if value == value.to_integral_value() else value
            with warnings.catch_warnings():  # gettext warns on a non-int count, as meant
                warnings.simplefilter("ignore", DeprecationWarning)
                index = plural(count)
            form = entry.msgstr_plural[index]
            if not re.search(rf"%\(amount\)s(?:</strong>)? {word}\b", form):
                wrong.append(f"{amount}: {form!r} (want {word!r})")
    assert wrong == []
