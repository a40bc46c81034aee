"""The article files: one Markdown file per article and language, with a front matter.

``articles/content/<lang>/<slug>.md``::

    ---
    title: The rules of our table
    description: One sentence for search results and the index.
    slug: rules
    translates: 3f2a9c41d07e
    ---
    ## Card values {#card-values}
    The dealer busts {{ dealer_bust.6 }} of the time with a 6 up. [[worked_round]]

* ``translates:`` (every language but English): the version of the English file this
  translation carries, the first 12 hex digits of the SHA-256 of its text
  (:func:`english_version`). :func:`behind` lists each translation whose English has changed
  since; ``manage.py translations check`` and the tests fail on any, and ``manage.py articles
  stamp <lang> <slug>`` writes the current version once the translator has carried the change.
* ``{{ name }}`` or ``{{ name | format }}``: a figure of :mod:`articles.figures`, formatted in
  the page's language (:mod:`articles.numbers`).
* ``[[block]]`` alone in a paragraph: a rendered block (the chart, the worked round, ...).
* ``{#id}`` at the end of a heading: its anchor, the same in every language.
* Links ``url:trainer:index`` (a URL name) and ``article:slug#anchor`` resolve in the page's
  language.

Rendering is markdown-it-py's CommonMark with tables, raw HTML off: a writer cannot put markup
in a page, only Markdown.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.urls import NoReverseMatch, reverse
from django.utils.html import escape
from markdown_it import MarkdownIt
from markdown_it.token import Token

from core.per_language import per_language

CONTENT_DIR = Path(__file__).resolve().parent / "content"

# The articles in the index's order; every language has each of them (a test checks it).
SLUGS: tuple[str, ...] = (
    "rules",
    "faq",
    "basic-strategy",
    "soft-and-hard-hands",
    "insurance",
    "house-edge",
    "counting",
    "rule-sets",
    "trainer-guide",
    "table-guide",
)
# Anchors other pages link to: the trainer's "why" lines (trainer/display.py ARTICLE_ANCHORS).
STRATEGY_SLUG = "basic-strategy"
REQUIRED_ANCHORS: dict[str, tuple[str, ...]] = {
    "basic-strategy": ("chart", "hard-totals", "soft-hands", "pairs", "insurance"),
    "house-edge": ("calculator",),
    "rules": ("worked-round",),
}
BLOCKS: tuple[str, ...] = ("chart", "worked_round", "calculator", "presets", "soft_table")
# A page with this many sections or more gets a table of contents.
TOC_MIN_SECTIONS = 4

PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z0-9_.]+)\s*(?:\|\s*([a-z0-9]+)\s*)?\}\}")
BLOCK = re.compile(r"^\[\[([a-z_]+)\]\]$")
HEADING_ID = re.compile(r"\s*\{#([a-z0-9-]+)\}\s*$")


class ContentError(ValueError):
    """A malformed article file (tests report it with the file's name)."""


@dataclass(frozen=True)
class Source:
    lang: str
    slug: str
    title: str
    description: str
    body: str
    path: Path
    translates: str | None = None  # the English version it translates (front matter)

    def placeholders(self) -> list[tuple[str, str | None]]:
        return [(m.group(1), m.group(2)) for m in PLACEHOLDER.finditer(self.body)]

    def blocks(self) -> list[str]:
        return [m.group(1) for m in re.finditer(r"^\[\[([a-z_]+)\]\]$", self.body, re.M)]


@dataclass
class Heading:
    level: int
    id: str
    text: str


@dataclass
class Rendered:
    html: str
    headings: list[Heading] = field(default_factory=list)
    links: list[str] = field(default_factory=list)

    @property
    def toc(self) -> list[Heading]:
        sections = [h for h in self.headings if h.level == 2]
        return sections if len(sections) >= TOC_MIN_SECTIONS else []


def _front_matter(path: Path) -> tuple[list[str], str]:
    """The file's front matter lines and its body."""
    text = path.read_text(encoding="utf-8")
    if not text.startswith("---\n"):
        raise ContentError(f"{path}: no front matter")
    head, sep, body = text[4:].partition("\n---\n")
    if not sep:
        raise ContentError(f"{path}: the front matter does not end")
    return head.splitlines(), body


def _meta(path: Path, lines: list[str]) -> dict[str, str]:
    meta: dict[str, str] = {}
    for line in lines:
        if line.strip():
            key, colon, value = line.partition(":")
            if not colon:
                raise ContentError(f"{path}: not 'key: value': {line!r}")
            meta[key.strip()] = value.strip()
    return meta


def _parse(path: Path, lang: str) -> Source:
    lines, body = _front_matter(path)
    meta = _meta(path, lines)
    missing = {"title", "description", "slug"} - set(meta)
    if missing:
        raise ContentError(f"{path}: missing {sorted(missing)}")
    if meta["slug"] != path.stem:
        raise ContentError(f"{path}: slug {meta['slug']!r} is not the file's name")
    return Source(
        lang,
        meta["slug"],
        meta["title"],
        meta["description"],
        body,
        path,
        meta.get(TRANSLATES),
    )


# --- which English a translation carries ------------------------------------------------

TRANSLATES = "translates"
SOURCE_LANGUAGE = "en"


def english_version(slug: str, root: Path | None = None) -> str:
    """The English article's version: the first 12 hex digits of the SHA-256 of its text."""
    root = root or CONTENT_DIR
    text = (root / SOURCE_LANGUAGE / f"{slug}.md").read_text(encoding="utf-8")
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def translations(root: Path | None = None) -> list[tuple[str, str, Path]]:
    """Every translated article file: (language, slug, path)."""
    root = root or CONTENT_DIR
    return [
        (lang, slug, root / lang / f"{slug}.md")
        for lang in language_codes()
        if lang != SOURCE_LANGUAGE
        for slug in SLUGS
        if (root / lang / f"{slug}.md").is_file()
    ]


def behind(root: Path | None = None) -> list[str]:
    """A line for each translation that does not name the current English version: which
    article, which language, and what to do."""
    root = root or CONTENT_DIR
    problems = []
    for lang, slug, path in translations(root):
        english = f"articles/content/{SOURCE_LANGUAGE}/{slug}.md"
        shown = f"articles/content/{lang}/{slug}.md"
        named = _meta(path, _front_matter(path)[0]).get(TRANSLATES)
        current = english_version(slug, root)
        stamp = f"then run `manage.py articles stamp {lang} {slug}`"
        if named is None:
            problems.append(
                f"{shown}: the {lang} article {slug!r} does not say which English it translates"
                f" (no '{TRANSLATES}:' line): check it against {english}, {stamp}"
            )
        elif named != current:
            problems.append(
                f"{shown}: the {lang} article {slug!r} translates the English version {named},"
                f" but {english} is now {current}: carry the English changes into it"
                f" (`git log -p -- {english}`), {stamp}"
            )
    return problems


def stamp(lang: str, slug: str, root: Path | None = None) -> bool:
    """Write the current English version into a translation's front matter (``translates:``,
    replaced or added as the front matter's last line). True if the file changed."""
    root = root or CONTENT_DIR
    if lang == SOURCE_LANGUAGE or slug not in SLUGS or lang not in language_codes():
        raise ContentError(f"no translated article {lang}/{slug}")
    path = root / lang / f"{slug}.md"
    if not path.is_file():
        raise ContentError(f"{path}: no such article")
    lines, body = _front_matter(path)
    line = f"{TRANSLATES}: {english_version(slug, root)}"
    kept = [x for x in lines if x.partition(":")[0].strip() != TRANSLATES]
    new = (
        [*kept, line]
        if len(kept) == len(lines)
        else [line if x.partition(":")[0].strip() == TRANSLATES else x for x in lines]
    )
    if new == lines:
        return False
    path.write_text("---\n" + "\n".join(new) + "\n---\n" + body, encoding="utf-8")
    return True


def language_codes() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


@cache
def source(lang: str, slug: str) -> Source | None:
    """The article file, parsed once per process; ``None`` when that language lacks it."""
    if slug not in SLUGS or lang not in language_codes():
        return None
    path = CONTENT_DIR / lang / f"{slug}.md"
    if not path.is_file():
        return None
    return _parse(path, lang)


def sources(lang: str) -> list[Source]:
    return [s for s in (source(lang, slug) for slug in SLUGS) if s is not None]


@per_language  # (the URL patterns do not change while a process runs)
def article_url(lang: str, slug: str) -> str:
    from django.utils import translation

    with translation.override(lang):
        return reverse("articles:article", kwargs={"slug": slug})


def _md() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")


_MD = _md()
_MD_LOCK = threading.Lock()


def _resolve_link(href: str, lang: str) -> str:
    if href.startswith("article:"):
        slug, _, anchor = href[len("article:") :].partition("#")
        url = article_url(lang, slug)
        return f"{url}#{anchor}" if anchor else url
    if href.startswith("url:"):
        name, _, anchor = href[len("url:") :].partition("#")
        from django.utils import translation

        with translation.override(lang):
            try:
                url = reverse(name)
            except NoReverseMatch:
                raise ContentError(f"unknown URL name {name!r}") from None
        return f"{url}#{anchor}" if anchor else url
    return href


def render(
    src: Source,
    *,
    figure: Callable[[str, str | None], str],
    block: Callable[[str], str],
) -> Rendered:
    """The article's HTML, its headings (for the table of contents) and its links.

    ``figure(name, fmt)`` gives a figure's text, ``block(name)`` a block's HTML (already safe).
    """
    with _MD_LOCK:
        tokens = _MD.parse(src.body)
    out = Rendered("")
    used: set[str] = set()
    result: list[Token] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if (
            tok.type == "paragraph_open"
            and i + 2 < len(tokens)
            and tokens[i + 1].type == "inline"
            and BLOCK.match(tokens[i + 1].content.strip())
        ):
            name = BLOCK.match(tokens[i + 1].content.strip()).group(1)  # type: ignore[union-attr]
            html_tok = Token("html_block", "", 0)
            html_tok.content = block(name) + "\n"
            result.append(html_tok)
            i += 3
            continue
        if tok.type == "heading_open" and i + 1 < len(tokens):
            inline = tokens[i + 1]
            match = HEADING_ID.search(inline.content)
            level = int(tok.tag[1])
            if match:
                anchor = match.group(1)
                inline.content = inline.content[: match.start()]
                if inline.children:
                    last = inline.children[-1]
                    last.content = HEADING_ID.sub("", last.content)
            else:
                anchor = f"section-{len(out.headings) + 1}"
            if anchor in used:
                raise ContentError(f"{src.path}: anchor {anchor!r} twice")
            used.add(anchor)
            tok.attrSet("id", anchor)
            out.headings.append(Heading(level, anchor, inline.content.strip()))
        if tok.type == "inline" and tok.children:
            for child in tok.children:
                if child.type == "text" and "{{" in child.content:
                    child.content = PLACEHOLDER.sub(
                        lambda m: figure(m.group(1), m.group(2)), child.content
                    )
                if child.type == "link_open":
                    href = str(child.attrGet("href") or "")
                    resolved = _resolve_link(href, src.lang)
                    child.attrSet("href", resolved)
                    out.links.append(resolved)
        result.append(tok)
        i += 1
    # Heading text for the table of contents, with its figures filled.
    for h in out.headings:
        h.text = PLACEHOLDER.sub(lambda m: figure(m.group(1), m.group(2)), h.text)
    out.html = _MD.renderer.render(result, _MD.options, {})
    return out


def escape_text(text: Any) -> str:
    return str(escape(text))
