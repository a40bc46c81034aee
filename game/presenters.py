"""What play mode's pages show: the view of a round, the table page, names and lines.

A round is rendered only from :func:`blackjack.round.player_view`: the hole card appears once
the dealer reveals it, and of the shoe only the number of cards left.  Nothing in this module
reads ``Round.state`` for anything else.  The rows come from :mod:`game.selectors`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Any, NamedTuple

from django.template.defaultfilters import floatformat
from django.utils.functional import Promise
from django.utils.translation import get_language, gettext_lazy, ngettext, pgettext, pgettext_lazy
from django.utils.translation import gettext as _

from accounts.models import User
from blackjack import (
    Card,
    DoubleOn,
    EventKind,
    Money,
    Move,
    PairsBy,
    Peek,
    Phase,
    RoundState,
    Rules,
    Surrender,
    best_by_ev,
    is_best_choice,
    legal_moves,
)
from blackjack.counting import SYSTEMS
from core.cardnames import CARD_NAMES
from core.display import MOVE_LABELS, CardView, card_view, fmt, or_list, payout, signed
from core.numbers import percent
from core.per_language import per_language
from game import ai
from game.chips import chip_to_select, offer_amount
from game.codec import state_from_json, to_decimal
from game.counting import state_count
from game.countview import count_panel, count_text
from game.indexplay import index_advice
from game.limits import BOXES, rules_of, top_up_threshold
from game.models import Round, Seat, Table
from game.plurals import plural_count
from game.seen import SeenEvent, SeenHand, SeenRound, seen_round
from game.selectors import current_round, seat_system, table_seat, top_up_due_for, wallet_balance

MAX_DELAY = 24  # animation delay classes .delay-0 … .delay-24 in table.css
# Marks that already end a sentence, in any of the site's languages (Armenian ends one with
# the verjaket "։").
SENTENCE_ENDS = (".", "!", "?", "…", "։")

TABLE_NAMES: dict[str, Promise] = {
    "scribes": gettext_lazy("Scribes' table"),
    "priests": gettext_lazy("Priests' table"),
    "pharaohs": gettext_lazy("Pharaoh's table"),
    "live": gettext_lazy("Live casino rules"),
    "sixdeck": gettext_lazy("Six-deck rules with surrender"),
    "free": gettext_lazy("Free-play rules, no insurance"),
    "european": gettext_lazy("European no-hole-card rules"),
}
LEVEL_NAMES: dict[str, Promise] = {
    "easy": gettext_lazy("Easy"),
    "normal": gettext_lazy("Normal"),
    "hard": gettext_lazy("Hard"),
}
# The moves' names are the trainer's: a move is called the same in a drill and at the table.
MOVE_NAMES: dict[str, Promise] = {m.value: label for m, label in MOVE_LABELS.items()}
OUTCOME_NAMES: dict[str, Promise] = {
    "blackjack": gettext_lazy("Blackjack"),
    "win": gettext_lazy("Win"),
    "push": gettext_lazy("Push"),
    "lose": gettext_lazy("Loss"),
    "bust": gettext_lazy("Bust"),
    # A noun, the result: the button "Surrender" is a verb in most of the site's languages.
    "surrender": pgettext_lazy("outcome", "Surrender"),
    "even_money": gettext_lazy("Even money"),
}
# An insurance decision on a blackjack is the even-money offer, and is named as one.
EVEN_MONEY_NAMES: dict[str, Promise] = {
    "insure": gettext_lazy("Even money"),
    "decline": gettext_lazy("Keep the blackjack"),
}


def announcement(texts: list[str]) -> str:
    """The lines of a move's news as one text for the live region, each a sentence ended in
    the language's own full stop unless it has one already.

    >>> from django.utils import translation
    >>> with translation.override("en"):  # an Armenian line keeps its own full stop
    ...     announcement(["Box 1: Double", "Դուք պարտվեցիք 200 դեբեն։"])
    'Box 1: Double. Դուք պարտվեցիք 200 դեբեն։'
    """
    # Translators: the mark that ends a sentence (Armenian: ։).
    end = pgettext("sentence end", ".")
    return " ".join(t if t.endswith((*SENTENCE_ENDS, end)) else t + end for t in texts)


def chip_face(value: int) -> str:
    """What a chip's face shows: 100, 500, then 1K, 5K … 500K, as on real chips, so that the
    value fits the disc; the full amount is read to screen readers beside it."""
    if value >= 1000 and value % 1000 == 0:
        return f"{value // 1000}K"
    return str(value)


def table_name(table: Table) -> str:
    return str(TABLE_NAMES.get(table.slug, table.slug))


def rules_line(rules: Rules) -> str:
    """The rules of a table in one line: "6 decks · dealer stands on soft 17 · 3:2 · …".

    The house rules' choices are always named; any other rule only where a table departs
    from the house rules, so that a variant's line says everything that sets it apart.
    """
    # A dozen translations for a line that depends on nothing else: made once per rule set
    # and language (the rule sets are the tables'), not on every table page, deal and move.
    return _rules_line(rules, get_language())


@lru_cache(maxsize=128)
def _rules_line(rules: Rules, _language: str | None) -> str:
    house = Rules()
    if rules.surrender is Surrender.NONE:
        surrender = _("no surrender")
    elif rules.surrender_vs_ace:
        surrender = _("late surrender")
    else:
        surrender = _("late surrender, not against an ace")
    parts = [
        ngettext("%(n)d deck", "%(n)d decks", rules.decks) % {"n": rules.decks},
        _("dealer hits soft 17") if rules.dealer_hits_soft_17 else _("dealer stands on soft 17"),
        payout(rules.blackjack_pays.numerator, rules.blackjack_pays.denominator),
        _("double after split") if rules.double_after_split else _("no double after split"),
        surrender,
    ]
    if rules.peek is Peek.ACE_ONLY:
        parts.append(_("the dealer peeks under an ace only"))
    if rules.double_on is DoubleOn.NINE_TO_ELEVEN:
        parts.append(_("double on 9 to 11 only"))
    elif rules.double_on is DoubleOn.TEN_TO_ELEVEN:
        parts.append(_("double on 10 and 11 only"))
    if not rules.double_soft:
        parts.append(_("no double on soft hands"))
    if rules.max_hands != house.max_hands:
        parts.append(
            ngettext("split to %(n)d hand at most", "split to %(n)d hands at most", rules.max_hands)
            % {"n": rules.max_hands}
        )
    if rules.pairs_by is PairsBy.RANK:
        parts.append(_("split pairs of equal rank only"))
    if rules.resplit_aces:
        parts.append(_("aces may be resplit"))
    if rules.hit_split_aces:
        parts.append(_("split aces may be hit"))
    if rules.early_blackjack_payout:
        parts.append(_("a blackjack against 2 to 9 is paid at once"))
    if rules.peek is Peek.NONE:
        parts.append(_("no hole card"))
    if not rules.insurance:
        parts.append(_("no insurance"))
    return " · ".join(parts)


@dataclass(frozen=True, slots=True)
class HandView:
    cards: list[CardView]
    display: str
    bet: str
    doubled: bool
    outcome: str | None
    outcome_label: str
    paid: str
    active: bool
    number: int
    # Made once here for the template (game/_hands.html): its class list, the stake ("100 ×2")
    # and the result ("Win · 200", the payout for the learner's own boxes only).
    classes: str = "hand"
    stake: str = ""
    result: str = ""


@dataclass(frozen=True, slots=True)
class BoxView:
    index: int
    number: int
    kind: str  # "you", "ai" or "empty"
    level: str = ""
    level_label: str = ""
    bet: int = 0
    hands: list[HandView] = field(default_factory=list)
    insurance: str = ""
    active: bool = False
    label: str = ""  # "Box 1", in the active language
    classes: str = ""  # "box box-you active"


class LogLine(NamedTuple):
    """A line of the round's news and its animation delay (a template unpacks the pair)."""

    text: str
    delay: int


