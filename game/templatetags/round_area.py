"""``{% round_area %}``: the table's play area (``#round``) built in Python, the markup the
``round`` partial's template made, byte for byte (issue 17).  Every deal and move answers with
this area; its template's some 200 nodes (the ``if`` and ``translate`` nodes, three URLs, the
review's loop) were a tenth of such a request's instructions (callgrind).

The translated words are inserted as ``{% translate %}`` and ``{% blocktranslate %}`` inserted
them (the catalogue's text as it is); every value is escaped as a template variable was
(``conditional_escape``), and the CSRF token is the one the page's context carries, as
``{% csrf_token %}`` writes it.  ``tests/game/test_round_markup.py`` keeps the old template,
renders both with the same context for rounds in many states, and compares.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.template.context import Context
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, gettext_noop, ngettext, pgettext

from core.escape import esc
from core.per_language import per_language
from game.presenters import CoachWarning, ReviewLine, RoundView
from game.templatetags.betting import bet_boxes, chip_rack
from game.templatetags.hands import hands
from game.templatetags.moves import move_buttons
from game.templatetags.table import card

register = template.Library()


# The area's fixed words, translated once per language (core.per_language).
_WORDS = (
    gettext_noop("best"),
    gettext_noop("your choice"),
    gettext_noop("Wait: the cost of %(move)s is %(cost)s."),
    gettext_noop("Play %(move)s"),
    gettext_noop("Play %(move)s anyway"),
    gettext_noop("Expected value of each option, per bet"),
    gettext_noop("Box"),
    gettext_noop("Hand"),
    gettext_noop("Your move"),
    gettext_noop("Best move"),
    gettext_noop("EV lost"),
    gettext_noop("vs"),
    gettext_noop("Your decisions"),
    gettext_noop("Repeat last bet"),
    gettext_noop("Chip"),
    gettext_noop("Deal"),
    gettext_noop("Clear bets"),
    gettext_noop("At the table"),
    gettext_noop("Show the chart's move"),
    gettext_noop("Coach mode"),
    gettext_noop("Before a move that costs EV, the table stops and shows every option's EV."),
    gettext_noop("Bets: %(low)s – %(high)s"),
    gettext_noop("Boxes per player: %(counts)s"),
    gettext_noop("The dealer shuffled a fresh shoe before this round."),
    gettext_noop("Place your bets to begin."),
    gettext_noop("Balance:"),
    gettext_noop("Cards left in the shoe:"),
)


@per_language
def _words() -> dict[str, str]:
    return {m: gettext(m) for m in _WORDS}


def _csrf(context: Context) -> str:
    """What ``{% csrf_token %}`` writes."""
    token = context.get("csrf_token")
    if not token or token == "NOTPROVIDED":
        return ""
    return format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token)


def _coach(coach: CoachWarning) -> str:
    w = _words()
    best_word, chosen_word = w["best"], w["your choice"]
    rows = "".join(
        "\n          "
        f'<tr class="{"best" if o.best else ""}{" chosen" if o.chosen else ""}">'
        f'<th scope="row">{esc(o.name)}</th><td>{esc(o.ev)}</td><td>'
        f"{best_word if o.best else chosen_word if o.chosen else ''}"
        "</td></tr>\n        "
        for o in coach.options
    )
    title = w["Wait: the cost of %(move)s is %(cost)s."] % {
        "move": esc(coach.move_name),
        "cost": esc(coach.cost),
    }
    best = w["Play %(move)s"] % {"move": esc(coach.best_name)}
    anyway = w["Play %(move)s anyway"] % {"move": esc(coach.move_name)}
    evs = w["Expected value of each option, per bet"]
    return (
        "\n    \n"
        '    <div class="coach" role="alert" aria-labelledby="coach-title" tabindex="-1"'
        " data-coach>\n"
        f'      <p id="coach-title" class="coach-title">{title}</p>\n'
        f'      <p id="coach-evs-title" class="coach-evs-title">{evs}</p>\n'
        '      <table class="coach-evs" aria-labelledby="coach-evs-title">\n'
        "        <tbody>\n"
        f"        {rows}\n"
        "        </tbody>\n"
        "      </table>\n"
        '      <input type="hidden" name="confirm" value="1">\n'
        '      <p class="coach-buttons">\n'
        f'        <button type="submit" name="move" value="{esc(coach.best)}"'
        f' class="button button-gold" data-coach-best>{best}</button>\n'
        f'        <button type="submit" name="move" value="{esc(coach.move)}"'
        f' class="button button-plain">{anyway}</button>\n'
        "      </p>\n"
        "    </div>\n"
        "    "
    )


def _moves(context: Context, view: RoundView, csrf: str) -> str:
    """The form of the hand in turn: its moves, the hint, coach mode's warning."""
    url = esc(reverse("game:move", args=[view.round_id]))
    hint = f'<p class="hint">{esc(view.hint)}</p>' if view.hint else ""
    coach = context.get("coach")
    return (
        "\n"
        f'  <form method="post" action="{url}" class="actions"\n'
        f'        hx-post="{url}" hx-target="#round" hx-swap="outerHTML"\n'
        '        hx-sync="this:drop" hx-disabled-elt="find fieldset">\n'
        f'    {csrf}<input type="hidden" name="seq" value="{esc(view.seq)}">\n'
        f"    {move_buttons(view, context['seat'], context['offer_amount'])}\n"
        f"    {hint}\n"
        f"    {_coach(coach) if coach else ''}\n"
        "  </form>\n"
        "  "
    )


