"""Reads of play mode: wallets, tables, seats and rounds.  What the pages make of them is
:mod:`game.presenters`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.db.models import Sum

from accounts.models import User
from blackjack import player_view
from game.codec import state_from_json
from game.limits import table_rules, top_up_due
from game.models import OPENING_BALANCE, LedgerEntry, Round, Seat, Table, Wallet


def wallet_balance(*, user: User | Any) -> Decimal:
    """The balance, or the opening balance a visitor will start with."""
    if not user.is_authenticated:
        return OPENING_BALANCE
    balance = Wallet.objects.filter(user=user).values_list("balance", flat=True).first()
    return OPENING_BALANCE if balance is None else balance


def chips_at_stake(*, user: User | Any) -> Decimal:
    """The chips the learner has in open rounds, at any table: their entries' net, negative
    while at stake (a visitor has none)."""
    if not user.is_authenticated:
        return Decimal(0)
    net = LedgerEntry.objects.filter(
        wallet__user=user, round__status=Round.Status.PLAYING
    ).aggregate(s=Sum("amount"))["s"]
    return -net if net is not None and net < 0 else Decimal(0)


def top_up_due_for(*, user: User | Any, balance: Decimal) -> bool:
    """Whether the free top-up is due: the one judge for the pages that offer it and the
    service that gives it (which calls it with the wallet locked), so that a page never offers
    a top-up the service refuses.  The chips in open rounds are read only when the balance
    alone is below the minimum: they can only make a top-up not due."""
    if not top_up_due(balance=balance):
        return False
    return top_up_due(balance=balance, at_stake=chips_at_stake(user=user))


# The tables are the bootstrap's rows (the admin shows them read-only; ``manage.py bootstrap``
# runs in a deployment's release step, before its new processes start), so a process keeps
# each one it has read: a table page, a deal or a refusal costs no query for it.  Only found
# slugs are kept, so an address made up of any slug cannot fill the memory.
_TABLES: dict[str, Table] = {}
_LOBBY: dict[str, tuple[Table, ...]] = {}  # "all": every table in the lobby's order, once read


def table_by_slug(slug: str) -> Table | None:
    found = _TABLES.get(slug)
    if found is None:
        found = Table.objects.filter(slug=slug).first()
        if found is not None:
            _TABLES[slug] = found
    return found


def tables_forget() -> None:
    """Drop the kept tables (the bootstrap after writing them; tests)."""
    _TABLES.clear()
    _LOBBY.clear()


def lobby_tables() -> tuple[list[Table], list[Table]]:
    """The house tables and the variant tables, kept like the table pages' rows."""
    tables = _LOBBY.get("all")
    if not tables:  # (set whole: two threads that read it at once each keep a whole list)
        tables = _LOBBY["all"] = tuple(Table.objects.all())
    return (
        [t for t in tables if t.kind == Table.Kind.HOUSE],
        [t for t in tables if t.kind == Table.Kind.VARIANT],
    )


def table_seat(*, user: User | Any, table: Table) -> Seat:
    """The user's seat, or an unsaved one with the table's rules for a visitor without one."""
    if user.is_authenticated:
        seat = Seat.objects.filter(user=user, table=table).first()
        if seat is not None:
            return seat
    return Seat(table=table, rules=table_rules(table).to_dict())


def current_round(*, seat: Seat) -> Round | None:
    """The round in play at the seat, else the last one (its result stays on the table)."""
    if seat.pk is None:
        return None
    return Round.objects.filter(seat=seat).order_by("-id").first()


def user_round(*, user: User | Any, round_id: int) -> Round:
    """A round of this user's; ``Round.DoesNotExist`` for anyone else's."""
    if not user.is_authenticated:
        raise Round.DoesNotExist
    return Round.objects.select_related("seat__table").get(pk=round_id, user=user)


@dataclass(frozen=True)
class HistoryRow:
    """What the past-rounds page shows of a round: not its state, its review or its seat's
    shoe, whose JSON documents cost more to read than the rest of the page (issue 17)."""

    number: int  # the user's own count from 1
    pk: int
    playing: bool
    created_at: datetime
    staked: Decimal
    net: Decimal
    table_slug: str


# A round as the past-rounds page reads it: id, status, seq, created_at, staked, net, table.
Recent = tuple[int, str, int, datetime, Decimal, Decimal, str]


# What the past-rounds page is kept per: the latest rounds' ids, statuses and seqs, newest
# first.  The rest of a row follows from these: a round's time and table never change, and its
# stakes and result change only with a move (its seq) or its settlement (its status).
Stamp = tuple[int, str, int]


