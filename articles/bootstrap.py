"""Start-up rows of the articles: the house figures, and the house edge of the house rules
with the dealer hitting soft 17 (the calculator's first toggle answers at once)."""

from __future__ import annotations

from dataclasses import replace

from articles import figures


def run() -> list[str]:
    lines = []
    if figures.figures_ensure():
        lines.append("computed the figures of the articles")
    h17 = replace(figures.HOUSE, dealer_hits_soft_17=True)
    if figures.edge_get(h17) is None:
        figures.edge_precompute(h17)
        lines.append("computed the house edge of the house rules with H17")
    return lines
