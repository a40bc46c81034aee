"""Every article in every language of settings.LANGUAGES: front matter, the same anchors and
blocks as the English text, known placeholders, no run of eight words shared with the seeds."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from django.conf import settings
from django.utils.html import escape

from articles import content, figures, numbers, selectors

LANGS = [code for code, _name in settings.LANGUAGES]
SEEDS = Path(settings.BASE_DIR).parent / "shared" / "seeds"
SEED_DIRS = [SEEDS, Path("/work/shared/seeds")]
RUN = 8


def present() -> list[tuple[str, str]]:
    return [(lang, slug) for lang in LANGS for slug in content.SLUGS
            if content.source(lang, slug) is not None]  # fmt: skip


def test_every_article_exists_in_every_language():
    """A missing translation is a failure, never a fallback to English."""
    missing = [f"{lang}/{slug}.md" for lang in LANGS for slug in content.SLUGS
               if content.source(lang, slug) is None]  # fmt: skip
    assert not missing, f"articles missing in {content.CONTENT_DIR}: {missing}"


def test_no_stray_files():
    """Every file under content/ is an article of a known language and slug."""
    for path in content.CONTENT_DIR.rglob("*.md"):
        assert path.parent.name in LANGS, path
        assert path.stem in content.SLUGS, path


@pytest.mark.parametrize(("lang", "slug"), present())
def test_front_matter(lang, slug):
    src = content.source(lang, slug)
    assert src is not None
    assert src.slug == slug
    assert 5 <= len(src.title) <= 70
    assert 40 <= len(src.description) <= 200, "a meta description of one or two sentences"


def _anchors(lang: str, slug: str) -> list[str]:
    src = content.source(lang, slug)
    assert src is not None
    page = content.render(src, figure=lambda n, f: "1", block=lambda n: "")
    return [h.id for h in page.headings]


@pytest.mark.parametrize(("lang", "slug"), present())
def test_same_anchors_and_blocks_as_english(lang, slug):
    """Links from other pages and languages land on the same ids in every language."""
    assert _anchors(lang, slug) == _anchors("en", slug)
    src, en = content.source(lang, slug), content.source("en", slug)
    assert src is not None and en is not None
    assert src.blocks() == en.blocks()
    for anchor in content.REQUIRED_ANCHORS.get(slug, ()):
        assert anchor in _anchors(lang, slug)
    assert all(not a.startswith("section-") for a in _anchors(lang, slug)), "give {#id}"


@pytest.mark.parametrize(("lang", "slug"), present())
def test_placeholders_and_blocks_are_known(lang, slug):
    src = content.source(lang, slug)
    assert src is not None
    known = set(selectors_names())
    for name, fmt in src.placeholders():
        assert name in known, f"{src.path}: unknown figure {name!r}"
        assert fmt is None or fmt in numbers.FORMATS, f"{src.path}: unknown format {fmt!r}"
    for block in src.blocks():
        assert block in content.BLOCKS, f"{src.path}: unknown block {block!r}"
    assert "{{" not in re.sub(content.PLACEHOLDER, "", src.body), "a malformed placeholder"


def selectors_names() -> list[str]:
    from tests.articles.conftest import count_doc, house_doc

    return [
        *house_doc()["figures"],
        *count_doc()["figures"],
        *figures.worked_round_figures(),
        *figures.static_figures(),
        *figures.preset_names(),
    ]


def test_trainer_anchors_exist_in_every_language():
    from trainer.display import ARTICLE_ANCHORS

    for lang, slug in present():
        if slug == content.STRATEGY_SLUG:
            ids = _anchors(lang, slug)
            for anchor in ARTICLE_ANCHORS.values():
                assert anchor in ids, (lang, anchor)


# --- no run of eight words shared with the seeds -------------------------------------------


def _words(text: str) -> list[str]:
    text = unicodedata.normalize("NFKC", text).casefold().replace("’", "'")
    # Letters and digits only; punctuation and markup separate words.
    return re.findall(r"[^\W_]+(?:'[^\W_]+)*", text)


def _runs(words: list[str]) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + RUN]) for i in range(len(words) - RUN + 1)}


def _seed_runs() -> set[tuple[str, ...]]:
    folder = next((d for d in SEED_DIRS if d.is_dir()), None)
    if folder is None:
        pytest.skip("the seeds are not beside this checkout")
    files = sorted(folder.glob("*.txt"))
    assert len(files) == 5
    runs: set[tuple[str, ...]] = set()
    for f in files:
        runs |= _runs(_words(f.read_text(encoding="utf-8")))
    return runs


def test_overlap_check_catches_a_copied_run():
    seed = "Це один два три чотири пять шість сім вісім речення."
    assert _runs(_words(seed)) & _runs(_words("а це, один ДВА три чотири пять шість сім вісім!"))


@pytest.mark.parametrize(("lang", "slug"), present())
def test_no_eight_word_run_from_the_seeds(lang, slug):
    src = content.source(lang, slug)
    assert src is not None
    text = " ".join([src.title, src.description, re.sub(content.PLACEHOLDER, " ", src.body)])
    shared = _runs(_words(text)) & _seed_runs()
    assert not shared, f"{src.path} shares with the seeds: {[' '.join(r) for r in shared]}"


def test_rendered_page_has_no_missing_figure(house_figures):
    for lang, slug in present():
        page = selectors.page(lang, slug)
        assert page is not None
        assert selectors.MISSING not in page.rendered.html, (lang, slug)


# --- no code names in prose -----------------------------------------------------------------


def _prose(src: content.Source) -> str:
    """The text a reader sees of the file: without placeholders, link targets and anchors."""
    text = re.sub(content.PLACEHOLDER, "", src.body)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    return re.sub(r"\{#[a-z0-9-]+\}", "", text)


@pytest.mark.parametrize(("lang", "slug"), present())
def test_the_prose_names_no_rule_set_by_its_code_name(lang, slug):
    from blackjack import PRESETS

    src = content.source(lang, slug)
    assert src is not None
    prose = _prose(src)
    # English uses "free" and "live" as words; a code name there is the bold list item or
    # "the live game". Elsewhere no code name belongs in the text at all.
    codes = ["thoth", "sixdeck"] if lang == "en" else list(PRESETS)
    found = re.findall(rf"(?<![\w-])(?:{'|'.join(codes)})(?![\w-])", prose)
    found += re.findall(rf"\*\*(?:{'|'.join(PRESETS)})\*\*", prose)
    found += re.findall(r"\blive game\b", prose)
    assert found == [], (
        f"{src.path}: {found}: write the rule set's display name, {{{{ preset.<name>.name }}}}"
    )


@pytest.mark.parametrize("lang", content.language_codes())
def test_the_rule_sets_are_shown_by_their_names_in_the_readers_language(
    client, house_figures, lang
):
    from django.utils import translation

    from blackjack import PRESETS
    from trainer.forms import PRESET_LABELS

    html = client.get(content.article_url(lang, "rule-sets")).content.decode()
    table = html[html.index('id="presets-caption"') : html.index("</table>")]
    with translation.override(lang):
        names = {code: str(label) for code, label in PRESET_LABELS.items()}
    assert re.findall(r'<th scope="row">([^<]*)</th>', table) == [
        escape(names[code]) for code in PRESETS
    ]
    differences = html[html.index('id="differences"') :]
    for code, name in names.items():
        assert f"<strong>{escape(name)}</strong>" in differences, (lang, code)
    assert "<code>" not in table