@dataclass(frozen=True, slots=True)
class ReviewLine:
    """One of the learner's decisions in the round: the move, the best move, the EV lost."""

    box: int
    cards: list[CardView]
    up: CardView
    choice: Promise
    best: Promise
    correct: bool
    ev_lost: str
    # The move that was best had the balance covered it, said in a sentence ("" if none).
    unaffordable: str = ""


@dataclass(frozen=True, slots=True)
class RoundView:
    round_id: int
    seq: int
    playing: bool
    insurance: bool
    even_money: bool
    dealer_cards: list[CardView]
    dealer_hidden: int
    dealer_display: str
    boxes: list[BoxView]
    legal: frozenset[str]
    turn_box: int | None
    shoe_remaining: int
    log: list[LogLine]
    announcement: str
    reshuffled: bool
    net: Decimal
    net_text: str
    review: list[ReviewLine]
    hint: str = ""
    hint_move: str = ""


def _paid(amount: Money) -> str:
    return fmt(to_decimal(amount))


def _event_text(e: SeenEvent, *, hole_card: bool = True) -> str | None:
    """A log line for the event; ``hole_card``: the table's dealer takes a second card face
    down before the players act (at a no-hole-card table the second card comes after them)."""
    return _event_line(e, hole_card)


@per_language  # a round's log is re-read on every move: each line is worded once per language
def _event_line(e: SeenEvent, hole_card: bool) -> str | None:
    kind = e.kind
    box = (e.seat or 0) + 1
    card = str(CARD_NAMES[e.card]) if e.card is not None else ""
    if kind is EventKind.DEAL:
        return _("Box %(box)s: %(card)s") % {"box": box, "card": card}
    if kind is EventKind.DEALER_UP:
        return _("Dealer's up card: %(card)s") % {"card": card}
    if kind is EventKind.HOLE:
        # A no-hole-card dealer's second card comes after the players: nothing to say yet.
        return _("Dealer's second card, face down") if hole_card else None
    if kind is EventKind.MOVE and e.move is not None:
        return _("Box %(box)s: %(move)s") % {"box": box, "move": MOVE_NAMES[e.move.value]}
    if kind is EventKind.PEEK:
        return _("The dealer has blackjack") if e.blackjack else _("No dealer blackjack")
    if kind is EventKind.REVEAL:
        if not hole_card:
            return _("Dealer's second card: %(card)s") % {"card": card}
        return _("Dealer's hole card: %(card)s") % {"card": card}
    if kind is EventKind.DRAW:
        return _("Dealer draws: %(card)s") % {"card": card}
    if kind is EventKind.RESHUFFLE:
        return _("The shoe ran out: the discards are shuffled")
    if kind is EventKind.SETTLE and e.outcome is not None:
        return _("Box %(box)s: %(outcome)s, %(paid)s paid") % {
            "box": box,
            "outcome": OUTCOME_NAMES[e.outcome],
            "paid": _paid(e.paid),
        }
    if kind is EventKind.INSURANCE and e.outcome is not None:
        if e.outcome == "win":
            return _("Box %(box)s: insurance won, %(paid)s paid") % {
                "box": box,
                "paid": _paid(e.paid),
            }
        return _("Box %(box)s: insurance lost") % {"box": box}
    return None


