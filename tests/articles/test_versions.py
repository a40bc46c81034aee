"""A translated article names the version of the English it translates (``translates:`` in
its front matter); the run fails when the English has changed since, until the translator has
carried the change and stamped the file (``manage.py articles stamp``)."""

from __future__ import annotations

import hashlib
import shutil

import pytest
from django.core.management import CommandError, call_command

from articles import content


def test_every_translation_carries_the_current_english():
    problems = content.behind()
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize(("lang", "slug"), [(lg, s) for lg, s, _p in content.translations()])
def test_the_loader_reads_the_version_a_translation_names(lang, slug):
    src = content.source(lang, slug)
    assert src is not None and src.translates == content.english_version(slug)


def test_the_version_is_the_start_of_the_sha256_of_the_english_text():
    text = (content.CONTENT_DIR / "en" / "faq.md").read_text(encoding="utf-8")
    assert content.english_version("faq") == hashlib.sha256(text.encode()).hexdigest()[:12]
    assert content.source("en", "faq").translates is None  # type: ignore[union-attr]


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """A content directory of two articles, English and Ukrainian, the Ukrainian stamped."""
    for lang in ("en", "uk"):
        (tmp_path / lang).mkdir()
        for slug in ("faq", "rules"):
            shutil.copy(content.CONTENT_DIR / lang / f"{slug}.md", tmp_path / lang)
    monkeypatch.setattr(content, "CONTENT_DIR", tmp_path)
    call_command("articles", "stamp", "uk", "--all")
    return tmp_path


def test_an_english_change_names_the_translation_left_behind(tree):
    assert content.behind() == []
    english = tree / "en" / "faq.md"
    english.write_text(english.read_text(encoding="utf-8") + "\nOne more line.\n", "utf-8")
    (problem,) = content.behind()
    assert problem.startswith("articles/content/uk/faq.md: the uk article 'faq' translates")
    assert f"is now {content.english_version('faq')}" in problem
    assert "`manage.py articles stamp uk faq`" in problem
    with pytest.raises(CommandError, match="1 translated articles behind"):
        call_command("articles", "check")
    with pytest.raises(CommandError, match="the uk article 'faq'"):
        call_command("translations", "check")


def test_stamping_writes_the_new_version_and_nothing_else(tree, capsys):
    path = tree / "uk" / "faq.md"
    before = path.read_text(encoding="utf-8")
    english = tree / "en" / "faq.md"
    english.write_text(english.read_text(encoding="utf-8") + "\nOne more line.\n", "utf-8")
    call_command("articles", "stamp", "uk", "faq")
    after = path.read_text(encoding="utf-8")
    old, new = (
        [x for x in text.splitlines() if x.startswith("translates:")] for text in (before, after)
    )
    assert new == [f"translates: {content.english_version('faq')}"] and old != new
    assert after.replace(new[0], old[0]) == before
    assert content.behind() == []
    call_command("articles", "stamp", "uk", "faq")
    assert capsys.readouterr().out.splitlines()[-1].startswith("uk/faq: already translates:")


def test_a_translation_without_a_version_is_reported(tree):
    path = tree / "uk" / "rules.md"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        "\n".join(x for x in text.split("\n") if not x.startswith("translates:")), "utf-8"
    )
    (problem,) = content.behind()
    assert "the uk article 'rules' does not say which English it translates" in problem
    content.stamp("uk", "rules")
    assert path.read_text(encoding="utf-8") == text


@pytest.mark.parametrize(
    "args",
    [("stamp", "en", "faq"), ("stamp", "uk", "no-such"), ("stamp", "uk"), ("stamp", "xx", "--all")],
)
def test_stamp_refuses_what_is_not_a_translated_article(tree, args):
    with pytest.raises(CommandError):
        call_command("articles", *args)
