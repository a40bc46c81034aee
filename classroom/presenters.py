"""What the class pages show, as ready-made text: the dashboard's rows, the heat map's cells,
the progress bars and the forms that never change.

The pages loop over up to 40 students × every assignment and 340 chart cells; an
``{% include %}`` or a filter chain per cell cost most of the dashboard's time (profiled:
template rendering was ~70 % of its CPU).  Here each figure and phrase is formatted once in
Python, as plain values the templates place (the heat map's cells, the progress bars:
``classroom/_heat.html``, ``classroom/_progress.html``), and the unbound assignment forms, the
same for every teacher, are rendered once per language.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal

from django import forms
from django.core.cache import caches
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format, get_format, number_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from classroom.records import Answer, CountedAnswer, Score, counted_answer
from classroom.selectors import Dashboard, DashboardRow, HeatCell, Progress
from core.display import row_label
from core.numbers import percent

NO_VALUE = "–"
_STEPS = {d: Decimal(1).scaleb(-d) for d in range(4)}
# The dashboard's columns, each saying what it measures: the moves (every decision in the
# drills and at the table but a counting drill's answer) and, apart, the answers made with a
# count (the counting drills and the moves made at a count).
SORT_LABELS: dict[str, Callable[[], str]] = {
    "name": lambda: _("Student"),
    "hands": lambda: _("Moves"),
    "accuracy": lambda: _("Move accuracy"),
    "lost": lambda: ngettext("EV lost per %(n)s move", "EV lost per %(n)s moves", 100) % {"n": 100},
    "week": lambda: (
        ngettext("Move accuracy, last %(n)s day", "Move accuracy, last %(n)s days", 7) % {"n": 7}
    ),
    "month": lambda: (
        ngettext("Move accuracy, last %(n)s day", "Move accuracy, last %(n)s days", 30) % {"n": 30}
    ),
    "last": lambda: _("Last active"),
    "counting": lambda: _("Counting accuracy"),
    "speed": lambda: _("Counting answer time"),
}


def cell_label(kind: str, row: int) -> str:
    """A chart row as the chart names it, the ace in the language's letter: 16, A-7, 8-8, A-A.

    >>> cell_label("soft", 18), cell_label("pair", 1), cell_label("hard", 12)
    ('A-7', 'A-A', '12')
    """
    return row_label(kind, row)


def _decimal(value: float, digits: int) -> str:
    """``value`` rounded half up like the ``floatformat`` filter, with a point."""
    return f"{Decimal(repr(value)).quantize(_STEPS[digits], ROUND_HALF_UP):f}"


class Formats:
    """The active language's decimal separator, percent sign and the few phrases a page
    repeats per row, looked up once per page rather than once per cell."""

    def __init__(self) -> None:
        self.separator = str(get_format("DECIMAL_SEPARATOR"))
        self.language = translation.get_language() or "en"
        self.of = _("%(done)s of %(total)s")
        self.done = _("done")
        self.split = _("%(drill)s drill, %(table)s table")
        self.seconds = _("%(s)s s")

    def fixed(self, value: float, digits: int) -> str:
        """A number with ``digits`` decimals as the language writes it ("66.7", "66,7"),
        rounded half up like the ``floatformat`` filter (numbers below 1,000 only: no
        grouping).

        >>> with translation.override("cs"):
        ...     f = Formats()
        ...     f.fixed(66.66, 1), f.fixed(0.125, 2), f.fixed(80.0, 0)
        ('66,7', '0,13', '80')
        """
        return _decimal(value, digits).replace(".", self.separator)

    def signed(self, value: float, digits: int) -> str:
        return ("+" if value >= 0 else "−") + self.fixed(abs(value), digits)

    def percent(self, score: Score, digits: int) -> str:
        return self.accuracy(score.accuracy, digits)

    def accuracy(self, acc: float | None, digits: int) -> str:
        return NO_VALUE if acc is None else percent(self.fixed(acc, digits), language=self.language)


def signed(value: float | None, digits: int = 1) -> str:
    """+3.0 / −2.5 (a true minus sign); empty for no value.

    >>> signed(2.96), signed(-2.5, 0), signed(None)
    ('+3.0', '−3', '')
    """
    if value is None:
        return ""
    text = str(number_format(Decimal(_decimal(abs(value), digits)), decimal_pos=digits))
    return ("+" if value >= 0 else "−") + text


def _when(value: datetime | None) -> tuple[str, str]:
    if value is None:
        return "", NO_VALUE
    local = timezone.localtime(value)
    return local.isoformat(), date_format(local, "SHORT_DATETIME_FORMAT")


# --- progress ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ProgressBar:
    """An assignment's progress bar (``classroom/_progress.html``): "12 of 30 · 83% · done"."""

    done: bool
    hands: int
    counted: int
    title: str
    text: str


