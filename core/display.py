"""Display helpers shared by every app: move names, signed figures, amounts of debens.

A move is called the same in a drill and at the table; a figure is signed with a true minus
sign (screen readers read it as "minus"); amounts are grouped as the visitor's language
writes numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.template.defaultfilters import floatformat
from django.utils.formats import number_format
from django.utils.functional import Promise, lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from blackjack import Card, Move
from core.cardnames import CARD_NAMES
from core.per_language import per_language

MOVE_LABELS: dict[Move, Promise] = {
    Move.HIT: _("Hit"),
    Move.STAND: _("Stand"),
    Move.DOUBLE: _("Double"),
    Move.SPLIT: _("Split"),
    Move.SURRENDER: _("Surrender"),
    Move.INSURE: _("Take insurance"),
    Move.DECLINE: _("No insurance"),
}

# The last two of a list of choices: "1 or 5", "1, 2 or 5".
OR_LIST = _("%(some)s or %(last)s")


def payout(won: int, bet: int) -> str:
    """A payout ratio, "3:2": Czech writes it „3 : 2“ with no-break spaces, so the ratio is a
    translatable pattern rather than the digits and a colon."""
    return pgettext("a payout ratio, as in 'blackjack pays 3:2'", "%(won)d:%(bet)d") % {
        "won": won,
        "bet": bet,
    }


# For a form's choices, which are built once at import: the ratio in the reader's language.
payout_lazy = lazy(payout, str)


def signed(value: float | None) -> str:
    """A percentage with two decimals and its sign: ``+1.25``, ``−0.50`` (a true minus sign,
    which screen readers read as "minus").

    >>> signed(1.234), signed(-0.5), signed(0.001)
    ('+1.23', '−0.50', '0.00')
    """
    if value is None:
        return "–"
    text = str(floatformat(abs(value), 2))
    if round(value, 2) == 0:
        return text
    return ("+" if value > 0 else "−") + text


def fmt(amount: Decimal | int) -> str:
    """Debens as the page shows them: grouped, and without ``.00`` when whole."""
    return _fmt(Decimal(amount))


@per_language  # a table request formats a dozen amounts, mostly the same few
def _fmt(value: Decimal) -> str:
    # 100 and 100.00 are one key: both are shown "100".
    places = 0 if value == value.to_integral_value() else 2
    return number_format(value, decimal_pos=places, use_l10n=True, force_grouping=True)


def fmt_signed(amount: Decimal | int) -> str:
    """A win or a loss: "+200", "−150" (a true minus sign), "0".

    >>> from django.utils import translation
    >>> with translation.override("en"):
    ...     fmt_signed(Decimal(1500)), fmt_signed(Decimal("-7.50")), fmt_signed(0)
    ('+1,500', '−7.50', '0')
    """
    value = Decimal(amount)
    if not value:
        return fmt(value)
    return ("+" if value > 0 else "−") + fmt(abs(value))


def or_list(counts: Sequence[int]) -> str:
    """``[1, 5]`` as "1 or 5", ``[1, 2, 5]`` as "1, 2 or 5" in the active language.

    >>> or_list([5]), or_list([1, 5]), or_list([1, 2, 5])
    ('5', '1 or 5', '1, 2 or 5')
    """
    if len(counts) == 1:
        return str(counts[0])
    return str(OR_LIST) % {"some": ", ".join(map(str, counts[:-1])), "last": counts[-1]}


@dataclass(frozen=True, slots=True)
class CardView:
    """A card as the table, the drill and the articles draw it."""

    code: str
    rank: str
    suit: str  # the suit's letter: s, h, d, c
    symbol: str  # ♠ ♥ ♦ ♣
    red: bool
    name: str  # for screen readers: "ace of spades", a whole phrase in each language
    label: str  # the rank as a sentence writes it: the ace in the language's letter (T, E, Տ)
    new: bool = False  # dealt by the last move: the table animates it in
    delay: int = 0  # its step in that animation


def rank_label(rank: str) -> str:
    """A rank in a sentence: the ace as the chart's letter of the language, others as they are."""
    return pgettext("up card", "A") if rank == "A" else rank


def up_label(up: int) -> str:
    """An up card's points as the chart's column heads write them: the ace in the language's
    letter (A, Т, Տ), the others as numbers."""
    return pgettext("up card", "A") if up == 1 else str(up)


def row_label(kind: str, row: int) -> str:
    """A chart row as every chart and table names it, the ace in the language's letter:
    16, A-7 (soft 18), 8-8, A-A (``kind`` "hard", "soft", "pair"; a soft row is its total)."""
    ace = pgettext("up card", "A")
    if kind == "pair":
        return f"{ace}-{ace}" if row == 1 else f"{row}-{row}"
    if kind == "soft":
        return f"{ace}-{row - 11}"
    return str(row)


def card_view(code: str, *, new: bool = False, delay: int = 0) -> CardView:
    """The view of the card ``code`` (``"As"``, ``"10d"``) in the active language."""
    return _card_view(code, new, delay)


@per_language  # a table request draws some twenty cards: each view is made once, then shared
def _card_view(code: str, new: bool, delay: int) -> CardView:
    card = Card.parse(code)
    return CardView(
        code=card.code,
        rank=card.rank,
        suit=card.suit.value,
        symbol=card.suit.symbol,
        red=card.suit.is_red,
        name=str(CARD_NAMES[card.code]),
        label=rank_label(card.rank),
        new=new,
        delay=delay,
    )