def _dealer_blackjack(view: SeenRound) -> bool:
    """The dealer's cards, once shown in full, are a blackjack."""
    d = view.dealer
    return view.phase == "settled" and not d.hidden and len(d.cards) == 2 and d.total == 21


def _why_lost(e: SeenEvent, view: SeenRound, rules: Rules, told: set[int]) -> str | None:
    """Why a variant's dealer blackjack took more than the bet's owner may expect: a
    surrender against an unpeeked ten, doubles and splits at a table without a hole card.
    ``told``: the boxes already explained (a split box loses several hands at once)."""
    if e.kind is not EventKind.SETTLE or e.outcome != "lose" or e.seat is None:
        return None
    if e.seat in told or not _dealer_blackjack(view):
        return None
    box = view.box(e.seat)
    if box is None:
        return None
    surrendered = any(
        x.kind is EventKind.MOVE and x.move is Move.SURRENDER and x.seat == e.seat
        for x in view.events
    )
    number = e.seat + 1
    if surrendered:
        told.add(e.seat)
        return _(
            "Box %(box)s: at this table the dealer does not peek under a ten, so the surrender"
            " came too late and the dealer's blackjack takes the whole bet."
        ) % {"box": number}
    if rules.peek is Peek.NONE and (len(box.hands) > 1 or any(h.doubled for h in box.hands)):
        told.add(e.seat)
        return _(
            "Box %(box)s: with no hole card, the dealer's blackjack shows only after the"
            " players have acted, and it takes the doubled and split bets too."
        ) % {"box": number}
    return None


