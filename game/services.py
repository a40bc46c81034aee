"""Writes of play mode: wallets, top-ups, seats, dealing a round and applying a move.

Every function here is one database transaction.  Rows are locked in one order, round, then
seat, then wallet, so two requests never wait on each other in a circle:

* a deal locks the seat (no second round can start on it) and the wallet (one query);
* a move locks the round, its seat and the wallet (one query);
* the account deletion locks the rounds, then the seats, then the wallet.

What a deal or a move then writes goes to the database together (:class:`core.writes.Writes`).

A move request carries the round's ``seq``; a request made on an older ``seq`` is not
applied again (:class:`MoveResult` says ``stale``), which makes a double click or a second tab
harmless.  The round row is saved with ``WHERE seq = <old seq>`` as well, so even a database
without row locks (SQLite) never applies one move twice.

The engine's amounts are exact ``int``/``Fraction`` values; :func:`game.codec.to_decimal`
turns them into the wallet's two-place ``Decimal`` and refuses anything that would need
rounding.  The round and the shoe are stored through :mod:`game.codec`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from random import Random
from typing import Any, Final

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from accounts.models import User
from blackjack import (
    EventKind,
    IllegalMove,
    Money,
    Move,
    Phase,
    RoundState,
    Shoe,
    apply,
    is_best_choice,
    legal_moves,
    prepare_shoe,
    start_round,
    to_json,
)
from blackjack import refusal as engine_refusal
from blackjack.counting import SYSTEMS
from computed.services import chart_job_ensure
from core.display import fmt, or_list
from core.rows import delete_rows, insert_row
from core.writes import Writes
from decisions.models import Decision
from decisions.services import decision_record
from game import ai, locked, selectors
from game.codec import shoe_from_json, shoe_to_json, state_from_json, to_decimal
from game.counting import SeenCount, state_count
from game.indexplay import index_advice
from game.limits import BOXES, rules_of, table_rules, top_up_threshold
from game.models import OPENING_BALANCE, TOP_UP_AMOUNT, LedgerEntry, Round, Seat, Table, Wallet
from game.selectors import seat_system

# Messages shown to the learner; the tests reuse these constants.
NO_BET = _("Place a bet on at least one box.")
BET_OUT_OF_LIMITS = _("Each bet must lie within the table's limits.")
BET_NOT_IN_CHIPS = _("A bet must be made of the table's chips.")
BET_OVER_BALANCE = _("Your balance cannot cover these bets.")
BETS_OVER_BALANCE = _(
    "Your balance cannot cover these bets: they come to %(total)s, and your balance is %(balance)s."
)
BOX_COUNT_REFUSED = _("At this table you may bet on this many boxes at a time: %(counts)s.")
UNKNOWN_BOX = _("There is no such box.")
UNKNOWN_LEVEL = _("There is no such AI level.")
ROUND_IN_PLAY = _("Finish the round in play first.")
TOP_UP_NOT_DUE = _(
    "A top-up is given only when your balance is below the smallest bet at the Scribes' table"
    " (%(minimum)s)."
)
# A move sent from a page the round has left behind: a second click, or another tab or window
# that played on.  Nothing was done twice; say so without guessing which it was.
STALE_MOVE = _(
    "The round had already moved on (a second click, or another tab); nothing was played "
    "twice. Here is the table as it stands."
)
ENGINE_MESSAGES: Final[dict[str, StrOrPromise]] = {
    "round_over": _("The round is over."),
    "not_your_turn": _("It is another box's turn."),
    "insurance_pending": _("First answer the insurance offer: yes or no."),
    "no_insurance_now": _("Insurance is not on offer now."),
    "unknown_move": _("There is no such move."),
    "insufficient_balance": _("Your balance cannot cover this move."),
    "hit_not_allowed": _("Split aces receive one card each and nothing more."),
    "double_not_allowed": _("You may not double this hand."),
    "split_not_allowed": _("You may not split this hand."),
    "surrender_not_allowed": _("You may not surrender this hand."),
}

_STAKE_KINDS: Final = {
    Move.DOUBLE: LedgerEntry.Kind.DOUBLE,
    Move.SPLIT: LedgerEntry.Kind.SPLIT,
    Move.INSURE: LedgerEntry.Kind.INSURANCE,
}


class PlayError(Exception):
    """A request the rules or the wallet refuse; ``message`` is shown to the learner."""

    def __init__(self, message: StrOrPromise, code: str = "refused") -> None:
        super().__init__(str(message))
        self.message = message
        self.code = code


@dataclass(frozen=True)
class MoveResult:
    """The round after a deal or a move request; ``stale``: the request's seq was not current,
    so nothing was applied (a repeated click, another tab); ``held``: coach mode held a costly
    move back, and nothing was written.

    ``state`` (the round's state, already parsed) and ``balance`` (the wallet's, after the
    request) let the response be rendered without reading the round, its seat or the wallet
    again; after a move ``round.seat.table`` is loaded too.
    """

    round: Round
    stale: bool = False
    state: RoundState | None = None
    balance: Decimal | None = None
    held: bool = False


# --- the wallet --------------------------------------------------------------------------


def _entry(wallet: Wallet, kind: str, amount: Decimal, rnd: Round | None = None) -> LedgerEntry:
    """Change the (locked) wallet by ``amount`` and write its ledger entry."""
    wallet.balance += amount
    if wallet.balance < 0:
        raise PlayError(BET_OVER_BALANCE, "insufficient_balance")
    return LedgerEntry(
        wallet=wallet, kind=kind, amount=amount, balance_after=wallet.balance, round=rnd
    )


def wallet_get_or_create(*, user: User) -> Wallet:
    """The user's wallet; a new one opens with 1,000 debens and its ledger entry."""
    try:
        return Wallet.objects.get(user=user)
    except Wallet.DoesNotExist:
        pass
    try:
        with transaction.atomic():
            wallet = Wallet.objects.create(user=user, balance=Decimal("0.00"))
            entry = _entry(wallet, LedgerEntry.Kind.OPENING, OPENING_BALANCE)
            entry.save()
            wallet.save(update_fields=["balance"])
            return wallet
    except IntegrityError:  # another request opened it first
        return Wallet.objects.get(user=user)