def _review_line(line: ReviewLine, w: dict[str, str], none: str) -> str:
    cards = "".join(card(c, small=True) for c in line.cards)
    note = f'<span class="review-note">{esc(line.unaffordable)}</span>' if line.unaffordable else ""
    lost = none if line.correct else esc(line.ev_lost)
    return (
        "\n"
        f'      <tr class="{"right" if line.correct else "wrong"}">\n'
        f'        <td data-label="{w["Box"]}">{esc(line.box)}</td>\n'
        f'        <td class="review-hand" data-label="{w["Hand"]}"><span>{cards}'
        f' <span class="vs">{w["vs"]}</span> {card(line.up, small=True)}</span></td>\n'
        f'        <td data-label="{w["Your move"]}">{esc(line.choice)}</td>\n'
        f'        <td data-label="{w["Best move"]}">{esc(line.best)}{note}</td>\n'
        f'        <td data-label="{w["EV lost"]}">{lost}</td>\n'
        "      </tr>\n"
        "    "
    )


def review(view: RoundView) -> str:
    """What the ``game/_review.html`` include wrote: the learner's decisions of the round."""
    w = _words()
    none = pgettext("EV lost", "none")
    rows = "".join(_review_line(line, w, none) for line in view.review)
    heading = w["Your decisions"]
    return (
        "\n"
        '<section class="review" aria-labelledby="review-heading">\n'
        f'  <h2 id="review-heading">{heading}</h2>\n'
        '  <table class="stack-table">\n'
        f'    <thead><tr><th scope="col">{w["Box"]}</th><th scope="col">{w["Hand"]}</th>'
        f'<th scope="col">{w["Your move"]}</th><th scope="col">{w["Best move"]}</th>'
        f'<th scope="col">{w["EV lost"]}</th></tr></thead>\n'
        "    <tbody>\n"
        f"    {rows}\n"
        "    </tbody>\n"
        "  </table>\n"
        "</section>\n"
    )


def _result(view: RoundView | None) -> str:
    """A finished round's net result and review (nothing before the first round)."""
    if not view:
        return ""
    net = ""
    if view.net_text:
        won = "won" if view.net > 0 else "lost" if view.net < 0 else ""
        net = f'<p class="net {won}">{esc(view.net_text)}</p>'
    return (
        "\n"
        '    <div class="round-result" role="status">\n'
        f"      {net}\n"
        "    </div>\n"
        f"    {review(view) if view.review else ''}\n"
        "    "
    )


