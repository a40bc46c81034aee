"""Numbers as each language writes them, where Django's formats say nothing: the percent sign.

English writes "54%" (no space); Ukrainian, Russian, Belarusian, Czech and Armenian put a
space before the sign ("54 %"), a no-break one so that a line never ends between the two.
Used by templates (the ``percent`` filter of ``core/templatetags/percent.py``) and, after the
display code moves into ``core``, by the Python that builds percentages.
"""

from __future__ import annotations

from django.utils import translation

NBSP = "\u00a0"
# Languages that write the sign right after the number; every other language puts a space.
NO_SPACE_BEFORE_PERCENT = frozenset({"en"})


def percent(number: object, *, language: str | None = None) -> str:
    """A number already formatted for the language ("54", "−3.40", "22,39") with its sign.

    >>> percent("54", language="en"), percent("−3.40", language="en-gb")
    ('54%', '−3.40%')
    >>> percent("22,39", language="cs") == "22,39\\u00a0%"
    True
    """
    code = (language or translation.get_language() or "en").split("-")[0].lower()
    space = "" if code in NO_SPACE_BEFORE_PERCENT else NBSP
    return f"{number}{space}%"