def _wallet_locked(user: User) -> Wallet:
    wallet = locked.wallet_for_update(user_id=user.pk)
    if wallet is None:
        wallet_get_or_create(user=user)
        wallet = locked.wallet_for_update(user_id=user.pk)
        assert wallet is not None  # just opened, and a wallet is never deleted but with its user
    return wallet


def wallet_top_up(*, user: User) -> Wallet:
    """Add the free 1,000 when the balance, with the chips still in open rounds, is below the
    Scribes' minimum (``top_up_due``)."""
    with transaction.atomic():
        # The wallet row is locked, and every deal and move locks it too, so no chips move
        # between the open rounds and the balance while the same judge as the pages' reads them.
        wallet = _wallet_locked(user)
        if not selectors.top_up_due_for(user=user, balance=wallet.balance):
            minimum = number_format(top_up_threshold(), force_grouping=True)
            raise PlayError(TOP_UP_NOT_DUE % {"minimum": minimum}, "top_up_not_due")
        _entry(wallet, LedgerEntry.Kind.TOP_UP, TOP_UP_AMOUNT).save()
        wallet.save(update_fields=["balance"])
        return wallet


# --- seats -------------------------------------------------------------------------------


def table_prepare(table: Table) -> None:
    """Start computing a variant's chart and two-card analyses in the background the first
    time its table is shown, so that its first round need not wait for them (the house
    rules' are stored by the bootstrap)."""
    if table.kind == Table.Kind.VARIANT:
        chart_job_ensure(table_rules(table))


def seat_get_or_create(*, user: User, table: Table, lock: bool = False) -> Seat:
    """The user's seat at ``table`` (made on first need with the table's rules)."""
    qs = Seat.objects.select_for_update() if lock else Seat.objects
    try:
        return qs.get(user=user, table=table)
    except Seat.DoesNotExist:
        pass
    try:
        with transaction.atomic():
            Seat.objects.create(user=user, table=table, rules=table_rules(table).to_dict())
    except IntegrityError:
        pass
    return qs.get(user=user, table=table)


def seat_set_hints(*, user: User, table: Table, on: bool) -> Seat:
    with transaction.atomic():
        seat = seat_get_or_create(user=user, table=table, lock=True)
        seat.hints = on
        seat.save(update_fields=["hints"])
        return seat


