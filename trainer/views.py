"""The drill, the statistics and the chart: thin views over services and selectors.

htmx requests get a partial of the page (django-template-partials); plain requests get the
whole page, so the drill also works without JavaScript.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.models import User
from accounts.services import user_or_new_guest
from blackjack import Rules
from blackjack.counting import DEFAULT_SYSTEM, SYSTEMS
from computed import indices as computed_indices
from computed import limits
from computed import selectors as computed_selectors
from computed import services as computed_services
from computed.tables import HARD_ROWS, PAIR_ROWS, SOFT_ROWS, UPS, drill_key
from core.http import HtmxHttpRequest
from core.kept import render_kept
from decisions import selectors as decision_selectors
from trainer import selectors, services
from trainer.context import SETTINGS_KEY, drill_context_get, drill_context_peek, drill_notice
from trainer.count_display import count_view, index_view
from trainer.display import situation_view
from trainer.forms import DrillForm, IndicesForm, RulesForm, settings_query
from trainer.models import CountQuestion, Situation
from trainer.presenters import index_rows

SESSION_START_KEY = "trainer_session_start"
DEFAULT_SETTINGS = {"focus": "all", "up": "6", "preset": "thoth"}


def _user(request: HtmxHttpRequest) -> User | None:
    user = request.user
    return user if isinstance(user, User) and user.is_authenticated else None


def _drill_form(request: HtmxHttpRequest, data: Any = None) -> DrillForm:
    if data is None:
        data = request.GET if request.GET else request.session.get(SETTINGS_KEY, {})
    return DrillForm(data) if data else DrillForm(initial=DEFAULT_SETTINGS)


def _settings(request: HtmxHttpRequest, form: DrillForm | None) -> dict[str, str]:
    if form is not None and form.is_bound:
        data = form.data.dict() if hasattr(form.data, "dict") else dict(form.data)
        return settings_query({k: str(v) for k, v in data.items() if k in form.fields})
    saved: dict[str, str] = request.session.get(SETTINGS_KEY) or {}
    return saved or dict(DEFAULT_SETTINGS)


def _drill_context(
    request: HtmxHttpRequest,
    situation: Situation | None,
    *,
    form: DrillForm | None = None,
    summary: bool = True,
    count: CountQuestion | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """What the drill page or one of its partials shows; the parts a partial does not show
    (the settings form, the session summary) are left out, to keep the answer fast."""
    user = _user(request)
    # Only for someone with an account: an anonymous GET must not create a session row.
    if user is not None and SESSION_START_KEY not in request.session:
        request.session[SESSION_START_KEY] = timezone.now().isoformat()
    settings = _settings(request, form)
    context: dict[str, Any] = {
        "form": form,
        "view": situation_view(situation) if situation is not None else None,
        "index": index_view(situation) if situation is not None else None,
        "count": count_view(count) if count is not None else None,
        "settings": settings,
        "streak": 0,
        "session": None,
        **extra,
    }
    if summary and user is not None:
        since = parse_datetime(request.session.get(SESSION_START_KEY, "")) or timezone.now()
        context["streak"], context["session"] = decision_selectors.drill_summary(
            user=user, since=since
        )
        # The drill another app started (a class assignment) says so, and whether this hand
        # is part of it (one dealt before the drill was started is not).
        tag = drill_context_peek(session=request.session, settings=settings)
        question = situation if situation is not None else count
        tag = tag or (question.context if question is not None else None)
        context["notice"] = drill_notice(user=user, context=tag)
        context["notice_hand_outside"] = question is not None and question.context != tag
    return context


def _counting(settings: dict[str, str]) -> bool:
    return settings.get("focus") in services.COUNT_FOCUSES


@never_cache  # a hand in play: never shown from the browser's cache
@require_GET
def index(request: HtmxHttpRequest) -> HttpResponse:
    """The drill page: the settings and the learner's latest unanswered situation, if any."""
    form = _drill_form(request)
    user = _user(request)
    situation = count = None
    if user is not None and _counting(_settings(request, form)):
        count = selectors.count_open(user=user)
    elif user is not None:
        situation = selectors.situation_open(user=user)
    context = _drill_context(request, situation, form=form, count=count)
    return render(request, "trainer/drill.html", context)