def _log_texts(view: SeenRound, rules: Rules, events: tuple[SeenEvent, ...]) -> list[list[str]]:
    """Each event's log lines (none, one, or one and its explanation)."""
    hole_card = rules.peek is not Peek.NONE
    told: set[int] = set()
    out = []
    for e in events:
        texts = []
        text = _event_text(e, hole_card=hole_card)
        if text:
            texts.append(text)
        why = _why_lost(e, view, rules, told)
        if why:
            texts.append(why)
        out.append(texts)
    return out


# Whose cards an event deals, for the animation delays: a box's hand, or the dealer.
_DelayKey = tuple[int, int] | None


@per_language
def _box_label(number: int) -> str:
    return _("Box %(n)s") % {"n": number}


def _hand_view(
    hd: SeenHand,
    kind: str,
    h: int,
    i: int,
    active: bool,
    finished: Callable[[int, int, str | None], bool],
    cards_with_delays: Callable[[tuple[str, ...], _DelayKey], list[CardView]],
) -> HandView:
    """A hand of box ``i`` as the table shows it."""
    outcome = hd.outcome
    classes = "hand active" if active else "hand"
    label = paid = result = ""
    if outcome:
        classes += f" outcome-{outcome}"
        label = str(OUTCOME_NAMES[outcome])
    if hd.paid is not None:
        paid = _paid(hd.paid)
    if outcome:
        result = f"{label} · {paid}" if kind == "you" else label
    bet = fmt(hd.bet)
    return HandView(
        cards=cards_with_delays(hd.cards, (i, h)),
        display=str(hd.total) if finished(i, h, outcome) else hd.display,
        bet=bet,
        doubled=hd.doubled,
        outcome=outcome,
        outcome_label=label,
        paid=paid,
        active=active,
        number=h + 1,
        classes=classes,
        stake=f"{bet} ×2" if hd.doubled else bet,
        result=result,
    )


