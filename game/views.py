"""Play mode's pages.  Thin: read the request, call a service or a selector, render.

An htmx request gets the ``round`` partial of the table page; a plain one the whole page or a
redirect to it, so everything also works without JavaScript.
"""

from __future__ import annotations

from decimal import Decimal

from django.contrib import messages
from django.http import Http404, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from accounts.services import user_or_new_guest
from core.display import fmt, fmt_signed
from core.http import HtmxHttpRequest, local_path
from core.kept import render_kept
from game import presenters, selectors, services
from game.forms import parse_deal, parse_move
from game.limits import table_rules, top_up_threshold
from game.models import TOP_UP_AMOUNT, Round, Table
from game.plurals import plural_count

ROUND_PARTIAL = "game/table.html#round"
# A visitor without an account keeps the hints switch here until a first bet makes a guest:
# a switch is no reason to create a user.
HINTS_SESSION_KEY = "game_hints"


def _table(slug: str) -> Table:
    table = selectors.table_by_slug(slug)
    if table is None:
        raise Http404
    return table


def _top_up_amount() -> dict[str, object]:
    """The free top-up as the pages word it: formatted, and the number that picks the plural."""
    return {
        "top_up_text": fmt(TOP_UP_AMOUNT),
        "top_up_count": plural_count(TOP_UP_AMOUNT),
    }


def _table_response(
    request: HtmxHttpRequest,
    table: Table,
    *,
    error: str = "",
    notice: str = "",
    status: int = 200,
    result: services.MoveResult | None = None,
    entered: QueryDict | None = None,
    coach: presenters.CoachWarning | None = None,
) -> HttpResponse:
    if result is not None:  # the round, its seat and the balance as the move left them
        rnd = result.round
        context = presenters.table_context(
            user=request.user, table=table, seat=rnd.seat, rnd=rnd, balance=result.balance,
            state=result.state,
        )  # fmt: skip
    else:
        context = presenters.table_context(user=request.user, table=table, entered=entered)
    if not request.user.is_authenticated:
        context["seat"].hints = table.slug in request.session.get(HINTS_SESSION_KEY, [])
    context.update(error=error, notice=notice, coach=coach, **_top_up_amount())
    template = ROUND_PARTIAL if request.htmx else "game/table.html"
    return render(request, template, context, status=status)


def _see_table(table: Table) -> HttpResponseRedirect:
    return HttpResponseRedirect(reverse("game:table", args=[table.slug]), status=303)


@never_cache  # live state: the Back button must fetch it anew, never show it stale
@require_GET
def lobby(request: HtmxHttpRequest) -> HttpResponse:
    house, variants = selectors.lobby_tables()
    balance = selectors.wallet_balance(user=request.user)
    # Per table: does the balance cover its smallest bet (``covers``)?  The lobby says so,
    # and what to do otherwise.
    context = {
        "house": [(t, presenters.table_name(t), balance >= t.min_bet) for t in house],
        "variants": [
            (
                t,
                presenters.table_name(t),
                presenters.rules_line(table_rules(t)),
                balance >= t.min_bet,
            )
            for t in variants
        ],
        "balance_text": fmt(balance),
        "balance_count": plural_count(balance),
        "top_up_due": selectors.top_up_due_for(user=request.user, balance=balance),
        "top_up_minimum": fmt(top_up_threshold()),
        "fmt": fmt,
        **_top_up_amount(),
    }
    # The tables' part of the page depends on the tables' rows and on which of them the
    # balance covers: kept once per such key and language ({% once %}).
    house_key = tuple(
        (t.pk, t.slug, t.preset, t.min_bet, t.max_bet, tuple(t.chips), covers)
        for t in house
        for covers in (balance >= t.min_bet,)
    )
    variants_key = tuple(
        (t.pk, t.slug, t.preset, t.min_bet, t.max_bet, covers)
        for t in variants
        for covers in (balance >= t.min_bet,)
    )
    context["tables_key"] = (house_key, variants_key, context["top_up_due"])
    return render(request, "game/lobby.html", context)


@require_GET
def variant(request: HtmxHttpRequest) -> HttpResponse:
    """The Variants table's picker: sit at the chosen preset's table."""
    table = get_object_or_404(Table, slug=request.GET.get("preset", ""), kind=Table.Kind.VARIANT)
    return redirect("game:table", table.slug)


@require_POST
def top_up(request: HtmxHttpRequest) -> HttpResponse:
    try:
        # A visitor without an account has a full first wallet coming: the refusal rolls
        # the guest back, so nothing is stored.
        with user_or_new_guest(request=request) as user:
            services.wallet_top_up(user=user)
    except services.PlayError as exc:
        messages.error(request, exc.message)
    nxt = local_path(request.POST.get("next")) or reverse("game:lobby")
    return HttpResponseRedirect(nxt, status=303)