def progress_bar(p: Progress, formats: Formats | None = None) -> ProgressBar:
    f = formats or Formats()
    text = f.of % {"done": p.counted, "total": p.assignment.hands}
    if p.score.count:
        text += " · " + f.percent(p.score, 0)
    if p.done:
        text += " · " + f.done
    hands, title = p.assignment.hands, p.assignment.title
    return ProgressBar(done=p.done, hands=hands, counted=p.counted, title=title, text=text)


# --- the dashboard -------------------------------------------------------------------------


@dataclass(frozen=True)
class SortLink:
    label: str
    href: str
    arrow: str  # "▲", "▼" or ""
    state: str  # for screen readers: "(sorted, ascending)"...
    numeric: bool


@dataclass(frozen=True)
class RowView:
    username: str
    name: str  # the real name for the teachers, else the display name
    href: str
    count: int
    split: str  # "12 drill, 3 table"
    accuracy: str
    lost: str
    week: str
    week_trend: str
    month: str
    month_trend: str
    last_iso: str
    last: str
    progress: list[ProgressBar]
    counting: str = NO_VALUE  # accuracy of the answers made with a count
    speed: str = NO_VALUE  # their mean answer time, in seconds


@dataclass(frozen=True)
class DashboardView:
    rows: list[RowView]
    headers: list[SortLink]


def _row(row: DashboardRow, href: str, fm: Formats) -> RowView:
    score, f = row.score, row.figures
    last_iso, last = _when(f.last_active if f else None)
    split = "" if f is None or not score.count else fm.split % {"drill": f.drill, "table": f.table}
    week, month = row.week_trend, row.month_trend
    c_ms = row.counting.avg_ms if row.counting.count else None
    return RowView(
        username=row.membership.student.username,
        name=row.name,
        href=href,
        count=score.count,
        split=split,
        accuracy=fm.percent(score, 1),
        lost=NO_VALUE if score.lost_per_100 is None else fm.fixed(score.lost_per_100, 2),
        week=fm.percent(row.week, 0),
        week_trend=f"({fm.signed(week, 0)})" if week is not None and row.week.count else "",
        month=fm.percent(row.month, 0),
        month_trend=f"({fm.signed(month, 0)})" if month is not None and row.month.count else "",
        last_iso=last_iso,
        last=last,
        progress=[progress_bar(p, fm) for p in row.progress],
        counting=fm.accuracy(row.counting.accuracy, 1),
        speed=NO_VALUE if c_ms is None else fm.seconds % {"s": fm.fixed(c_ms / 1000, 1)},
    )


def _headers(sort: str, range_query: str) -> list[SortLink]:
    links = []
    tail = f"&{range_query}" if range_query else ""
    for key, label in SORT_LABELS.items():
        if sort == key:
            href, arrow, state = f"?sort=-{key}{tail}", "▲", _("(sorted, ascending)")
        elif sort == f"-{key}":
            href, arrow, state = f"?sort={key}{tail}", "▼", _("(sorted, descending)")
        else:
            href, arrow, state = f"?sort={key}{tail}", "", ""
        links.append(SortLink(label(), href, arrow, state, key not in ("name", "last")))
    return links