def round_view(
    rnd: Round,
    *,
    balance: Decimal | None = None,
    hints: bool = False,
    state: RoundState | None = None,
) -> RoundView:
    """Everything the table shows of a round, from the player's view of it only.

    ``state``: the round's state when the caller has it parsed already (a move just made).
    """
    if state is None:
        state = state_from_json(rnd.state)
    view = seen_round(state, balance=None if balance is None else Fraction(balance))
    events = view.events
    new = events[rnd.shown_from :] if rnd.seq else events
    # The order in which this request's cards appear, for the animation delays.
    delays: dict[_DelayKey, list[int]] = {}
    log: list[LogLine] = []
    for i, (e, texts) in enumerate(zip(new, _log_texts(view, state.rules, new), strict=True)):
        if e.kind is EventKind.DEAL and e.seat is not None and e.hand is not None:
            delays.setdefault((e.seat, e.hand), []).append(i)
        elif e.kind in (EventKind.DEALER_UP, EventKind.DRAW, EventKind.REVEAL):
            delays.setdefault(None, []).append(i)
        log.extend(LogLine(text, min(i, MAX_DELAY)) for text in texts)

    def cards_with_delays(codes: tuple[str, ...], key: _DelayKey) -> list[CardView]:
        pending = delays.get(key, [])
        first_new = len(codes) - len(pending)
        return [
            card_view(c, new=True, delay=min(pending[i - first_new], MAX_DELAY))
            if i >= first_new
            else card_view(c)
            for i, c in enumerate(codes)
        ]

    turn = view.turn
    players = view.phase == "players"
    started = view.phase not in ("insurance", "players")  # the players are done

    def finished(i: int, h: int, outcome: str | None) -> bool:
        """A hand played out shows the total it ended on (18), not its soft reading."""
        return started or outcome is not None or (turn is not None and (i, h) < turn)

    human = set(rnd.human_seats)
    levels = {int(k): v for k, v in rnd.ai_levels.items()}
    boxes = []
    for i in range(BOXES):
        b = view.box(i)
        if b is None:
            label = _box_label(i + 1)
            boxes.append(
                BoxView(index=i, number=i + 1, kind="empty", label=label, classes="box box-empty")
            )
            continue
        kind = "you" if i in human else "ai"
        hands = [_hand_view(hd, kind, h, i, turn == (i, h) and players, finished, cards_with_delays)
                 for h, hd in enumerate(b.hands)]  # fmt: skip
        level = levels.get(i, "")
        active = turn is not None and turn[0] == i
        boxes.append(
            BoxView(
                index=i,
                number=i + 1,
                kind=kind,
                level=level,
                level_label=str(LEVEL_NAMES.get(level, "")),
                bet=b.bet,
                hands=hands,
                insurance=_paid(b.insurance) if b.insurance else "",
                active=active,
                label=_box_label(i + 1),
                classes=f"box box-{kind} active" if active else f"box box-{kind}",
            )
        )
    insurance = view.phase == "insurance"
    even_money = False
    if insurance and turn is not None:
        in_turn = view.box(turn[0])
        even_money = in_turn is not None and in_turn.hands[0].blackjack
    net = rnd.net
    if rnd.is_playing:
        net_text = ""
    elif net > 0:
        net_text = ngettext(
            "You won %(amount)s deben.",
            "You won %(amount)s debens.",
            plural_count(net),
        ) % {"amount": fmt(net)}
    elif net < 0:
        net_text = ngettext(
            "You lost %(amount)s deben.",
            "You lost %(amount)s debens.",
            plural_count(net),
        ) % {"amount": fmt(-net)}
    else:
        net_text = _("You broke even.")
    texts = [line.text for line in log]
    if net_text:
        texts.append(net_text)
    if rnd.reshuffled and rnd.seq == 0:
        texts.insert(0, _("A freshly shuffled shoe."))
    hint = hint_move = ""
    if hints and rnd.is_playing and turn is not None:
        move = ai.chart_move(state, view.legal)
        hint_move = move.value
        hint = _("The chart's move: %(move)s") % {"move": MOVE_NAMES[move.value]}
    return RoundView(
        round_id=rnd.pk,
        seq=rnd.seq,
        playing=rnd.is_playing,
        insurance=insurance,
        even_money=even_money,
        dealer_cards=cards_with_delays(view.dealer.cards, None),
        # A no-hole-card dealer has no card face down: the second comes after the players.
        dealer_hidden=view.dealer.hidden if state.rules.peek is not Peek.NONE else 0,
        dealer_display=str(view.dealer.total) if started else view.dealer.display,
        boxes=boxes,
        legal=frozenset(m.value for m in view.legal),
        turn_box=turn[0] + 1 if turn is not None else None,
        shoe_remaining=view.shoe_remaining,
        log=log,
        announcement=announcement(texts),
        reshuffled=rnd.reshuffled,
        net=net,
        net_text=net_text,
        review=review_lines(rnd) if not rnd.is_playing else [],
        hint=hint,
        hint_move=hint_move,
    )