def _top_up(context: Context, csrf: str) -> str:
    table = context["table"]
    minimum = gettext(
        "Your balance is below the smallest bet at the Scribes' table (%(minimum)s)."
    ) % {"minimum": esc(context["top_up_minimum"])}
    amount = {"amount": esc(context["top_up_text"]), "counter": context["top_up_count"]}
    button = (
        ngettext(
            "Free top-up: %(amount)s deben",
            "Free top-up: %(amount)s debens",
            context["top_up_count"],
        )
        % amount
    )
    return (
        "\n"
        f'    <form method="post" action="{esc(reverse("game:top_up"))}" class="top-up">{csrf}\n'
        '      <input type="hidden" name="next"'
        f' value="{esc(reverse("game:table", args=[table.slug]))}">\n'
        f"      <p>{minimum}</p>\n"
        f'      <button type="submit" class="button button-gold">{button}</button>\n'
        "    </form>\n"
        "    "
    )


def _bets(context: Context, view: RoundView | None, csrf: str) -> str:
    """Between rounds: the last result, the top-up, and the betting form."""
    w = _words()
    table = context["table"]
    url = esc(reverse("game:deal", args=[table.slug]))
    top_up = _top_up(context, csrf) if context.get("top_up_due") else ""
    repeat = ""
    if context.get("has_last_bets"):
        repeat = (
            '<button type="submit" name="repeat" value="1" class="button button-plain"'
            " data-repeat>" + w["Repeat last bet"] + "</button>"
        )
    rack = chip_rack(context["chips"], context["chip_selected"], context["balance"])
    boxes = bet_boxes(context["bet_boxes"], context["levels"], table.max_bet, context["step"])
    chip, deal, clear = w["Chip"], w["Deal"], w["Clear bets"]
    return (
        "\n"
        f"    {_result(view)}\n"
        f"    {top_up}\n"
        f'    <form method="post" action="{url}" class="bets"\n'
        f'          hx-post="{url}" hx-target="#round" hx-swap="outerHTML"\n'
        '          hx-sync="this:drop" hx-disabled-elt="find .deal-buttons">\n'
        f"      {csrf}\n"
        '      <fieldset class="chip-rack">\n'
        f"        <legend>{chip}</legend>{rack}</fieldset>\n"
        f'      <ol class="bet-boxes">{boxes}</ol>\n'
        '      <div class="deal-buttons">\n'
        '        <button type="submit" class="button deal-button" data-deal>'
        f"{deal} <kbd>Enter</kbd></button>\n"
        '        <button type="reset" class="button button-plain">'
        f"{clear}</button>\n"
        f"        {repeat}\n"
        "      </div>\n"
        "    </form>\n"
        "  "
    )


def _log(view: RoundView | None) -> str:
    if not (view and view.log):
        return ""
    w = _words()
    lines = "".join(
        f'<li class="new delay-{esc(delay)}">{esc(text)}</li>' for text, delay in view.log
    )
    title = w["At the table"]
    return (
        "\n"
        '  <details class="log-box" open>\n'
        f'    <summary id="log-title">{title}</summary>\n'
        "    \n"
        '    <div class="log-scroll" tabindex="0" role="region" aria-labelledby="log-title">\n'
        f'      <ol class="log">{lines}</ol>\n'
        "    </div>\n"
        "  </details>\n"
        "  "
    )


def _switch(
    url: str, csrf: str, on: bool, label: str, *, help_id: str = "", help_text: str = ""
) -> str:
    """A switch of the table's: a button that posts the opposite of its state."""
    described = f' aria-describedby="{help_id}"' if help_id else ""
    note = f'    <span id="{help_id}" class="{help_id}">{help_text}</span>\n' if help_id else ""
    return (
        "\n"
        f'  <form method="post" action="{url}" class="hints-toggle"\n'
        f'        hx-post="{url}" hx-target="#round" hx-swap="outerHTML">{csrf}\n'
        f'    <input type="hidden" name="on" value="{"0" if on else "1"}">\n'
        '    <button type="submit" class="button button-plain"'
        f' aria-pressed="{"true" if on else "false"}"{described}>{label}</button>\n'
        f"{note}"
        "  </form>\n"
        "  "
    )