def seat_set_coach(*, user: User, table: Table, on: bool) -> Seat:
    with transaction.atomic():
        seat = seat_get_or_create(user=user, table=table, lock=True)
        seat.coach = on
        seat.save(update_fields=["coach"])
        return seat


UNKNOWN_SYSTEM = _("There is no such count system.")


def seat_set_count(*, user: User, table: Table, on: bool, system: str | None = None) -> Seat:
    """Count practice on or off, and the count system (a key of ``SYSTEMS``; ``None``: keep
    the seat's).  An unknown system is refused before anything is written."""
    if system is not None and system not in SYSTEMS:
        raise PlayError(UNKNOWN_SYSTEM, "unknown_system")
    with transaction.atomic():
        seat = seat_get_or_create(user=user, table=table, lock=True)
        seat.count_mode = on
        if system is not None:
            seat.count_system = system
        seat.save(update_fields=["count_mode", "count_system"])
        return seat


def _shoe_from_seat(seat: Seat) -> Shoe | None:
    return shoe_from_json(seat.shoe) if seat.shoe else None


# --- the round ---------------------------------------------------------------------------


def _check_bets(table: Table, bets: Mapping[int, int], balance: Decimal) -> None:
    if not bets:
        raise PlayError(NO_BET, "no_bet")
    smallest_chip = min(table.chips)
    for box, bet in bets.items():
        if not 0 <= box < BOXES:
            raise PlayError(UNKNOWN_BOX, "unknown_box")
        if not table.min_bet <= bet <= table.max_bet:
            raise PlayError(BET_OUT_OF_LIMITS, "bet_out_of_limits")
        if bet % smallest_chip:
            raise PlayError(BET_NOT_IN_CHIPS, "bet_not_in_chips")
    if table.box_counts and len(bets) not in table.box_counts:
        counts = or_list(table.box_counts)
        raise PlayError(BOX_COUNT_REFUSED % {"counts": counts}, "box_count")
    total = sum(bets.values())
    if total > balance:
        figures = {"total": fmt(total), "balance": fmt(balance)}
        raise PlayError(BETS_OVER_BALANCE % figures, "insufficient_balance")


def _clean_ai_levels(ai_levels: Mapping[int, str], bets: Mapping[int, int]) -> dict[int, str]:
    out = {}
    for box, level in ai_levels.items():
        if not 0 <= box < BOXES:
            raise PlayError(UNKNOWN_BOX, "unknown_box")
        if level not in ai.LEVELS:
            raise PlayError(UNKNOWN_LEVEL, "unknown_level")
        if box not in bets:
            out[box] = level
    return out


def _ai_turns(state: RoundState, human: frozenset[int], levels: Mapping[int, str]) -> RoundState:
    """Let the AI boxes play until a human box is in turn or the round is over."""
    while state.turn is not None and state.turn[0] not in human:
        state = apply(state, ai.ai_move(state, levels.get(state.turn[0], "normal")))
    return state


def _human_money(state: RoundState, human: frozenset[int]) -> tuple[Money, Money]:
    staked: Money = 0
    paid: Money = 0
    for b in state.boxes:
        if b.seat in human:
            staked += b.staked
            paid += b.paid
    return staked, paid


def _settle(rnd: Round, seat: Seat, wallet: Wallet, state: RoundState) -> list[LedgerEntry]:
    """The round is over: pay the learner's boxes as one sum and give the shoe back (the
    caller writes the seat's ``shoe``, with whatever else of the seat it writes)."""
    human = frozenset(rnd.human_seats)
    staked, paid = _human_money(state, human)
    rnd.status = Round.Status.SETTLED
    rnd.finished_at = timezone.now()
    rnd.staked = to_decimal(staked)
    rnd.paid = to_decimal(paid)
    rnd.net = rnd.paid - rnd.staked
    seat.shoe = shoe_to_json(state.shoe)
    if rnd.paid:
        return [_entry(wallet, LedgerEntry.Kind.PAYOUT, rnd.paid, rnd)]
    return []


