"""Start-up rows of the articles: the house figures, the house edge of the house rules with the
dealer hitting soft 17 (the calculator's first toggle answers at once), and a worker's job for
the counting article's simulation."""

from __future__ import annotations

from dataclasses import replace

from django.conf import settings

from articles import figures


def run() -> list[str]:
    lines = []
    if figures.figures_ensure():
        lines.append("computed the figures of the articles")
    h17 = replace(figures.HOUSE, dealer_hits_soft_17=True)
    if figures.edge_get(h17) is None:
        figures.edge_precompute(h17)
        lines.append("computed the house edge of the house rules with H17")
    # The counting figures take a worker minutes: asked for here, computed by `make run`'s
    # worker (the test settings turn this off: their task backend would run it at once).
    if settings.ARTICLES_COUNT_AT_START and figures.count_request():
        lines.append("asked a worker for the counting figures of the house rules")
    return lines