def _toggles(context: Context, csrf: str) -> str:
    """The switches of the chart's hints and (for a signed-in learner) of coach mode."""
    w = _words()
    table, seat = context["table"], context["seat"]
    hints = esc(reverse("game:hints", args=[table.slug]))
    out = _switch(hints, csrf, seat.hints, w["Show the chart's move"])
    user = context.get("user")
    if user is not None and user.is_authenticated:
        out += _switch(
            esc(reverse("game:coach", args=[table.slug])),
            csrf,
            seat.coach,
            w["Coach mode"],
            help_id="coach-help",
            help_text=w[
                "Before a move that costs EV, the table stops and shows every option's EV."
            ],
        )
    return out


def round_html(context: Context) -> str:
    """The whole ``#round`` area from the table page's context."""
    w = _words()
    view: RoundView | None = context.get("view")
    request: Any = context.get("request")
    seq = esc(view.seq) if view and view.seq else ""
    announce = ""
    if request is not None and getattr(request, "htmx", False):
        text = esc(view.announcement) if view is not None else ""
        announce = f'<div id="announce" hx-swap-oob="innerHTML">{text}</div>'
    bets = w["Bets: %(low)s – %(high)s"] % {
        "low": esc(context["min_bet"]),
        "high": esc(context["max_bet"]),
    }
    counts = ""
    if context.get("box_counts"):
        counts = '<p class="box-counts">{}</p>'.format(
            w["Boxes per player: %(counts)s"] % {"counts": esc(context["box_counts"])}
        )
    error, notice = context.get("error"), context.get("notice")
    error_html = (
        f'<p class="message message-error play-error" role="alert">{esc(error)}</p>'
        if error
        else ""
    )
    notice_html = (
        f'<p class="message play-notice" role="status">{esc(notice)}</p>' if notice else ""
    )
    shuffled = ""
    if view and view.reshuffled and view.seq == 0:
        shuffled = (
            '<p class="message shuffle-notice">'
            + w["The dealer shuffled a fresh shoe before this round."]
            + "</p>"
        )
    if view:
        felt = f"\n      {hands(view)}\n    "
    else:
        empty = w["Place your bets to begin."]
        felt = f'\n      <p class="felt-empty">{empty}</p>\n    '
    balance, shoe = w["Balance:"], w["Cards left in the shoe:"]
    csrf = _csrf(context)  # one token for the area's forms, as the template's one context gave
    play = _moves(context, view, csrf) if view and view.playing else _bets(context, view, csrf)
    return (
        "\n"
        f'<div id="round" class="play-area" data-seq="{seq}" hx-history="false">\n'
        f"  {announce}\n"
        '  <div class="status-bar">\n'
        f'    <p>{balance} <strong class="balance">'
        f"{esc(context['balance_text'])}</strong></p>\n"
        f'    <p>{shoe} <strong class="shoe-left">'
        f"{esc(context['shoe_left'])}</strong></p>\n"
        f"    <p>{bets}</p>\n"
        f"    {counts}\n"
        "  </div>\n"
        f"  {error_html}\n"
        f"  {notice_html}\n"
        f"  {shuffled}\n"
        "\n"
        '  <div class="felt">\n'
        f'    <p class="felt-motto" aria-hidden="true">{esc(context["rules_line"])}</p>\n'
        f"    {felt}\n"
        "  </div>\n"
        "\n"
        "\n"
        f"  {play}\n"
        f"  {_log(view)}{_toggles(context, csrf)}\n"
        "</div>\n"
    )


@register.simple_tag(takes_context=True)
def round_area(context: Context) -> SafeString:
    return mark_safe(round_html(context))


@register.simple_tag
def round_review(view: RoundView) -> SafeString:
    """A past round's page shows the same review."""
    return mark_safe(review(view))