def ev_lost_text(ev_lost: float, bet: Decimal, *, as_loss: bool = True) -> str:
    """What a decision cost, in percent of the bet and in debens: "−22.39% of the bet
    (−44.78 debens)" (a true minus sign; the percentage signed as in the drills, its sign
    placed as the language writes it: "−22,39 % sázky" in Czech).  A sentence that already
    says "cost" takes the figures without the sign (``as_loss=False``): "the cost of Double
    is 22.39% of the bet", not a cost of minus 22.39%.

    >>> from django.utils import translation
    >>> with translation.override("en"):
    ...     ev_lost_text(0.2239, Decimal(200)), ev_lost_text(0.2239, Decimal(200), as_loss=False)
    ('−22.39% of the bet (−44.78 debens)', '22.39% of the bet (44.78 debens)')
    """
    cost = (Decimal(str(round(ev_lost, 6))) * bet).quantize(Decimal("0.01"))
    if as_loss:
        figure, amount = signed(-100.0 * ev_lost), (f"−{fmt(cost)}" if cost else fmt(cost))
    else:
        figure, amount = str(floatformat(100.0 * ev_lost, 2)), fmt(cost)
    return ngettext(
        "%(percent)s of the bet (%(amount)s deben)",
        "%(percent)s of the bet (%(amount)s debens)",
        plural_count(cost),
    ) % {"percent": percent(figure), "amount": amount}


def _is_blackjack(codes: list[str]) -> bool:
    return len(codes) == 2 and {Card.parse(c).points for c in codes} == {1, 10}


def unaffordable_text(move: str, gain: float) -> str:
    """Why the review's best move is not the chart's: the balance ruled the better one out.

    >>> from django.utils import translation
    >>> with translation.override("en"):
    ...     unaffordable_text("split", 0.0412)
    'Split was better by 4.12% of the bet, but your balance could not cover it.'
    """
    return _(
        "%(move)s was better by %(percent)s of the bet, but your balance could not cover it."
    ) % {"move": MOVE_NAMES[move], "percent": percent(signed(100.0 * gain).lstrip("+"))}


def review_lines(rnd: Round) -> list[ReviewLine]:
    """The learner's decisions in this round: the move, the best move, and the EV lost.

    An insurance decision on a blackjack is named as the even-money offer it was."""
    bets = {b["seat"]: Decimal(b["bet"]) for b in rnd.state["boxes"]}
    lines = []
    for line in rnd.review:
        names = MOVE_NAMES
        if line["choice"] in EVEN_MONEY_NAMES and _is_blackjack(line["cards"]):
            names = {**MOVE_NAMES, **EVEN_MONEY_NAMES}
        unaffordable = line.get("unaffordable")
        lines.append(
            ReviewLine(
                box=line["seat"] + 1,
                cards=[card_view(c) for c in line["cards"]],
                up=card_view(line["up"]),
                choice=names[line["choice"]],
                best=names[line["best"]],
                correct=line["correct"],
                ev_lost=ev_lost_text(line["ev_lost"], bets[line["seat"]]),
                unaffordable=unaffordable_text(unaffordable, line["unaffordable_gain"])
                if unaffordable
                else "",
            )
        )
    return lines


@dataclass(frozen=True, slots=True)
class CoachOption:
    move: str
    name: str
    ev: str  # signed, in percent of the bet: "+4.12%"
    best: bool
    chosen: bool


@dataclass(frozen=True, slots=True)
class CoachWarning:
    """Coach mode's stop before a costly move: every option's EV, the move and the best."""

    move: str
    move_name: str
    best: str
    best_name: str
    cost: str
    options: list[CoachOption]
    # Count practice: "At true count +3, the index play is Stand (the chart's move: Hit)."
    index: str = ""
    indices_missing: bool = False  # the index table is not stored: the chart's EVs judge