def round_deal(
    *,
    user: User,
    table: Table,
    bets: Mapping[int, int],
    ai_levels: Mapping[int, str] | None = None,
    rng: Random | None = None,
) -> Round:
    """Take the bets (box → chips) from the wallet and deal a round at the user's seat.

    ``ai_levels`` seats AI players (box → "easy" | "normal" | "hard") on boxes the user does
    not bet on; they bet the table's minimum, from their own purse, never the user's.
    """
    return round_deal_result(user=user, table=table, bets=bets, ai_levels=ai_levels, rng=rng).round


def round_deal_result(
    *,
    user: User,
    table: Table,
    bets: Mapping[int, int],
    ai_levels: Mapping[int, str] | None = None,
    rng: Random | None = None,
) -> MoveResult:
    """:func:`round_deal` with what the table shows next: the round with its (locked, now
    written) seat, its state and the balance, so that the response reads none of them again."""
    levels = _clean_ai_levels(ai_levels or {}, bets)
    try:
        return _deal(user=user, table=table, bets=bets, levels=levels, rng=rng)
    except IntegrityError:
        # Two deals at one seat at once: the second read "no round in play" before the first
        # committed (game.locked.seat_for_deal), and the seat's one round in play stopped it.
        if Round.objects.filter(
            seat__user=user, seat__table=table, status=Round.Status.PLAYING
        ).exists():
            raise PlayError(ROUND_IN_PLAY, "round_in_play") from None
        raise


def _seat_and_wallet(user: User, table: Table) -> locked.DealRows:
    """The seat and the wallet, locked (made on the user's first deal there), whether a
    round is in play at the seat, and the new round's id if it is known beforehand."""
    found = locked.seat_for_deal(user_id=user.pk, table=table)
    if found is not None:
        return found
    seat = seat_get_or_create(user=user, table=table, lock=True)
    in_play = Round.objects.filter(seat=seat, status=Round.Status.PLAYING).exists()
    return locked.DealRows(seat, _wallet_locked(user), in_play, round_id=None)


def _deal(
    *,
    user: User,
    table: Table,
    bets: Mapping[int, int],
    levels: dict[int, str],
    rng: Random | None,
) -> MoveResult:
    with transaction.atomic():
        rows = _seat_and_wallet(user, table)
        seat, wallet = rows.seat, rows.wallet
        if rows.in_play:
            raise PlayError(ROUND_IN_PLAY, "round_in_play")
        _check_bets(table, bets, wallet.balance)
        rules = rules_of(seat)
        shoe, reshuffled = prepare_shoe(_shoe_from_seat(seat), rules, rng)
        all_bets = {**{box: table.min_bet for box in levels}, **bets}
        state = start_round(rules=rules, bets=all_bets, shoe=shoe)
        human = frozenset(bets)
        state = _ai_turns(state, human, levels)
        rnd = Round(
            seat=seat,
            user=user,
            human_seats=sorted(human),
            ai_levels={str(k): v for k, v in levels.items()},
            reshuffled=reshuffled,
        )
        writes = Writes()
        entries = [_entry(wallet, LedgerEntry.Kind.BET, -to_decimal(sum(bets.values())))]
        changed = []  # the seat's row is written only if the deal changed it
        last_bets = {str(k): v for k, v in bets.items()}
        ai_seated = {str(k): v for k, v in levels.items()}
        if seat.last_bets != last_bets:
            seat.last_bets = last_bets
            changed.append("last_bets")
        if seat.ai_levels != ai_seated:
            seat.ai_levels = ai_seated
            changed.append("ai_levels")
        if reshuffled:
            seat.shoe = shoe_to_json(shoe)
        if state.phase is Phase.SETTLED:
            entries += _settle(rnd, seat, wallet, state)
        if reshuffled or state.phase is Phase.SETTLED:
            changed.append("shoe")
        if changed:  # one UPDATE of the row: two would be one too many for core.writes
            writes.update(seat, changed)
        rnd.state = to_json(state)
        if rows.round_id is not None:  # its id known: written with the rest
            rnd.pk = rows.round_id
            writes.insert(rnd)
        else:
            insert_row(rnd)  # its id read back first: the ledger's entries point at it
        for e in entries:
            e.round = rnd
        writes.insert(*entries)
        writes.update(wallet, ("balance",))
        writes.send()
        return MoveResult(rnd, state=state, balance=wallet.balance)


