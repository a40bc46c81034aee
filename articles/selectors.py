"""Reads of the articles: the article files of a language, rendered with the stored figures.

A rendered article is kept per (language, slug) in process memory once the figures exist, so a
warm page costs a dictionary lookup and the template; nothing here computes or writes.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import Any

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.functional import Promise

from articles import content, figures, numbers
from blackjack import PRESETS
from core.display import CardView, card_view, row_label, up_label

logger = logging.getLogger(__name__)
MISSING = "…"


@dataclass(frozen=True)
class Page:
    source: content.Source
    rendered: content.Rendered


def figure_text(values: dict[str, Any] | None, name: str, fmt: str | None) -> str:
    """One figure as text in the active language; "…" while the figures are not computed."""
    if values is None:
        return MISSING
    value = values.get(name)
    if value is None:
        if name.split(".")[0] not in figures.LATE_HEADS:  # those may be not stored yet
            logger.error("unknown figure %r", name)
        return MISSING
    if isinstance(value, str | Promise):  # a name, in the active language
        return str(value)
    if isinstance(value, list):
        return " · ".join(numbers.integer(v) for v in value)
    return numbers.FORMATS[fmt or numbers.default_format(name)](value)


def all_figures(*, late: bool = False) -> dict[str, Any] | None:
    """Every stored figure; with ``late``, the counting simulation's too when stored (read
    only for the pages that print them)."""
    stored = figures.figures_get()
    if stored is None:
        return None
    counting = figures.count_get() if late else None
    return {
        **stored,
        **figures.worked_round_figures(),
        **figures.static_figures(),
        **figures.preset_names(),
        **(counting or {}),
    }


def uses_late(src: content.Source) -> bool:
    return any(name.split(".")[0] in figures.LATE_HEADS for name, _fmt in src.placeholders())


_PAGES: dict[tuple[str, str], Page] = {}
_LOCK = threading.Lock()


def forget() -> None:
    with _LOCK:
        _PAGES.clear()
    figures.figures_forget()


def page(lang: str, slug: str, *, blocks: dict[str, str] | None = None) -> Page | None:
    """The article in ``lang``, or ``None`` if that language has no such article."""
    src = content.source(lang, slug)
    if src is None:
        return None
    key = (lang, slug)
    with _LOCK:
        found = _PAGES.get(key)
    if found is not None and blocks is None:
        return found
    values = all_figures(late=uses_late(src))
    shown = dict(blocks or {})
    with translation.override(lang):
        rendered = content.render(
            src,
            figure=lambda name, fmt: figure_text(values, name, fmt),
            block=lambda name: shown.get(name) or render_block(name, values),
        )
    result = Page(src, rendered)
    complete = values is not None and all(name in values for name, _fmt in src.placeholders())
    if complete and blocks is None and "calculator" not in src.blocks():
        with _LOCK:
            _PAGES[key] = result
    return result


def render_block(name: str, values: dict[str, Any] | None) -> str:
    """A block's HTML in the active language (the calculator is rendered by its view)."""
    context: dict[str, Any] = {"figures_ready": values is not None}
    if name == "chart":
        context["grids"] = figures.chart_grids()
        context["ups"] = figures.chart_ups()
    elif name == "worked_round":
        context["steps"] = worked_round_steps()
    elif name == "presets":
        context["presets"] = preset_rows(values)
    elif name == "soft_table":
        context["rows"] = soft_rows(values)
    return render_to_string(f"articles/blocks/{name}.html", context)


@dataclass(frozen=True)
class Step:
    what: str  # a key the template words
    cards: list[CardView]
    total: str = ""
    hand: int = 0
    amount: str = ""  # debens, formatted in the page's language


def worked_round_steps() -> list[Step]:
    """The worked round as the table shows it: the deal, each move, the dealer, the payout."""
    state = figures.worked_round()
    steps: list[Step] = []
    player: list[CardView] = []
    up: Any = None
    dealing = True
    for ev in state.events:
        kind = ev.kind.value
        if dealing:
            if kind == "deal" and ev.card is not None:
                player.append(card_view(ev.card.code))
            elif kind == "dealer_up" and ev.card is not None:
                up = card_view(ev.card.code)
            elif kind == "hole":
                steps.append(Step("deal", player))
                steps.append(Step("dealer_up", [up]))
                dealing = False
            continue
        hand = (ev.hand or 0) + 1
        if kind == "move" and ev.move is not None:
            steps.append(
                Step(f"move_{ev.move.value}", [], hand=hand, amount=numbers.integer(ev.staked))
            )
        elif kind == "deal" and ev.card is not None:
            steps.append(Step("card", [card_view(ev.card.code)], hand=hand))
        elif kind == "reveal" and ev.card is not None:
            steps.append(Step("reveal", [card_view(ev.card.code)]))
        elif kind == "draw" and ev.card is not None:
            steps.append(Step("draw", [card_view(ev.card.code)]))
        elif kind == "settle" and ev.outcome is not None:
            steps.append(
                Step(f"settle_{ev.outcome.value}", [], hand=hand, amount=numbers.integer(ev.paid))
            )
    return steps


@dataclass(frozen=True)
class PresetRow:
    name: str  # the code name, for the links
    label: str  # the display name, in the page's language
    decks: int
    edge: str
    edge_cd: str
    bust6: str
    bust10: str
    stakes: str


def preset_rows(values: dict[str, Any] | None) -> list[PresetRow]:
    out = []
    for name in PRESETS:

        def f(suffix: str, fmt: str | None = None, name: str = name) -> str:
            return figure_text(values, f"preset.{name}.{suffix}", fmt)

        out.append(
            PresetRow(
                name=name,
                label=f("name"),
                decks=PRESETS[name].decks,
                edge=f("edge"),
                edge_cd=f("edge_cd"),
                bust6=f("bust.6"),
                bust10=f("bust.10"),
                stakes=f"{f('min_bet')}–{f('max_bet')}",
            )
        )
    return out


def soft_rows(values: dict[str, Any] | None) -> list[dict[str, Any]]:
    rows = []
    for total in (17, 18):
        for up in figures.chart_ups():
            name = figures.UP_NAMES[up]
            base = f"soft{total}.{name}"
            rows.append(
                {
                    "total": total,
                    "hand": row_label("soft", total),
                    "up": up_label(up),
                    "stand": figure_text(values, f"{base}.stand", "signed1"),
                    "hit": figure_text(values, f"{base}.hit", "signed1"),
                    "double": figure_text(values, f"{base}.double", "signed1"),
                    "best": (values or {}).get(f"{base}.best", ""),
                }
            )
    return rows