def dashboard_view(
    data: Dashboard, *, sort: str, range_query: str, student_href: Callable[[int], str]
) -> DashboardView:
    query = f"?{range_query}" if range_query else ""
    fm = Formats()
    rows = [_row(r, student_href(r.membership.student_id) + query, fm) for r in data.rows]
    return DashboardView(rows=rows, headers=_headers(sort, range_query))


# --- the heat map --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HeatCellView:
    """A heat-map cell: its colour, its answers right of all, and the link to them (if any)."""

    level: str
    correct: int
    count: int
    href: str  # "" where the cell links nowhere (no answers, or no cell page)
    data_cell: str  # "hard-16-10": the browser tests' handle


@dataclass(frozen=True)
class HeatRow:
    label: str
    cells: list[HeatCellView]


def _cell(c: HeatCell, href_base: str | None, query: str) -> HeatCellView:
    s = c.score
    href = ""
    if s.count and href_base is not None:
        href = f"{href_base}{c.kind}/{c.row}/{c.up}/{query}"
    return HeatCellView(c.level, s.correct, s.count, href, f"{c.kind}-{c.row}-{c.up}")


def heat_rows(
    rows: Sequence[tuple[int, Sequence[HeatCell]]],
    *,
    kind: str,
    cell_href_base: str | None,
    range_query: str,
) -> list[HeatRow]:
    """One chart grid's rows; ``cell_href_base`` (the heat page's address) links each cell
    with answers to ``<base><kind>/<row>/<up>/``, the ``classroom:cell`` page."""
    query = f"?{range_query}" if range_query else ""
    return [
        HeatRow(cell_label(kind, row), [_cell(c, cell_href_base, query) for c in cells])
        for row, cells in rows
    ]


def heat_grids_view(
    grids: Sequence[tuple[str, Sequence[tuple[int, Sequence[HeatCell]]]]],
    *,
    cell_href_base: str | None,
    range_query: str,
) -> list[tuple[str, list[HeatRow]]]:
    return [
        (
            kind,
            heat_rows(
                rows,
                kind=kind,
                cell_href_base=cell_href_base,
                range_query=range_query,
            ),
        )
        for kind, rows in grids
    ]


def heat_href_base(classroom_pk: int) -> str:
    return reverse("classroom:heat", args=[classroom_pk])


# --- forms that never change ---------------------------------------------------------------


def form_fields_html(
    name: str, make: Callable[[], forms.Form], *, options: bool = True
) -> SafeString:
    """The fields of an unbound form, rendered once per language and process and kept in the
    local-memory cache ``template_fragments``: the assignment forms (a dozen selects of rule
    options) cost more to render than the rest of a page. ``name`` names the form; ``make``
    builds it with its initial values; ``options`` adds the rule options (folded)."""
    key = f"classroom-form:{name}:{int(options)}:{translation.get_language() or ''}"
    fragments = caches["template_fragments"]
    html: SafeString | None = fragments.get(key)
    if html is None:
        context = {"form": make(), "options": options}
        html = mark_safe(render_to_string("classroom/_form_fields.html", context))
        fragments.set(key, html)
    return html


# --- a student's mistakes ------------------------------------------------------------------


@dataclass(frozen=True)
class MistakeView:
    """One of a student's wrong answers (``classroom/student.html``): a move, or a count."""

    answer: Answer
    # The count it was made with (trainer.count_display: the drill's own presentation): a
    # running-count or true-count answer ("answered +3, the count was +5"), or a move made at
    # a true count; None for a move made without a count.
    counted: CountedAnswer | None

    @property
    def is_count(self) -> bool:
        """A counting drill's answer: a number, no hand, no dealer card, no EV."""
        return self.counted is not None and self.counted.kind != "index"


def mistake_views(answers: Sequence[Answer]) -> list[MistakeView]:
    return [
        MistakeView(
            a,
            counted_answer(
                category=a.category,
                count_system=a.count_system,
                answer=a.answer,
                right_answer=a.right_answer,
                true_count=a.true_count,
            ),
        )
        for a in answers
    ]
