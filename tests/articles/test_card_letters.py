"""Every chart and table names its rows and columns with the language's letter for the ace
(the glossary's "A (ace in a chart header)": A, Т, Т, Т, A, Տ), on the trainer's chart page and
in the articles' blocks alike."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from articles import content
from computed.tables import SOFT_ROWS
from core.display import row_label, up_label
from tests.computed.docs import thoth_tables  # noqa: F401  (fixture)

ACE = {"en": "A", "uk": "Т", "ru": "Т", "be": "Т", "cs": "A", "hy": "Տ"}
HEADS = re.compile(r'<th scope="(row|col)">(?:<span class="visually-hidden">[^<]*</span>)?([^<]*)<')


def heads(html: str, scope: str) -> list[str]:
    return [text.strip() for s, text in HEADS.findall(html) if s == scope]


def expected_soft(lang: str) -> list[str]:
    """The soft rows as the chart has them (A-2 … A-9, A-10 for soft 21 if it is a row)."""
    return [f"{ACE[lang]}-{total - 11}" for total in SOFT_ROWS]


@pytest.mark.parametrize("lang", list(ACE))
def test_row_and_up_labels_use_the_language_letter(lang):
    with translation.override(lang):
        assert [row_label("soft", 13), row_label("soft", 20), row_label("pair", 1)] == [
            f"{ACE[lang]}-2", f"{ACE[lang]}-9", f"{ACE[lang]}-{ACE[lang]}",
        ]  # fmt: skip
        assert [up_label(1), up_label(10), row_label("hard", 16)] == [ACE[lang], "10", "16"]


@pytest.mark.parametrize("lang", list(ACE))
def test_the_trainer_chart_page_uses_the_language_letter(client, thoth_tables, lang):  # noqa: F811
    with translation.override(lang):
        url = reverse("trainer:chart")
    html = client.get(url).content.decode()
    rows = heads(html, "row")
    assert [r for r in rows if "-" in r and not r[0].isdigit()] == (
        [*expected_soft(lang), f"{ACE[lang]}-{ACE[lang]}"]
    )
    assert heads(html, "col").count(ACE[lang]) == 3  # the ace column of each grid
    if ACE[lang] != "A":
        assert "A" not in rows + heads(html, "col")


@pytest.mark.parametrize("lang", list(ACE))
def test_the_articles_chart_and_soft_table_use_the_language_letter(client, house_figures, lang):
    html = client.get(content.article_url(lang, "basic-strategy")).content.decode()
    rows = heads(html, "row")
    assert [r for r in rows if "-" in r and not r[0].isdigit()] == (
        [*expected_soft(lang), f"{ACE[lang]}-{ACE[lang]}"]
    )
    assert heads(html, "col").count(ACE[lang]) == 3
    html = client.get(content.article_url(lang, "soft-and-hard-hands")).content.decode()
    table = html[html.index('id="soft-caption"') :]
    table = table[: table.index("</table>")]
    cells = re.findall(r'<th scope="row">([^<]*)</th><td>([^<]*)</td>', table)
    assert {hand for hand, _up in cells} == {f"{ACE[lang]}-6", f"{ACE[lang]}-7"}
    ups = [up for _hand, up in cells][:10]
    assert ups == ["2", "3", "4", "5", "6", "7", "8", "9", "10", ACE[lang]]
