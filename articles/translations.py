"""What ``manage.py translations check`` asks of the articles: every translation names the
current version of its English (:func:`articles.content.behind`)."""

from __future__ import annotations

from articles import content


def problems() -> list[str]:
    return content.behind()
