"""Play mode's pages.  Thin: read the request, call a service or a selector, render.

An htmx request gets the ``round`` partial of the table page; a plain one the whole page or a
redirect to it, so everything also works without JavaScript.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST

from accounts.services import user_get_or_create_guest
from core.display import fmt, fmt_signed
from core.http import HtmxHttpRequest
from game import presenters, selectors, services
from game.forms import parse_deal, parse_move
from game.limits import table_rules, top_up_due, top_up_threshold
from game.models import Round, Table

ROUND_PARTIAL = "game/table.html#round"


def _table(slug: str) -> Table:
    return get_object_or_404(Table, slug=slug)


def _table_response(
    request: HtmxHttpRequest,
    table: Table,
    *,
    error: str = "",
    notice: str = "",
    status: int = 200,
    result: services.MoveResult | None = None,
    entered: QueryDict | None = None,
) -> HttpResponse:
    if result is not None:  # the round, its seat and the balance as the move left them
        rnd = result.round
        context = presenters.table_context(
            user=request.user, table=table, seat=rnd.seat, rnd=rnd, balance=result.balance,
            state=result.state,
        )  # fmt: skip
    else:
        context = presenters.table_context(user=request.user, table=table, entered=entered)
    context.update(error=error, notice=notice)
    template = ROUND_PARTIAL if request.htmx else "game/table.html"
    return render(request, template, context, status=status)


def _see_table(table: Table) -> HttpResponseRedirect:
    return HttpResponseRedirect(reverse("game:table", args=[table.slug]), status=303)


@require_GET
def lobby(request: HtmxHttpRequest) -> HttpResponse:
    house, variants = selectors.lobby_tables()
    balance = selectors.wallet_balance(user=request.user)
    context = {
        "house": [(t, presenters.table_name(t)) for t in house],
        "variants": [
            (t, presenters.table_name(t), presenters.rules_line(table_rules(t))) for t in variants
        ],
        "balance_text": fmt(balance),
        "top_up_due": top_up_due(balance=balance),
        "top_up_minimum": fmt(top_up_threshold()),
        "fmt": fmt,
    }
    return render(request, "game/lobby.html", context)


@require_GET
def variant(request: HtmxHttpRequest) -> HttpResponse:
    """The Variants table's picker: sit at the chosen preset's table."""
    table = get_object_or_404(Table, slug=request.GET.get("preset", ""), kind=Table.Kind.VARIANT)
    return redirect("game:table", table.slug)


@require_POST
def top_up(request: HtmxHttpRequest) -> HttpResponse:
    user = user_get_or_create_guest(request=request)
    try:
        services.wallet_top_up(user=user)
    except services.PlayError as exc:
        messages.error(request, exc.message)
    nxt = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(nxt, allowed_hosts={request.get_host()}):
        nxt = reverse("game:lobby")
    return HttpResponseRedirect(nxt, status=303)


@require_GET
def table(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    t = _table(slug)
    services.table_prepare(t)
    return _table_response(request, t)


@require_POST
def deal(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    table = _table(slug)
    user = user_get_or_create_guest(request=request)
    seat = selectors.table_seat(user=user, table=table)
    try:
        bets, levels = parse_deal(request.POST, seat if seat.pk else None)
        services.round_deal(user=user, table=table, bets=bets, ai_levels=levels)
    except services.PlayError as exc:
        # The bets and seat-mates stay as the learner set them, to be mended, not retyped.
        return _table_response(
            request, table, error=str(exc.message), status=400, entered=request.POST
        )
    if request.htmx:
        return _table_response(request, table)
    return _see_table(table)


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
    if result.stale:
        if request.htmx:
            return _table_response(
                request, table, notice=str(services.STALE_MOVE), status=409, result=result
            )
        messages.info(request, services.STALE_MOVE)
    if request.htmx:
        return _table_response(request, table, result=result)
    return _see_table(table)


@require_POST
def hints(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    table = _table(slug)
    user = user_get_or_create_guest(request=request)
    services.seat_set_hints(user=user, table=table, on=request.POST.get("on") == "1")
    if request.htmx:
        return _table_response(request, table)
    return _see_table(table)


@require_GET
def history(request: HtmxHttpRequest) -> HttpResponse:
    rounds = selectors.history(user=request.user)[:100] if request.user.is_authenticated else []
    rows = [
        {
            "round": r,
            "table_name": presenters.table_name(r.seat.table),
            "net": fmt_signed(r.net),
            "staked": fmt(r.staked),
        }
        for r in rounds
    ]
    return render(request, "game/history.html", {"rows": rows})


@require_GET
def history_round(request: HtmxHttpRequest, round_id: int) -> HttpResponse:
    try:
        rnd = selectors.user_round(user=request.user, round_id=round_id)
    except Round.DoesNotExist:
        raise Http404 from None
    context = {
        "round": rnd,
        "table_name": presenters.table_name(rnd.seat.table),
        "view": presenters.round_view(rnd),
        "log": presenters.full_log(rnd),
        "net": fmt(rnd.net),
        "staked": fmt(rnd.staked),
        "paid": fmt(rnd.paid),
    }
    return render(request, "game/round.html", context)
