"""Middleware of the whole site: the remembered language, a page for every 405, NUL refused."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.conf import settings
from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation

from accounts.services import user_set_preferred_language
from core.languages import is_supported


class PreferredLanguageMiddleware:
    """On a page with a language prefix: save it for a signed-in user and in the cookie.

    The switcher is a set of plain links to the same page in another language, so following
    one of them is how a visitor changes language; this is where the change is remembered.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        code = translation.get_language_from_path(request.path_info)
        language = code if code and is_supported(code) else None
        user = getattr(request, "user", None)
        if (
            language
            and user is not None
            and user.is_authenticated
            and user.preferred_language != language
        ):
            user_set_preferred_language(user=user, language=language)
        response = self.get_response(request)
        if language and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != language:
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                language,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                path=settings.LANGUAGE_COOKIE_PATH,
                domain=settings.LANGUAGE_COOKIE_DOMAIN,
                secure=settings.LANGUAGE_COOKIE_SECURE,
                httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,  # "Lax" (config/settings/base.py)
            )
        return response


class MethodNotAllowedPageMiddleware:
    """Answer every 405 with a page in the visitor's language, not Django's empty body.

    ``require_POST`` and ``require_GET`` answer a wrong method with an empty
    ``HttpResponseNotAllowed``; a learner meets one by reloading or bookmarking a form's
    address (a top-up, a move) and would see a blank browser error.  Django has no
    ``handler405``, hence a middleware; the status and the ``Allow`` header stay.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or response.content:
            return response
        page = render(request, "errors/405.html", status=405)
        if response.has_header("Allow"):
            page["Allow"] = response["Allow"]
        return page


NUL = "\x00"
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _has_nul(pairs: Iterable[tuple[str, list[str]]]) -> bool:
    return any(NUL in key or any(NUL in value for value in values) for key, values in pairs)


class RejectNulMiddleware:
    """Answer 400 to a request with a NUL character in its path, query, form or cookies.

    PostgreSQL cannot hold NUL in text, so psycopg refuses any query that carries one (a
    ``ValueError``, i.e. a 500) wherever a view passes a raw value to the ORM; SQLite would
    store it. Refusing such requests once, here, covers every view, the admin and the session
    cookie, rather than each form field. Placed before anything reads the session.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if self._carries_nul(request):
            raise BadRequest("NUL character in the request")
        return self.get_response(request)

    @staticmethod
    def _carries_nul(request: HttpRequest) -> bool:
        if NUL in request.path_info or _has_nul(request.GET.lists()):
            return True
        if any(NUL in key or NUL in value for key, value in request.COOKIES.items()):
            return True
        if request.method == "POST" and request.content_type in FORM_TYPES:
            return _has_nul(request.POST.lists())
        return False
