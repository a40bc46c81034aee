"""Pages that must render when the database cannot: the 500 and the "database away" 503.

They use no session, no user and no template that reads either (``base.html`` does both), so a
PostgreSQL restart yields a short page in the visitor's language instead of a second failure
inside the error handler. The language comes from the URL prefix alone.
"""

from __future__ import annotations

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import translation

from core.languages import is_supported

# Seconds a client (or a load balancer) should wait before asking again.
RETRY_AFTER_SECONDS = 5

# A server that refuses or drops connections, a timeout, a locked SQLite file: all pass. A
# ProgrammingError or IntegrityError is a bug or a race of ours, and stays a 500.
UNAVAILABLE_ERRORS: tuple[type[Exception], ...] = (OperationalError, InterfaceError)


def database_unavailable(exc: BaseException | None) -> bool:
    """True when ``exc`` (or what caused it) says the database cannot be reached now."""
    seen = 0
    while exc is not None and seen < 5:
        if isinstance(exc, UNAVAILABLE_ERRORS):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


def language_from_path(request: HttpRequest) -> str:
    code = translation.get_language_from_path(request.path_info)
    return code if code and is_supported(code) else settings.LANGUAGE_CODE


def bare_error_response(request: HttpRequest, *, status: int) -> HttpResponse:
    """``errors/<status>.html`` on the bare layout, with its own security headers.

    The headers are set here because the failure may have happened inside a middleware that
    would have added them (the CSP and frame middlewares run inside the session's).
    """
    language = language_from_path(request)
    with translation.override(language):
        body = render_to_string(f"errors/{status}.html", {"LANGUAGE_CODE": language})
    response = HttpResponse(body, status=status)
    response["Cache-Control"] = "no-store"
    response["X-Frame-Options"] = "DENY"
    response["X-Content-Type-Options"] = "nosniff"
    response["Referrer-Policy"] = settings.SECURE_REFERRER_POLICY
    response["Content-Security-Policy"] = BARE_PAGE_POLICY
    response["Content-Language"] = language
    if status == 503:
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


# The bare pages load one stylesheet and nothing else.
BARE_PAGE_POLICY = (
    "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'"
)
