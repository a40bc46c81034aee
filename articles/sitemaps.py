"""sitemap.xml: every public page in every language, with its alternates and x-default."""

from __future__ import annotations

from django.contrib.sitemaps import Sitemap
from django.urls import reverse

from articles import content

# Public pages that need no login (a GET of each writes nothing).
PUBLIC_PAGES: tuple[str, ...] = ("core:home", "articles:index", "trainer:index", "trainer:chart",
                                 "game:lobby")  # fmt: skip


class PagesSitemap(Sitemap[str]):
    i18n = True
    alternates = True
    x_default = True

    def items(self) -> list[str]:
        return list(PUBLIC_PAGES)

    def location(self, item: str) -> str:
        return reverse(item)


class ArticlesSitemap(Sitemap[str]):
    i18n = True
    alternates = True
    x_default = True

    def items(self) -> list[str]:
        # Only articles that exist in every language: a missing translation is a test failure.
        return list(content.SLUGS)

    def location(self, item: str) -> str:
        return reverse("articles:article", kwargs={"slug": item})


SITEMAPS = {"pages": PagesSitemap, "articles": ArticlesSitemap}
