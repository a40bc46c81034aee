"""Figures as text in the page's language: the decimal separator, grouping, the percent sign.

Django's ``number_format`` gives the separators of the active language (Belarusian and
Armenian from ``config/formats``); the percent sign follows a no-break space except in English,
and a negative number takes the minus sign (U+2212), not a hyphen.

>>> from django.utils import translation
>>> with translation.override("uk"):
...     percent(0.004057, 2)
'0,41\\xa0%'
>>> with translation.override("en"):
...     signed_percent(-0.0739, 1), integer(1500)
('\\u22127.4%', '1,500')
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils import formats

from core.numbers import percent as sign_percent

NBSP = "\u00a0"
MINUS = "\u2212"


def _number(value: float, places: int) -> str:
    text = formats.number_format(round(value, places), places, use_l10n=True, force_grouping=True)
    return text.replace("-", MINUS)


def percent(value: float, places: int = 1) -> str:
    """A fraction as a percentage: 0.4228 -> 42.3 %."""
    return sign_percent(_number(100 * value, places))  # the one rule of the sign: core.numbers


def signed_percent(value: float, places: int = 1) -> str:
    text = percent(value, places)
    return text if text.startswith(MINUS) or round(100 * value, places) == 0 else f"+{text}"


def integer(value: float) -> str:
    text = formats.number_format(int(value), 0, use_l10n=True, force_grouping=True)
    # Grouping with a no-break space keeps "1 500" on one line (cs, uk, ru, be, hy).
    return text.replace(" ", NBSP).replace("-", MINUS)


def decimal(value: float, places: int = 2) -> str:
    return _number(value, places)


def signed_integer(value: float) -> str:
    """A true count as a player writes it: +3, 0, −1."""
    text = integer(value)
    return f"+{text}" if int(value) > 0 else text


FORMATS: dict[str, Callable[[float], str]] = {
    "pct0": lambda v: percent(v, 0),
    "pct1": lambda v: percent(v, 1),
    "pct2": lambda v: percent(v, 2),
    "pct3": lambda v: percent(v, 3),
    "signed1": lambda v: signed_percent(v, 1),
    "signed2": lambda v: signed_percent(v, 2),
    "int": integer,
    "num2": lambda v: decimal(v, 2),
    "num3": lambda v: decimal(v, 3),
    "count": signed_integer,
    # An identifier, not an amount: no grouping (a seed is typed back as it is printed).
    "plain": lambda v: str(int(v)),
}


def default_format(name: str) -> str:
    """How a figure is shown unless the text says otherwise (``{{ name | pct2 }}``)."""
    head = name.split(".")[0]
    if head in ("edge", "policy") or (name.startswith("preset.") and ".edge" in name):
        return "pct2"
    if head in ("soft17", "soft18") or name.startswith("ins.ev") or name == "ins.even_money":
        return "signed1"
    if head in ("dealer_bust", "dealer_bust_pre") or ".bust." in name or name.startswith("ins.p_"):
        return "pct1"
    if name == "ins.habit_per_100":
        return "num2"
    if head == "count":
        return _count_format(name)
    if head == "index":
        return "signed2" if name.endswith(".gain") else "count"
    return "int"


def _count_format(name: str) -> str:
    if name == "count.seed":
        return "plain"
    if name in ("count.flat.return", "count.ramp.return", "count.gain"):
        return "signed2"
    if name in ("count.flat.edge", "count.flat.sigma", "count.ramp.sigma"):
        return "pct2"
    if name == "count.penetration":
        return "pct0"
    if name in ("count.ramp.start", "count.ramp.first", "count.ramp.top"):
        return "count"
    if name.startswith(("count.ramp.per_", "count.ramp.sd", "count.ramp.average")):
        return "num3" if "per_round" in name else "num2"
    return "int"
