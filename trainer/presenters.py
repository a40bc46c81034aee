"""The index page's rows, formatted here so that the template only lays them out."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from blackjack.counting import IndexPlay, IndexTable
from core.display import MOVE_LABELS, row_label, signed

KIND_ORDER = {"hard": 0, "soft": 1, "pair": 2, "insurance": 3}
UP_ORDER = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)


@dataclass(frozen=True)
class IndexRow:
    hand: str
    up: str
    basic: str
    move: str
    when: str  # "TC ≥ +3" or "TC < 0", the true count written as players write it
    index: int
    gain: str  # percent of the bet, signed, each time the hand is met
    kind: str


def signed_count(index: int) -> str:
    """
    >>> signed_count(3), signed_count(-2), signed_count(0)
    ('+3', '−2', '0')
    """
    return f"+{index}" if index > 0 else f"−{-index}" if index < 0 else "0"


def play_hand(play: IndexPlay) -> str:
    """The hand an index play is for, as the index page names it: 16, A-7, 8-8, Insurance."""
    if play.kind == "insurance":
        return _("Insurance")
    return row_label(play.kind, play.row)


def index_rows(table: IndexTable) -> list[IndexRow]:
    """Every index play of the table: hard totals, soft totals, pairs, insurance, each by up
    card (2 to ace) and hand."""
    plays = sorted(
        table.plays, key=lambda p: (KIND_ORDER[p.kind], p.row, UP_ORDER.index(p.up), p.index)
    )
    ace = pgettext("up card", "A")
    rows = []
    for play in plays:
        count = signed_count(play.index)
        when = (
            _("TC ≥ %(count)s") % {"count": count}
            if play.above
            else _("TC < %(count)s") % {"count": count}
        )
        rows.append(
            IndexRow(
                hand=play_hand(play),
                up=ace if play.up == 1 else str(play.up),
                basic=str(MOVE_LABELS[play.basic]),
                move=str(MOVE_LABELS[play.move]),
                when=when,
                index=play.index,
                gain=signed(100 * play.gain),
                kind=play.kind,
            )
        )
    return rows