def history_stamp(*, user: User, limit: int = 100) -> list[Stamp]:
    """The stamp of the user's latest ``limit`` rounds: three small columns of the covering
    index, read on every visit (no time, no amounts, no table to parse or join)."""
    rows = Round.objects.filter(user=user).order_by("-id").values_list("id", "status", "seq")
    return list(rows[:limit])


def history_recent(*, user: User, stamp: Sequence[Stamp]) -> list[Recent]:
    """The rounds the stamp names, newest first, as plain rows: everything the page shows of
    them but their numbers (read only when the page is drawn anew)."""
    if not stamp:
        return []
    return list(
        Round.objects.filter(user=user, id__in=[pk for pk, _status, _seq in stamp])
        .order_by("-id")
        .values_list("id", "status", "seq", "created_at", "staked", "net", "seat__table__slug")
    )


def history(*, user: User, recent: Sequence[Recent]) -> list[HistoryRow]:
    """The rows of :func:`history_recent`, each with its number: the user's own count from 1
    (the database id says how many rounds everyone has played)."""
    if not recent:
        return []
    # One count on the (user, -id) index instead of numbering every round of the history.
    newest = Round.objects.filter(user=user, id__lte=recent[0][0]).count()
    return [
        HistoryRow(newest - i, pk, status == Round.Status.PLAYING, at, staked, net, slug)
        for i, (pk, status, _seq, at, staked, net, slug) in enumerate(recent)
    ]


def round_number(*, rnd: Round) -> int:
    """The round's place among its user's rounds, from 1."""
    return Round.objects.filter(user_id=rnd.user_id, id__lte=rnd.pk).count()


# --- the user's own data download (privacy) ----------------------------------------------

EXPORT_CHUNK = 2000  # rows fetched at a time: one query (one server-side cursor) per kind


def wallet_export(*, user: User) -> dict[str, Any] | None:
    """The balance and when the wallet was opened; ``None`` before the first bet."""
    row = Wallet.objects.filter(user=user).values("balance", "created_at").first()
    return dict(row) if row is not None else None


def ledger_export(*, user: User) -> Iterator[dict[str, Any]]:
    """Every change of the user's balance, oldest first, streamed."""
    rows = (
        LedgerEntry.objects.filter(wallet__user=user)
        .order_by("id")
        .values("id", "kind", "amount", "balance_after", "round_id", "created_at")
    )
    for found in rows.iterator(chunk_size=EXPORT_CHUNK):
        row: dict[str, Any] = dict(found)
        row["round"] = row.pop("round_id")
        yield row


def seats_export(*, user: User) -> list[dict[str, Any]]:
    """The user's places at the tables and their settings, but not the seat's shoe: its
    order is the cards of the next rounds."""
    rows = (
        Seat.objects.filter(user=user)
        .order_by("id")
        .values("table__slug", "rules", "ai_levels", "last_bets", "hints", "coach")
    )
    out: list[dict[str, Any]] = []
    for found in rows:
        row: dict[str, Any] = dict(found)
        out.append({"table": row.pop("table__slug"), **row})
    return out


def rounds_export(*, user: User) -> Iterator[dict[str, Any]]:
    """Every round, oldest first, streamed, as the player saw it.

    The cards come from :func:`blackjack.player_view`, the only view of a round that may leave
    the server: a round in play shows its hole card only once revealed, and no round shows
    its shoe beyond the number of cards left.  That holds for finished rounds too: a finished
    round's stored shoe is the seat's shoe, so its order is the cards of the *next* round.
    """
    rows = (
        Round.objects.filter(user=user)
        .order_by("id")
        .values(
            "id",
            "seat__table__slug",
            "status",
            "state",
            "seq",
            "human_seats",
            "ai_levels",
            "reshuffled",
            "staked",
            "paid",
            "net",
            "review",
            "created_at",
            "finished_at",
        )
    )
    for number, found in enumerate(rows.iterator(chunk_size=EXPORT_CHUNK), start=1):
        row: dict[str, Any] = dict(found)
        view = player_view(state_from_json(row.pop("state")))
        view.pop("legal_moves", None)  # a question for the table page, not a record
        yield {
            "id": row.pop("id"),
            "number": number,
            "table": row.pop("seat__table__slug"),
            "moves": row.pop("seq"),
            **row,
            "cards": view,
        }


def rounds_count(*, user: User) -> int:
    return Round.objects.filter(user=user).count()