def coach_warning(
    rnd: Round, *, move: str, balance: Decimal, state: RoundState | None = None
) -> CoachWarning | None:
    """The warning coach mode shows before ``move`` when it costs EV, else ``None`` (a legal,
    best or equal move, or one the engine has no EV for).  Reads only: nothing is played.
    ``state``: the round's, when the caller has it parsed already."""
    if not rnd.is_playing:
        return None
    if state is None:
        state = state_from_json(rnd.state)
    offered = legal_moves(state, balance=Fraction(balance))
    try:
        chosen = Move(move)
    except ValueError:
        return None
    if state.turn is None:
        return None
    index, missing = "", False
    if rnd.seat.count_mode:  # the coach knows the index plays
        count = state_count(seat_system(rnd.seat), state)
        advice = index_advice(state, system=count.system, true=count.true, offered=offered)
        missing = advice.missing
        if advice.play is not None and advice.ev is not None and chosen in advice.ev:
            if chosen is advice.play.move:
                return None
            index = _(
                "At true count %(count)s, the index play is %(move)s (the chart's move: %(basic)s)."
            ) % {
                "count": count_text(count.true),
                "move": MOVE_NAMES[advice.play.move.value],
                "basic": MOVE_NAMES[advice.play.basic.value],
            }
            return _warning(state, chosen, advice.play.move, advice.ev, index=index)
    ev = ai.decision_ev(state, offered)
    if ev is None or chosen not in ev:
        return None
    if is_best_choice(ev, chosen):
        return None
    best = best_by_ev(ev)
    assert best is not None  # ev holds the chosen move
    return _warning(state, chosen, best, ev, indices_missing=missing)


def _warning(
    state: RoundState,
    chosen: Move,
    best: Move,
    ev: Mapping[Move, float],
    *,
    index: str = "",
    indices_missing: bool = False,
) -> CoachWarning:
    assert state.turn is not None  # a hand is in turn
    box = state.box(state.turn[0])
    names = MOVE_NAMES
    if state.phase is Phase.INSURANCE and _is_blackjack([c.code for c in box.hands[0].cards]):
        names = {**MOVE_NAMES, **EVEN_MONEY_NAMES}
    bet = Decimal(box.bet)
    return CoachWarning(
        move=chosen.value,
        move_name=str(names[chosen.value]),
        best=best.value,
        best_name=str(names[best.value]),
        cost=ev_lost_text(ev[best] - ev[chosen], bet, as_loss=False),
        options=[
            CoachOption(
                move=m.value,
                name=str(names[m.value]),
                ev=percent(signed(100.0 * v)),
                best=m is best,
                chosen=m is chosen,
            )
            for m, v in sorted(ev.items(), key=lambda kv: -kv[1])
        ],
        index=index,
        indices_missing=indices_missing,
    )


@dataclass(frozen=True, slots=True)
class ChipView:
    value: int
    face: str  # what the chip shows: 500, 1K
    label: str  # the full amount, for screen readers
    tier: int  # its colour, by rank among the table's chips
    over: bool = False  # worth more than the balance: shown greyed out


@dataclass(frozen=True, slots=True)
class BetBox:
    """A box of the betting form, with what was entered in it (or the seat's AI level)."""

    index: int
    number: int
    bet: str
    ai_level: str


@dataclass(frozen=True, slots=True)
class MoveForm:
    """The fieldset of the hand in turn: the box, what it is asked, which moves are legal."""

    box: int | None
    question: str  # "", "insurance" or "even_money"
    offer: str  # what the insurance costs, or the even money pays, at once
    legal: tuple[str, ...]  # sorted
    surrender: bool  # the table offers surrender: its button is shown

    @property
    def key(self) -> str:
        """Everything the fieldset shows (the template keeps each fieldset per key and language)."""
        return f"{self.box}|{self.question}|{self.offer}|{' '.join(self.legal)}|{self.surrender}"


def move_form(view: RoundView | None, rules: Rules) -> MoveForm | None:
    """The moves of a round in play (``None`` between rounds)."""
    if view is None or not view.playing:
        return None
    question = ("even_money" if view.even_money else "insurance") if view.insurance else ""
    return MoveForm(
        box=view.turn_box,
        question=question,
        offer=offer_amount(view),
        legal=tuple(sorted(view.legal)),
        surrender=rules.surrender is not Surrender.NONE,
    )


@dataclass(frozen=True, slots=True)
class BetForm:
    """The betting form's chip rack and five boxes, with what was entered or chosen."""

    chips: tuple[ChipView, ...]
    chip_selected: int | None
    boxes: tuple[BetBox, ...]
    levels: tuple[tuple[str, str], ...]  # the AI seat-mates' levels: code, name
    max_bet: int
    step: int

    @property
    def key(self) -> str:
        """Everything the form shows (the template keeps each form per key and language)."""
        return repr(self)


