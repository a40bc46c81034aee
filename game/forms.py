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
