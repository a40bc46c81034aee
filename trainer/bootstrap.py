"""Start-up rows of the trainer: the tables of the house rules, so that the first drill and the
chart page answer at once.  The other presets are computed on first use in the background, or
ahead of time with ``manage.py trainer_tables --all``."""

from __future__ import annotations

from blackjack import DEFAULT_PRESET, PRESETS
from computed.services import chart_job_run, tables_stored

PRESETS_AT_START: tuple[str, ...] = (DEFAULT_PRESET,)


def run() -> list[str]:
    lines = []
    for name in PRESETS_AT_START:
        rules = PRESETS[name]
        if tables_stored(rules):
            continue
        chart_job_run(rules=rules)
        lines.append(f"computed the chart and the drill tables of the {name} rules")
    return lines
