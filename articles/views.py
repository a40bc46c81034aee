"""The rules pages: the index, each article, the house-edge calculator (GET reads, POST asks
for a computation), the sitemap's robots.txt."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST

from articles import calculator, content, selectors
from articles.forms import CalculatorForm
from computed import limits
from computed.services import RateLimited
from core.http import HtmxHttpRequest

CALCULATOR_SLUG = "house-edge"
READ_ALSO = 3
TOO_MANY = _(
    "You have asked for many new computations lately. Please wait a few minutes and try again."
)


def _lang() -> str:
    return translation.get_language() or "en"


@require_GET
def index(request: HtmxHttpRequest) -> HttpResponse:
    lang = _lang()
    return render(request, "articles/index.html", {"articles": content.sources(lang)})


def _calculator_form(request: HtmxHttpRequest) -> CalculatorForm:
    if request.GET.get("c"):
        form = CalculatorForm(request.GET)
        if form.is_valid():
            return form
        return form
    return calculator.house_form()


def _calculator_html(request: HtmxHttpRequest, form: CalculatorForm) -> str:
    answer = calculator.calculator_answer(form) if form.is_valid() else None
    return render_to_string(
        "articles/blocks/calculator.html",
        {
            "form": form,
            "answer": answer,
            "query": request.GET.urlencode(),
            "hidden": _hidden(form),
            "figures_ready": True,
        },
        request=request,
    )


def _hidden(form: CalculatorForm) -> list[tuple[str, str]]:
    """The form's options as hidden fields of the "compute" POST."""
    if not form.is_valid():
        return []
    out = []
    for name in form.fields:
        value = form.cleaned_data.get(name)
        if value is True:
            out.append((name, "on"))
        elif value not in (False, None, ""):
            out.append((name, str(value)))
    return out


def _alternates(request: HtmxHttpRequest, slug: str, langs: list[str]) -> list[tuple[str, str]]:
    out = [(code, request.build_absolute_uri(content.article_url(code, slug))) for code in langs]
    out.append(("x-default", request.build_absolute_uri(content.article_url("en", slug))))
    return out


@require_GET
def article(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    lang = _lang()
    blocks = None
    if slug == CALCULATOR_SLUG:
        blocks = {"calculator": _calculator_html(request, _calculator_form(request))}
    page = selectors.page(lang, slug, blocks=blocks)
    if page is None:
        raise Http404("no such article in this language")
    others = [s for s in content.sources(lang) if s.slug != slug]
    order = list(content.SLUGS)
    here = order.index(slug)
    # "Read also": the next articles in the index's order, wrapping round.
    others.sort(key=lambda s: (order.index(s.slug) - here) % len(order))
    langs = [code for code in content.language_codes() if content.source(code, slug) is not None]
    return render(
        request,
        "articles/article.html",
        {
            "page": page,
            "source": page.source,
            "read_also": others[:READ_ALSO],
            "canonical": request.build_absolute_uri(content.article_url(lang, slug)),
            "hreflang_alternates": _alternates(request, slug, langs),
        },
    )


@require_GET
def calculator_part(request: HtmxHttpRequest) -> HttpResponse:
    """The calculator alone, for htmx (a change of option, the progress poll)."""
    form = _calculator_form(request)
    status = 200 if form.is_valid() else 400
    return HttpResponse(_calculator_html(request, form), status=status)


@require_POST
def calculator_compute(request: HtmxHttpRequest) -> HttpResponse:
    """Ask for the edges of the reader's rules to be computed; then show the progress."""
    form = CalculatorForm(request.POST)
    if not form.is_valid():
        return HttpResponse(_calculator_html(request, form), status=400)
    try:
        calculator.calculator_start(form, **limits.requester(request))
    except RateLimited:
        notice = render_to_string("articles/blocks/refusal.html", {"message": TOO_MANY})
        return HttpResponse(notice + _calculator_html(request, form), status=429)
    query = request.POST.copy()
    query.pop("csrfmiddlewaretoken", None)
    url = reverse("articles:article", kwargs={"slug": CALCULATOR_SLUG})
    target = f"{url}?{query.urlencode()}#calculator"
    if request.htmx:
        request.GET = query  # type: ignore[assignment]  # the progress block polls with these options
        return HttpResponse(_calculator_html(request, form))
    return redirect(target, permanent=False)


@require_GET
def robots_txt(request: HtmxHttpRequest) -> HttpResponse:
    sitemap = request.build_absolute_uri(reverse("sitemap"))
    lines = ["User-agent: *", "Disallow: /admin/", "Disallow: /*/accounts/", f"Sitemap: {sitemap}"]
    return HttpResponse("\n".join(lines) + "\n", content_type="text/plain")
