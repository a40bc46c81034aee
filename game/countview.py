"""Count practice as the table shows it: the panel (the system, the betting ramp in the table's
chips), and the answer to "what is the count?".  Values only; the markup is
``templates/game/_count.html``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.utils.translation import gettext as _

from blackjack import Rules
from blackjack.counting import SYSTEMS
from computed.indices import indices_get
from core.display import fmt
from game.counting import RAMP, SeenCount, ramp_bet
from game.models import Round, Seat, Table
from game.selectors import seat_system


def count_text(n: int) -> str:
    """A count signed as a counter says it, with a true minus sign.

    >>> count_text(3), count_text(-2), count_text(0)
    ('+3', '−2', '0')
    """
    return f"+{n}" if n > 0 else f"\u2212{-n}" if n < 0 else "0"


def decks_text(decks: Fraction) -> str:
    """Decks to the nearest half: ``4``, ``3½``, ``½``.

    >>> decks_text(Fraction(7, 2)), decks_text(Fraction(4)), decks_text(Fraction(1, 2))
    ('3½', '4', '½')
    """
    whole = decks.numerator // decks.denominator
    half = "½" if decks.denominator == 2 else ""
    return f"{whole or ''}{half}" if half else str(whole)


@dataclass(frozen=True, slots=True)
class RampStep:
    count: str  # "+1 or less", "+3", "+5 or more"
    bet: str  # the bet a box, in debens


@dataclass(frozen=True, slots=True)
class CountPanel:
    """What the count practice controls show: the system, the ramp, the coach's index table."""

    system: str  # its key
    system_name: str
    systems: tuple[tuple[str, str], ...]
    ramp: tuple[RampStep, ...]
    unit: str
    indices_missing: bool  # coach mode on and the index table not stored yet
    fresh_shoe: bool  # the round on the table is the first of its shoe


def ramp_steps(table: Table) -> tuple[RampStep, ...]:
    steps = []
    for i, (at, _units) in enumerate(RAMP):
        bet = fmt(ramp_bet(at, unit=table.min_bet, max_bet=table.max_bet))
        if i == 0:
            label = _("%(count)s or less") % {"count": count_text(at)}
        elif i == len(RAMP) - 1:
            label = _("%(count)s or more") % {"count": count_text(at)}
        else:
            label = count_text(at)
        steps.append(RampStep(count=label, bet=bet))
    return tuple(steps)


def count_panel(*, seat: Seat, table: Table, rules: Rules, rnd: Round | None) -> CountPanel:
    system = seat_system(seat)
    return CountPanel(
        system=system.key,
        system_name=system.name,
        systems=tuple((s.key, s.name) for s in SYSTEMS.values()),
        ramp=ramp_steps(table),
        unit=fmt(table.min_bet),
        # Read only with the coach on: count practice alone never needs the index table.
        indices_missing=seat.coach and indices_get(rules, system) is None,
        fresh_shoe=rnd is not None and rnd.reshuffled,
    )


@dataclass(frozen=True, slots=True)
class CountCheck:
    """The answer to "what is the count?": the learner's figures against the right ones."""

    running: str
    running_ok: bool
    right_running: str
    true: str  # "" when the learner gave none
    true_ok: bool | None
    right_true: str
    decks_left: str
    cards_seen: int
    system_name: str
    bet: str  # the ramp's bet a box at the right true count ("" during a round)


def count_check(
    count: SeenCount, *, running: int, true: int | None, table: Table, betting: bool
) -> CountCheck:
    return CountCheck(
        running=count_text(running),
        running_ok=running == count.running,
        right_running=count_text(count.running),
        true="" if true is None else count_text(true),
        true_ok=None if true is None else true == count.true,
        right_true=count_text(count.true),
        decks_left=decks_text(count.decks_left),
        cards_seen=count.cards_seen,
        system_name=count.system.name,
        bet=fmt(ramp_bet(count.true, unit=table.min_bet, max_bet=table.max_bet)) if betting else "",
    )
