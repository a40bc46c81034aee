"""The past-rounds table's rows built in Python: the markup the template loop made, without a
hundred rows' worth of template nodes (issue 17)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.formats import date_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import localtime
from django.utils.translation import gettext

register = template.Library()


@register.simple_tag
def history_rows(rows: list[dict[str, Any]]) -> SafeString:
    labels = [escape(gettext(w)) for w in ("Round", "Table", "When", "Staked", "Result")]
    out = []
    for row in rows:
        when = date_format(localtime(row["when"]), "SHORT_DATETIME_FORMAT")
        cells = (
            f'<a href="{escape(row["url"])}">{escape(row["title"])}</a>',
            escape(row["table_name"]),
            escape(when),
            escape(row["staked"]),
            escape(row["result"]),
        )
        tds = "".join(
            f'<td data-label="{lab}">{c}</td>' for lab, c in zip(labels, cells, strict=True)
        )
        out.append(f"<tr>{tds}</tr>")
    return mark_safe("\n    ".join(out))
