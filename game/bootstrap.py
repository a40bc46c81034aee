"""Start-up rows of play mode: the three house tables and one table per other preset, and the
house rules' chart and two-card analyses (the computed tables), which the AI seat-mates, the
hints and the review of every decision read, so that no request computes them.  A variant's
are computed in the background when its table is first shown."""

from __future__ import annotations

from blackjack import DEFAULT_PRESET, PRESETS
from computed.services import chart_job_run, tables_stored
from game import selectors
from game.models import Table
from game.stakes import HOUSE_TABLES, stakes_for_preset


def table_rows() -> list[dict[str, object]]:
    """Every table RULES.md describes: the house's three, then the variants in preset order
    (their own stakes where the source gives them, else the Scribes')."""
    rows: list[dict[str, object]] = []
    for i, stakes in enumerate(HOUSE_TABLES):
        rows.append(
            {"slug": stakes.slug, "kind": Table.Kind.HOUSE, "preset": DEFAULT_PRESET,
             "min_bet": stakes.min_bet, "max_bet": stakes.max_bet, "chips": list(stakes.chips),
             "box_counts": list(stakes.box_counts), "position": i}
        )  # fmt: skip
    for i, name in enumerate(n for n in PRESETS if n != DEFAULT_PRESET):
        stakes = stakes_for_preset(name)
        rows.append(
            {"slug": name, "kind": Table.Kind.VARIANT, "preset": name,
             "min_bet": stakes.min_bet, "max_bet": stakes.max_bet, "chips": list(stakes.chips),
             "box_counts": list(stakes.box_counts), "position": 10 + i}
        )  # fmt: skip
    return rows


def run() -> list[str]:
    lines = []
    for row in table_rows():
        slug = row.pop("slug")
        _, created = Table.objects.update_or_create(slug=slug, defaults=row)
        if created:
            lines.append(f"table {slug} created")
    selectors.tables_forget()  # this process's kept rows (another process starts afresh)
    rules = PRESETS[DEFAULT_PRESET]  # the house tables' rules
    if not tables_stored(rules):
        chart_job_run(rules=rules)
        lines.append(f"computed the chart and the two-card analyses of the {DEFAULT_PRESET} rules")
    return lines
