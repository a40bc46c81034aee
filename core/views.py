"""The home page, the ``/`` language redirect and the site's own error pages."""

from __future__ import annotations

import sys

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.views.decorators.csrf import requires_csrf_token
from django.views.decorators.http import require_GET

from core.http import HtmxHttpRequest
from core.outage import bare_error_response, database_unavailable
from core.selectors import language_for_visitor


@require_GET
def root_redirect(request: HtmxHttpRequest) -> HttpResponse:
    code = language_for_visitor(request)
    with translation.override(code):
        url = reverse("core:home")
    response = HttpResponseRedirect(url)
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "core/home.html")


def _error(request: HttpRequest, status: int) -> HttpResponse:
    return render(request, f"errors/{status}.html", status=status)


@requires_csrf_token
def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _error(request, 400)


@requires_csrf_token
def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _error(request, 403)


@requires_csrf_token
def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _error(request, 404)


def server_error(request: HttpRequest) -> HttpResponse:
    """Django calls this inside its ``except`` block, so the failure is ``sys.exc_info()``.

    Neither page touches the database: the error may be that the database is away.
    """
    if database_unavailable(sys.exc_info()[1]):
        return bare_error_response(request, status=503)
    return bare_error_response(request, status=500)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    return render(request, "errors/403_csrf.html", status=403)