@never_cache
@require_GET
def table(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    t = _table(slug)
    services.table_prepare(t)
    return _table_response(request, t)


@never_cache
@require_POST
def deal(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    table = _table(slug)
    hints = table.slug in request.session.get(HINTS_SESSION_KEY, [])
    # The seat is read here only for what the form asks of it (the last bets, the hints a
    # visitor chose before a first bet); the deal itself reads it under its lock.
    needs_seat = hints or "repeat" in request.POST
    try:
        # A first accepted bet is what makes a visitor a guest; a refused one stores nothing.
        with user_or_new_guest(request=request) as user:
            seat = selectors.table_seat(user=user, table=table) if needs_seat else None
            bets, levels = parse_deal(request.POST, seat if seat and seat.pk else None)
            if hints and seat is not None and seat.pk is None:
                services.seat_set_hints(user=user, table=table, on=True)
            result = services.round_deal_result(user=user, table=table, bets=bets, ai_levels=levels)
    except services.PlayError as exc:
        # The bets and seat-mates stay as the learner set them, to be mended, not retyped.
        return _table_response(
            request, table, error=str(exc.message), status=400, entered=request.POST
        )
    if request.htmx:
        return _table_response(request, table, result=result)
    return _see_table(table)


@never_cache
@require_POST
def move(request: HtmxHttpRequest, round_id: int) -> HttpResponse:
    if not request.user.is_authenticated:
        raise Http404
    try:
        name, seq = parse_move(request.POST)
        result = services.round_apply_move(
            round_id=round_id,
            user=request.user,
            move=name,
            seq=seq,
            # Coach mode holds a costly move back until the warning's buttons confirm it.
            confirmed=request.POST.get("confirm") == "1",
        )
    except Round.DoesNotExist:
        raise Http404 from None
    except services.PlayError as exc:
        try:
            rnd = selectors.user_round(user=request.user, round_id=round_id)
        except Round.DoesNotExist:
            raise Http404 from None
        return _table_response(request, rnd.seat.table, error=str(exc.message), status=400)
    table = result.round.seat.table
    if result.held:  # nothing was played: the table with every option's EV
        assert result.balance is not None  # a held move's result carries the balance
        warning = presenters.coach_warning(
            result.round, move=name, balance=result.balance, state=result.state
        )
        return _table_response(request, table, result=result, coach=warning)
    if result.stale:
        if request.htmx:
            return _table_response(
                request, table, notice=str(services.STALE_MOVE), status=409, result=result
            )
        messages.info(request, services.STALE_MOVE)
    if request.htmx:
        return _table_response(request, table, result=result)
    return _see_table(table)


@never_cache
@require_POST
def hints(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    table = _table(slug)
    on = request.POST.get("on") == "1"
    if request.user.is_authenticated:
        services.seat_set_hints(user=request.user, table=table, on=on)
    else:
        chosen = set(request.session.get(HINTS_SESSION_KEY, []))  # slugs of real tables only
        chosen = chosen | {table.slug} if on else chosen - {table.slug}
        request.session[HINTS_SESSION_KEY] = sorted(chosen)
    if request.htmx:
        return _table_response(request, table)
    return _see_table(table)


@never_cache
@require_POST
def coach(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Coach mode on or off.  A visitor gets a seat only with a first bet, so the switch is
    for a learner with a seat (or an account): anyone else is sent back to the table."""
    table = _table(slug)
    if request.user.is_authenticated:
        services.seat_set_coach(user=request.user, table=table, on=request.POST.get("on") == "1")
    if request.htmx:
        return _table_response(request, table)
    return _see_table(table)


@never_cache
@require_GET
def history(request: HtmxHttpRequest) -> HttpResponse:
    user = request.user if request.user.is_authenticated else None
    if user is None:
        return render(request, "game/history.html", {"rows": []})
    stamp = selectors.history_stamp(user=user)
    # The page is kept whole per the stamp (core.kept): while no round was dealt or moved, a
    # reload reads, numbers, formats and draws nothing more (the rows are read only when drawn).
    key = (user.pk, tuple(stamp)) if stamp else None

    def rows() -> list[dict[str, object]]:
        return _history_rows(user, selectors.history_recent(user=user, stamp=stamp))

    context = {"rows": SimpleLazyObject(rows)}
    return render_kept(request, "game/history.html", context, key={"rows": key} if key else None)


def _history_rows(user: User, recent: list[selectors.Recent]) -> list[dict[str, object]]:
    """Each row's words and link made here, once, not by template tags a hundred times over."""
    base = reverse("game:history")
    in_play = _("In play")
    names = {slug: str(name) for slug, name in presenters.TABLE_NAMES.items()}
    money: dict[tuple[bool, Decimal], str] = {}  # the same few amounts recur: formatted once

    def shown(amount: Decimal, *, signed: bool) -> str:
        key = (signed, amount)
        if key not in money:
            money[key] = fmt_signed(amount) if signed else fmt(amount)
        return money[key]

    return [
        {
            "when": r.created_at,
            "url": f"{base}{r.pk}/",
            "title": _("Round %(n)s") % {"n": r.number},
            "table_name": names.get(r.table_slug, r.table_slug),
            # A round in play shows what lies on the table now: its state is read for that.
            "staked": presenters.staked_text(selectors.user_round(user=user, round_id=r.pk))
            if r.playing
            else shown(r.staked, signed=False),
            "result": in_play if r.playing else shown(r.net, signed=True),
        }
        for r in selectors.history(user=user, recent=recent)
    ]


@never_cache
@require_GET
def history_round(request: HtmxHttpRequest, round_id: int) -> HttpResponse:
    try:
        rnd = selectors.user_round(user=request.user, round_id=round_id)
    except Round.DoesNotExist:
        raise Http404 from None
    context = {
        "round": rnd,
        "number": selectors.round_number(rnd=rnd),
        "table_name": presenters.table_name(rnd.seat.table),
        "view": presenters.round_view(rnd),
        "log": presenters.full_log(rnd),
        "net": fmt(rnd.net),
        "staked": presenters.staked_text(rnd),
        "paid": fmt(rnd.paid),
    }
    return render(request, "game/round.html", context)