def _record_decision(
    *,
    user: User,
    rnd: Round,
    state: RoundState,
    move: Move,
    offered: frozenset[Move],
    writes: Writes,
    count: SeenCount | None = None,
) -> dict[str, Any] | None:
    """Store the learner's decision (added to ``writes``) like a trainer answer, with the EV
    of every option it had, and return the line of the round's review."""
    assert state.turn is not None
    seat, h = state.turn
    hand = state.box(seat).hands[0 if state.phase is Phase.INSURANCE else h]
    # The best move had the balance covered every option: the review says when the
    # balance ruled it out (Split at 3,3 with too little in the wallet).  When it covers
    # every one (most moves), both are one EV lookup, which off the stored tables is a search.
    every_move = legal_moves(state, balance=None)
    every = ai.decision_ev(state, every_move)
    ev = every if offered == every_move else ai.decision_ev(state, offered)
    if ev is None or move not in ev:
        return None
    if count is not None:
        # Where an index play applies at the count, the move is judged as the coach judges
        # it: by the EVs at that true count, not the full shoe's (which would call the index
        # play a mistake).
        advice = index_advice(state, system=count.system, true=count.true, offered=offered)
        if advice.ev is not None and move in advice.ev:
            ev = dict(advice.ev)
    chart = ai.chart_move(state, offered)
    unaffordable, gain = None, 0.0
    if every is not None:
        best_of_all = max(every, key=lambda m: every[m])
        if best_of_all not in offered and every[best_of_all] > max(ev.values()):
            unaffordable, gain = best_of_all, every[best_of_all] - max(ev.values())
    up = state.up_card
    d: Decision = decision_record(
        user=user,
        source=Decision.Source.TABLE,
        rules=state.rules,
        hand=hand.cards,
        up=up,
        choice=move,
        ev=ev,
        chart_move=chart,
        source_ref=f"round:{rnd.pk}",
        writes=writes,
        # Made with count practice on: the count of the cards seen when the move was made.
        count_system=count.system.key if count is not None else "",
        running_count=count.running if count is not None else None,
        true_count=count.true if count is not None else None,
        cards_left=count.cards_left if count is not None else None,
    )
    return {
        "seat": seat,
        "hand": h,
        "cards": [c.code for c in hand.cards],
        "up": up.code,
        "choice": move.value,
        "best": d.best,
        "chart": chart.value,
        "ev": {m.value: v for m, v in ev.items()},
        "ev_lost": d.ev_lost,
        "correct": d.correct,
        **(
            {
                "unaffordable": unaffordable.value,
                "unaffordable_gain": gain,
            }
            if unaffordable is not None
            else {}
        ),
    }


def _held(state: RoundState, move: Move, offered: frozenset[Move], count: SeenCount | None) -> bool:
    """Coach mode holds the move back: with count practice, against the index play where one
    applies at the count; otherwise (or without the index table) when it costs EV."""
    if count is not None:
        advice = index_advice(state, system=count.system, true=count.true, offered=offered)
        if advice.move is not None:
            return move is not advice.move
    return _costly(state, move, offered)


def _costly(state: RoundState, move: Move, offered: frozenset[Move]) -> bool:
    """The move gives up EV against the best option (coach mode holds it back); a hand the
    engine has no EV for is never held."""
    ev = ai.decision_ev(state, offered)
    return ev is not None and move in ev and not is_best_choice(ev, move)


# What a move changes of its round (its UPDATE written out once: core.rows.update_statement).
_MOVE_WRITES = ("seq", "state", "shown_from", "review", "status", "staked", "paid", "net",
                "finished_at")  # fmt: skip