def _indices_query(chosen: dict[str, str]) -> str:
    """The index page's query for the drill's rule set and system (its link)."""
    names = IndicesForm.base_fields
    return urlencode({k: v for k, v in chosen.items() if k in names and k != "focus"})


@never_cache
@require_POST
def deal(request: HtmxHttpRequest) -> HttpResponse:
    form = DrillForm(request.POST)
    if not form.is_valid():
        context = _drill_context(request, None, form=form)
        return render(request, "trainer/drill.html", context, status=400)
    chosen = settings_query({k: v for k, v in form.cleaned_data.items() if isinstance(v, str)})
    drill_tag, cells = drill_context_get(session=request.session, settings=chosen)
    focus = form.cleaned_data["focus"]
    if focus in services.COUNT_FOCUSES:
        return _count_deal(request, form, chosen, drill_tag)
    # The situation is what a guest is made for; if dealing it fails, no guest remains.
    try:
        with user_or_new_guest(request=request) as user:
            situation = services.situation_deal(
                user=user,
                rules=form.rules(),
                focus=focus,
                up=form.up_points(),
                cells=cells,
                context=drill_tag,
                system=form.system_key(),
            )
    except services.NoIndexTable:
        # Not an error of the learner's: say so, and link to the page that computes it.
        context = _drill_context(
            request, None, form=form, summary=False, no_index=_indices_query(chosen)
        )
        template = "trainer/drill.html#situation" if request.htmx else "trainer/drill.html"
        return render(request, template, context, status=409)
    if request.session.get(SETTINGS_KEY) != chosen:  # a session write costs a commit
        request.session[SETTINGS_KEY] = chosen
    if request.htmx:
        context = _drill_context(request, situation, form=form, summary=False)
        return render(request, "trainer/drill.html#situation", context)
    return redirect("trainer:situation", pk=situation.pk)


def _count_deal(
    request: HtmxHttpRequest, form: DrillForm, chosen: dict[str, str], drill_tag: str | None
) -> HttpResponse:
    with user_or_new_guest(request=request) as user:
        question = services.count_deal(
            user=user,
            rules=form.rules(),
            kind=form.cleaned_data["focus"],
            system=form.system_key(),
            cards=form.card_count(),
            pace_ms=form.pace_ms(),
            per_step=form.per_step(),
            context=drill_tag,
        )
    if request.session.get(SETTINGS_KEY) != chosen:
        request.session[SETTINGS_KEY] = chosen
    if request.htmx:
        context = _drill_context(request, None, form=form, summary=False, count=question)
        return render(request, "trainer/drill.html#situation", context)
    return redirect("trainer:count", pk=question.pk)


