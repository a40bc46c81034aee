"""Reads for the core pages: which language a visitor wants, the same page in other languages."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest
from django.urls import Resolver404, resolve, reverse, translate_url
from django.utils import translation

from core.languages import NAMES_IN_THEMSELVES, is_supported, language_codes


@dataclass(frozen=True)
class LanguageLink:
    code: str
    name: str
    url: str
    current: bool


def language_for_visitor(request: HttpRequest) -> str:
    """A signed-in user's saved preference, else the cookie or the browser's language."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and is_supported(user.preferred_language):
        return str(user.preferred_language)
    code = translation.get_language_from_request(request, check_path=False)
    return code if is_supported(code) else settings.LANGUAGE_CODE


def url_in_language(request: HttpRequest, code: str, *, keep_query: bool = True) -> str:
    """The page being shown, in another language; the home page if the path names no page."""
    # The match the handler made for this request, when there was one (an error page may have
    # none): resolving the path again for every language cost more than the rest of the layout.
    match = getattr(request, "resolver_match", None)
    if match is None:
        try:
            match = resolve(request.path_info)
        except Resolver404:
            match = None
    with translation.override(code):
        if match is None or match.url_name is None or match.url_name == "root":
            return reverse("core:home")
        view_name = ":".join([*match.namespaces, match.url_name])
        try:
            url = reverse(view_name, args=match.args, kwargs=match.kwargs)
        except Exception:
            return reverse("core:home")
    query = request.META.get("QUERY_STRING", "")
    return f"{url}?{query}" if keep_query and query else url


def path_in_language(path: str, code: str) -> str:
    """A local path such as ``/en/trainer/?x=1`` moved into language ``code``.

    >>> path_in_language("/en/no-such-page/", "uk")
    '/en/no-such-page/'
    """
    source = translation.get_language_from_path(path) or translation.get_language()
    with translation.override(source):
        return translate_url(path, code)


def language_links(request: HttpRequest) -> list[LanguageLink]:
    current = translation.get_language()
    return [
        LanguageLink(
            code=code,
            name=NAMES_IN_THEMSELVES[code],
            url=url_in_language(request, code),
            current=code == current,
        )
        for code in language_codes()
    ]
