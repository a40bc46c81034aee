"""Middleware of the whole site: the remembered language, and a page for every 405."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
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
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,
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