COUNT_SYSTEMS: tuple[tuple[str, str], ...] = tuple((s.key, s.name) for s in SYSTEMS.values())


def table_context(
    *,
    user: User | Any,
    table: Table,
    seat: Seat | None = None,
    rnd: Round | None = None,
    balance: Decimal | None = None,
    state: RoundState | None = None,
    entered: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """What the table page and its partial need.  A caller that has just written the seat,
    its current round (``state`` parsed) and the balance passes them: nothing is read twice.
    ``entered``: a refused deal's form, whose bets, seat-mates and chip the betting form shows
    again."""
    if seat is None:
        seat = table_seat(user=user, table=table)
    if rnd is None:
        rnd, state = current_round(seat=seat), None
    if balance is None:
        balance = wallet_balance(user=user)
    rules = rules_of(seat)
    chips = list(table.chips)
    boxes = []
    for i in range(BOXES):
        if entered is None:
            bet, level = "", seat.ai_levels.get(str(i), "")
        else:
            bet = entered.get(f"bet_{i}", "").strip()
            bet = bet if bet.isdigit() and len(bet) <= 12 else ""  # shown back: numbers only
            level = entered.get(f"ai_{i}", "")
        boxes.append(BetBox(index=i, number=i + 1, bet=bet, ai_level=level))
    view = None
    if rnd is not None:
        view = round_view(rnd, balance=balance, hints=seat.hints, state=state)
    shoe_left = view.shoe_remaining if view is not None else _seat_shoe_left(seat, rules)
    chip_views = tuple(
        ChipView(value=c, face=chip_face(c), label=fmt(c), tier=i, over=c > balance)
        for i, c in enumerate(chips)
    )
    betting = BetForm(
        chips=chip_views,
        chip_selected=chip_to_select(
            chips=chips, balance=balance, wanted=entered.get("chip", "") if entered else ""
        ),
        boxes=tuple(boxes),
        levels=tuple((k, str(v)) for k, v in LEVEL_NAMES.items()),
        max_bet=table.max_bet,
        step=min(chips),
    )
    return {
        "table": table,
        "table_name": table_name(table),
        "seat": seat,
        "rules_line": rules_line(rules),
        "balance": balance,
        "balance_text": fmt(balance),
        "top_up_due": top_up_due_for(user=user, balance=balance),
        "top_up_minimum": fmt(top_up_threshold()),
        "round": rnd,
        "view": view,
        "betting": betting,
        "moves": move_form(view, rules),
        "shoe_left": shoe_left,
        "min_bet": fmt(table.min_bet),
        "max_bet": fmt(table.max_bet),
        "box_counts": or_list(table.box_counts) if table.box_counts else "",
        "has_last_bets": bool(seat.last_bets),
        "count_systems": COUNT_SYSTEMS,
        # Count practice: nothing is read or made for it while it is off.
        "count_panel": count_panel(seat=seat, table=table, rules=rules, rnd=rnd)
        if seat.count_mode
        else None,
    }


def _seat_shoe_left(seat: Seat, rules: Rules) -> int:
    if seat.shoe:
        return len(seat.shoe["cards"]) - int(seat.shoe["position"])
    return rules.decks * 52


def staked_text(rnd: Round) -> str:
    """What the learner has staked: the settled figure, or while the round is in play what
    lies on the table now (bets, doubles, splits, insurance)."""
    if not rnd.is_playing:
        return fmt(rnd.staked)
    state = state_from_json(rnd.state)
    human = set(rnd.human_seats)
    return _paid(sum((b.staked for b in state.boxes if b.seat in human), start=0))


def full_log(rnd: Round) -> list[str]:
    """Every event of the round that a player may see, in order (history page)."""
    state = state_from_json(rnd.state)
    view = seen_round(state)
    return [t for texts in _log_texts(view, state.rules, view.events) for t in texts]