@never_cache
@require_GET
def count(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """A counting question of the learner's, asked or answered (the page a plain form's
    deal and answer come back to)."""
    user = _user(request)
    found = selectors.count_of(user=user, pk=pk) if user else None
    if found is None:
        raise Http404
    context = _drill_context(request, None, form=_drill_form(request), count=found)
    return render(request, "trainer/drill.html", context)


@never_cache
@require_POST
def count_answer(request: HtmxHttpRequest) -> HttpResponse:
    """The number typed for a counting question, judged against what was dealt."""
    user = _user(request)
    try:
        pk = int(request.POST.get("question", ""))
    except ValueError:
        raise Http404 from None
    if user is None:
        raise Http404
    try:
        found, _created = services.count_answer(
            user=user, question_id=pk, text=request.POST.get("count", "")
        )
    except CountQuestion.DoesNotExist:
        raise Http404 from None
    except services.NotACount as exc:
        question = selectors.count_of(user=user, pk=pk)
        if question is None:
            raise Http404 from None
        if request.htmx:
            context = _drill_context(request, None, summary=False, count=question, error=str(exc))
            return render(request, "trainer/drill.html#count-answer", context, status=400)
        context = _drill_context(
            request, None, form=_drill_form(request), count=question, error=str(exc)
        )
        return render(request, "trainer/drill.html", context, status=400)
    if request.htmx:
        return render(request, "trainer/drill.html#count-answer", _drill_context(
            request, None, count=found
        ))  # fmt: skip
    return redirect("trainer:count", pk=found.pk)


@never_cache
@require_GET
def situation(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    user = _user(request)
    found = selectors.situation_of(user=user, pk=pk) if user else None
    if found is None:
        raise Http404
    context = _drill_context(request, found, form=_drill_form(request))
    return render(request, "trainer/drill.html", context)


@never_cache
@require_POST
def answer(request: HtmxHttpRequest) -> HttpResponse:
    user = _user(request)
    try:
        pk = int(request.POST.get("situation", ""))
    except ValueError:
        raise Http404 from None
    if user is None:
        raise Http404
    try:
        found, _created = services.situation_answer(
            user=user, situation_id=pk, move=request.POST.get("move", "")
        )
    except Situation.DoesNotExist:
        raise Http404 from None
    except services.NotAnOption as exc:
        found = Situation.objects.get(pk=pk, user=user)
        if request.htmx:
            context = _drill_context(request, found, summary=False, error=str(exc))
            return render(request, "trainer/drill.html#answer", context, status=400)
        context = _drill_context(request, found, form=_drill_form(request), error=str(exc))
        return render(request, "trainer/drill.html", context, status=400)
    if request.htmx:
        return render(request, "trainer/drill.html#result", _drill_context(request, found))
    return redirect("trainer:situation", pk=found.pk)


@require_GET
def stats(request: HtmxHttpRequest) -> HttpResponse:
    """The learner's statistics.  Drawn once per state of the learner's record (its stamp: the
    latest decision and the count of those shortly before it) and language, and kept whole
    (core.kept): reading them again until the next decision costs two short index ranges, not
    the aggregates and the heat map's markup."""
    user = _user(request)
    stamp = decision_selectors.stats_stamp(user=user) if user is not None else (0, 0, None)
    if user is None or not stamp[0]:
        return render(request, "trainer/stats.html", {"stats_key": None, "ups": UPS})
    data = SimpleLazyObject(lambda: decision_selectors.stats_for(user=user))

    def plots() -> list[tuple[Any, Any, bool]]:
        if data.accuracy_plot is None or data.lost_plot is None:
            return []
        return [
            (data.accuracy_plot, _("Accuracy by day, percent"), True),
            (data.lost_plot, _("EV lost per 100 decisions by day, in bets"), False),
        ]

    key = (user.pk, *stamp)
    context = {"stats": data, "stats_key": key, "ups": UPS, "plots": plots}
    # Each name by what it shows: the statistics and their plots are the learner's record's.
    names = {"stats": key, "stats_key": key, "ups": UPS, "plots": key}
    return render_kept(request, "trainer/stats.html", context, key=names)


TOO_MANY_JOBS = _(
    "You have asked for many new charts lately. Please wait a few minutes and try again."
)


def _chart_query(data: Any) -> Any:
    query = data.copy()
    for name in ("poll", "csrfmiddlewaretoken"):
        query.pop(name, None)
    return query


@require_http_methods(["GET", "HEAD", "POST"])
def chart(request: HtmxHttpRequest) -> HttpResponse:
    """The chart of a rule set. A GET only reads: the stored chart, or the job's progress
    (polled by htmx), or "not computed yet" with a Compute button; the button's POST asks a
    worker for it (rate-limited per user and address) and comes back here."""
    posted = request.method == "POST"
    data = request.POST if posted else request.GET
    form = RulesForm(data) if data else RulesForm(initial={"preset": "thoth"})
    valid = form.is_valid()  # an unbound form is not: the house rules, as Rules() makes them
    rules = form.rules() if valid else Rules()
    query = _chart_query(data)
    status, error = 200, ""
    if posted:
        if not valid:
            status = 400
        else:
            try:
                computed_services.job_request(rules=rules, **limits.requester(request))
            except computed_services.RateLimited:
                status, error = 429, str(TOO_MANY_JOBS)
            except computed_services.Busy:
                status, error = 503, str(computed_services.BUSY)
            else:
                if not request.htmx:
                    return redirect(f"{reverse('trainer:chart')}?{query.urlencode()}")
    tables = computed_selectors.tables_get(rules)
    job = computed_selectors.chart_job_get(rules) if tables is None else None
    context = {
        "form": form,
        "rules": rules,
        "tables": tables,
        # The chart grids are kept per rule set ({% once %}): its tables never change.
        "tables_key": drill_key(rules) if tables is not None else None,
        "job": job,
        "place": computed_services.job_place(job) if job is not None else None,
        "pending": job is not None and job.status in computed_services.PENDING,
        "error": error,
        "query": query.urlencode(),
        "hidden": list(query.items()),
        # Called by the template only when the kept chart grids are not at hand ({% once %}).
        "grids": (lambda: _grids(tables)) if tables is not None else [],
        "codes": (lambda: {c.code() for c in tables.chart.cells.values()}) if tables else set(),
        "ups": UPS,
    }
    template = "trainer/chart.html"
    if request.htmx and (request.GET.get("poll") or posted):
        template += "#chart-body"
    response = render(request, template, context, status=status)
    if status == 503:
        response["Retry-After"] = str(computed_services.BUSY_RETRY_SECONDS)
    return response


def _grids(tables: Any) -> list[tuple[str, list[tuple[int, list[Any]]]]]:
    rows = {"hard": HARD_ROWS, "soft": SOFT_ROWS, "pair": PAIR_ROWS}
    return [
        (kind, [(row, [(up, tables.cell(kind, row, up)) for up in UPS]) for row in rows[kind]])
        for kind in ("hard", "soft", "pair")
    ]


TOO_MANY_INDEX_JOBS = _(
    "You have asked for many new tables lately. Please wait a few minutes and try again."
)


@require_http_methods(["GET", "HEAD", "POST"])
def indices(request: HtmxHttpRequest) -> HttpResponse:
    """The index plays of a rule set and count system, as the chart page shows the chart: a
    GET only reads (the stored table, the job's progress polled by htmx, or "not computed
    yet" with a Compute button); the button's POST asks a worker for them. Bad settings
    answer 400 with the form's errors."""
    posted = request.method == "POST"
    data = request.POST if posted else request.GET
    form = IndicesForm(data) if data else IndicesForm(initial={"preset": "thoth"})
    valid = form.is_valid()
    bound = form.is_bound
    rules = form.rules() if valid else Rules()
    system = form.system_chosen() if valid else SYSTEMS[DEFAULT_SYSTEM]
    query = _chart_query(data)
    status, error = (400 if bound and not valid else 200), ""
    if posted and valid:
        try:
            computed_services.job_request(
                rules=rules, kind=computed_indices.KIND, **limits.requester(request)
            )
        except computed_services.RateLimited:
            status, error = 429, str(TOO_MANY_INDEX_JOBS)
        else:
            if not request.htmx:
                return redirect(f"{reverse('trainer:indices')}?{query.urlencode()}")
    table = computed_indices.indices_get(rules, system) if status != 400 else None
    job = computed_selectors.chart_job_get(rules) if table is None and status != 400 else None
    pending = job is not None and job.status in computed_services.PENDING
    context = {
        "form": form,
        "rules": rules,
        "system": system,
        "table": table,
        "rows": index_rows(table) if table is not None else [],
        "job": job,
        "place": computed_services.job_place(job) if job is not None else None,
        "pending": pending,
        "error": error,
        "invalid": status == 400,
        "query": query.urlencode(),
        "hidden": list(query.items()),
        "decks_left": table.cards_left / 52 if table is not None else None,
    }
    template = "trainer/indices.html"
    if request.htmx and (request.GET.get("poll") or posted):
        template += "#indices-body"
    return render(request, template, context, status=status)
