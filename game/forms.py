"""Reading the play forms: the bets and AI seats of a deal, and a move with its seq."""

from __future__ import annotations

from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

from game.limits import BOXES
from game.models import Seat
from game.services import PlayError

BAD_NUMBER = _("A bet must be a whole number of debens.")
BAD_MOVE_FORM = _("That request was not understood.")


def parse_deal(data: QueryDict, seat: Seat | None) -> tuple[dict[int, int], dict[int, str]]:
    """``bet_0``…``bet_4`` (blank or 0: no bet) and ``ai_0``…``ai_4`` (blank: empty box), or
    with ``repeat`` the seat's last bets and AI players."""
    if "repeat" in data and seat is not None and seat.last_bets:
        return (
            {int(k): int(v) for k, v in seat.last_bets.items()},
            {int(k): str(v) for k, v in seat.ai_levels.items()},
        )
    bets: dict[int, int] = {}
    levels: dict[int, str] = {}
    for i in range(BOXES):
        raw = data.get(f"bet_{i}", "").strip().replace(",", "").replace(" ", "").replace("\xa0", "")
        if raw:
            try:
                value = int(raw)
            except ValueError:
                raise PlayError(BAD_NUMBER, "bad_number") from None
            if value < 0:
                raise PlayError(BAD_NUMBER, "bad_number")
            if value:
                bets[i] = value
        level = data.get(f"ai_{i}", "").strip()
        if level:
            levels[i] = level
    return bets, levels


def parse_move(data: QueryDict) -> tuple[str, int]:
    move = data.get("move", "")
    try:
        seq = int(data.get("seq", ""))
    except ValueError:
        raise PlayError(BAD_MOVE_FORM, "bad_form") from None
    return move, seq


BAD_COUNT = _("A count is a whole number from −999 to +999, such as −3, 0 or +5.")
NO_COUNT = _("Type your running count first.")
# The minus signs a keyboard or a phone may type: the hyphen, the true minus, the en dash.
MINUS_SIGNS = ("-", "\u2212", "\u2013")


def parse_count_value(raw: str) -> int | None:
    """A count as typed: an optional sign and ASCII digits; ``None`` for anything else.

    >>> [parse_count_value(s) for s in ("+3", " −2 ", "0", "1e3", "٣", "1000", "\\x00")]
    [3, -2, 0, None, None, None, None]
    """
    text = raw.strip()
    sign = 1
    if text[:1] == "+":
        text = text[1:]
    elif text[:1] in MINUS_SIGNS:
        sign, text = -1, text[1:]
    # Three digits at most: more than any shoe's count, and no huge number is ever parsed.
    if not (text.isascii() and text.isdigit()) or len(text) > 3:
        return None
    return sign * int(text)


def parse_count(data: QueryDict) -> tuple[int, int | None]:
    """``running`` (required) and ``true`` (optional): the counts the learner typed."""
    running_raw = data.get("running", "")
    if not running_raw.strip():
        raise PlayError(NO_COUNT, "no_count")
    running = parse_count_value(running_raw)
    true_raw = data.get("true", "")
    true = parse_count_value(true_raw) if true_raw.strip() else None
    if running is None or (true_raw.strip() and true is None):
        raise PlayError(BAD_COUNT, "bad_count")
    return running, true