def round_apply_move(
    *, round_id: int, user: User, move: str, seq: int, confirmed: bool = True
) -> MoveResult:
    """Apply the learner's ``move`` to the hand in turn, made on the round as it was at
    ``seq``; then let the AI boxes play, and settle when the round is over.

    In coach mode a legal move that costs EV is applied only ``confirmed``; otherwise
    nothing is written and the result is ``held``.  Read under the round's locks, so the
    stale, refused and held answers are each checked once, in that order.

    Raises ``Round.DoesNotExist`` for another user's round and :class:`PlayError` for a move
    the rules or the wallet refuse.
    """
    with transaction.atomic():
        rnd, wallet = locked.round_for_move(round_id=round_id, user_id=user.pk)
        if rnd.seq != seq or not rnd.is_playing:
            return MoveResult(rnd, stale=True)
        state = state_from_json(rnd.state)
        human = frozenset(rnd.human_seats)
        balance = Fraction(wallet.balance)
        why = engine_refusal(state, move, balance=balance)
        if why is not None:
            raise PlayError(ENGINE_MESSAGES.get(why[0], why[1]), why[0])
        assert state.turn is not None and state.turn[0] in human
        chosen = Move(move)
        offered = legal_moves(state, balance=balance)
        # Count practice costs nothing when it is off: the count is worked out only when on.
        count = state_count(seat_system(rnd.seat), state) if rnd.seat.count_mode else None
        if not confirmed and rnd.seat.coach and _held(state, chosen, offered, count):
            return MoveResult(rnd, state=state, balance=wallet.balance, held=True)
        writes = Writes()
        line = _record_decision(
            user=user, rnd=rnd, state=state, move=chosen, offered=offered, writes=writes,
            count=count,
        )  # fmt: skip
        try:
            after = apply(state, chosen, balance=balance)
        except IllegalMove as exc:  # pragma: no cover - refusal() said it was legal
            raise PlayError(ENGINE_MESSAGES.get(exc.code, exc.message), exc.code) from exc
        entries: list[LedgerEntry] = []
        for e in after.events[len(state.events) :]:
            if e.kind is EventKind.MOVE and e.staked and e.seat in human and e.move:
                entries.append(_entry(wallet, _STAKE_KINDS[e.move], -to_decimal(e.staked), rnd))
        after = _ai_turns(after, human, {int(k): v for k, v in rnd.ai_levels.items()})
        if after.phase is Phase.SETTLED:
            entries += _settle(rnd, rnd.seat, wallet, after)
            writes.update(rnd.seat, ("shoe",))
        if entries:
            writes.insert(*entries)
            writes.update(wallet, ("balance",))
        if line is not None:
            rnd.review = [*rnd.review, line]
        rnd.state = to_json(after)
        rnd.shown_from = len(state.events)
        rnd.seq = seq + 1
        # Written only if still at ``seq``: without row locks (SQLite), a race's loser is stale.
        # Last, so that what the writes' send counts is the round's row.
        writes.update(rnd, _MOVE_WRITES, seq=seq)
        if writes.send() != 1:  # pragma: no cover - a race
            transaction.set_rollback(True)
            fresh = Round.objects.select_related("seat__table").get(pk=rnd.pk)
            return MoveResult(fresh, stale=True)
        return MoveResult(rnd, state=after, balance=wallet.balance)


# --- the user's own data: deletion (privacy) ---------------------------------------------


def player_data_delete(*, user: User) -> dict[str, int]:
    """Delete the user's play-mode rows: the ledger, the rounds (a round in play too), the
    seats and the wallet.  Runs inside the account deletion's transaction.

    The ledger goes first (its entries protect their rounds), then what pointed at nothing
    but the rows already gone, each kind in one statement (:func:`core.rows.delete_rows`), so
    a long history costs the same few queries as a short one.  Returns how many rows of each
    kind went.
    """
    with transaction.atomic():
        # Locked in the order a move locks them (its round, with the round's seat, then the
        # wallet) and a deal (the seat, then the wallet): rounds, seats, wallet.  A move that
        # has its round finishes first; one that has not waits for the round holding nothing
        # else; a deal that has its seat finishes first.  (Seats before rounds deadlocked
        # against a move holding its round: tests/privacy/test_concurrency.py.)
        list(
            Round.objects.select_for_update()
            .filter(user=user)
            .order_by("id")
            .values_list("pk", flat=True)
        )
        list(Seat.objects.select_for_update().filter(user=user).values_list("pk", flat=True))
        wallet_ids = list(
            Wallet.objects.select_for_update().filter(user=user).values_list("pk", flat=True)
        )
        ledger = delete_rows(LedgerEntry, wallet_id__in=wallet_ids)
        rounds = delete_rows(Round, user_id=user.pk)
        seats = delete_rows(Seat, user_id=user.pk)
        wallets = delete_rows(Wallet, user_id=user.pk)
    return {"ledger": ledger, "rounds": rounds, "seats": seats, "wallets": wallets}
