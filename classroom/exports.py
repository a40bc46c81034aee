"""CSV exports, streamed row by row with the standard library's ``csv``.

UTF-8 with a byte-order mark, so that spreadsheet programs read Cyrillic and Armenian names
right; a cell that begins with ``= + - @`` (or a tab or carriage return) gets a leading
apostrophe, so that no spreadsheet runs it as a formula (OWASP's advice on CSV injection).
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator
from typing import Any

from django.http import StreamingHttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from classroom.presenters import SORT_LABELS
from classroom.records import Answer
from classroom.selectors import Dashboard

BOM = "\ufeff"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell_safe(value: Any) -> Any:
    """A text cell a spreadsheet will not evaluate; numbers are kept as numbers.

    >>> cell_safe("=HYPERLINK(1)"), cell_safe("-1"), cell_safe(-1.5), cell_safe("Ани")
    ("'=HYPERLINK(1)", "'-1", -1.5, 'Ани')
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class _Echo:
    """A file-like object whose write returns the line, for streaming (Django's recipe)."""

    def write(self, value: str) -> str:
        return value


def _stream(rows: Iterable[Iterable[Any]]) -> Iterator[str]:
    writer = csv.writer(_Echo())
    yield BOM
    for row in rows:
        yield writer.writerow([cell_safe(v) for v in row])


def csv_response(*, rows: Iterable[Iterable[Any]], filename: str) -> StreamingHttpResponse:
    response = StreamingHttpResponse(_stream(rows), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"
    return response


def _num(value: float | None, digits: int = 2) -> str:
    return "" if value is None else f"{value:.{digits}f}"


def dashboard_rows(data: Dashboard) -> Iterator[list[Any]]:
    head = [
        _("Student"),
        _("Username"),
        SORT_LABELS["hands"](),  # the moves: every decision but a counting drill's answer
        _("Drill"),
        _("Table"),
        _("Move accuracy, %"),
        SORT_LABELS["lost"](),
        _("Last active"),
        *[
            ngettext(
                "Move accuracy, last %(n)s day, %%", "Move accuracy, last %(n)s days, %%", days
            )
            % {"n": days}
            for days in (7, 30)
        ],
        _("Counting answers"),
        _("Counting accuracy, %"),
        _("Counting answer time, s"),
    ]
    yield head + [a.title for a in data.assignments]
    for row in data.rows:
        f = row.figures
        yield [
            row.name,
            row.membership.student.username,
            row.score.count,
            f.drill if f else 0,
            f.table if f else 0,
            _num(row.score.accuracy, 1),
            _num(row.score.lost_per_100),
            f.last_active.isoformat() if f and f.last_active else "",
            _num(row.week.accuracy, 1),
            _num(row.month.accuracy, 1),
            row.counting.count,
            _num(row.counting.accuracy, 1),
            _num(row.counting.avg_ms / 1000 if row.counting.avg_ms is not None else None, 1),
            *[f"{p.counted}/{p.assignment.hands}" for p in row.progress],
        ]


def answer_rows(answers: Iterable[Answer]) -> Iterator[list[Any]]:
    yield [
        _("Time"),
        _("Source"),
        _("Category"),
        _("Hand"),
        _("Dealer"),
        _("Choice"),
        _("Best"),
        _("Chart"),
        _("Correct"),
        _("EV lost"),
        _("EV of each option"),
        _("Rules"),
        _("Assignment"),
        _("Count system"),
        _("True count"),
        _("Count typed"),
        _("Right count"),
        _("Answer time, s"),
    ]
    for a in answers:
        yield [
            a.created_at.isoformat(),
            a.source,
            a.category,
            " ".join(a.hand),
            a.dealer_up,
            a.choice,
            a.best,
            a.chart_move,
            1 if a.correct else 0,
            f"{a.ev_lost:.4f}",
            " ".join(f"{m}:{v:+.4f}" for m, v in sorted(a.ev.items())),
            a.rules_key,
            a.context or "",
            a.count_system,
            "" if a.true_count is None else a.true_count,
            "" if a.answer is None else a.answer,
            "" if a.right_answer is None else a.right_answer,
            _num(a.time_taken_ms / 1000 if a.time_taken_ms is not None else None, 1),
        ]
