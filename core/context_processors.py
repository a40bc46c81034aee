"""What every page's layout needs: the language switcher and the hreflang alternates (the
forms' CSRF token is Django's own context processor's)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import DisallowedHost
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from core.selectors import language_links


def _absolute(request: HttpRequest, url: str) -> str:
    # The 400 page for a forged Host header must still render: fall back to a relative URL.
    try:
        return request.build_absolute_uri(url)
    except DisallowedHost:
        return url


def site(request: HttpRequest) -> dict[str, Any]:
    """Lazy: an htmx fragment, which shows neither, resolves no URL for them."""
    links = SimpleLazyObject(lambda: language_links(request))

    def alternates() -> list[tuple[str, str]]:
        out = [
            # The switcher's link without its query: the same page, reversed once, not twice.
            (link.code, _absolute(request, link.url.partition("?")[0]))
            for link in links
        ]
        out.append(("x-default", _absolute(request, "/")))
        return out

    return {
        "language_links": links,
        "hreflang_alternates": SimpleLazyObject(alternates),
        "layout_keys": SimpleLazyObject(lambda: layout_keys(request)),
    }


def layout_keys(request: HttpRequest) -> dict[str, Any]:
    """What the layout's kept parts ({% once %} in base.html, and a page kept whole by
    ``core.kept.render_kept``) depend on: the page's address (and host, for the absolute
    alternates) and, for the header, who is looking (a signed-in user's own name; the log-out
    form's CSRF token is each request's own, put in by the tag).
    ``None`` renders anew: a page no view matched."""
    if getattr(request, "resolver_match", None) is None:
        return {"alternates": None, "header": None}
    try:
        host = request.get_host()
    except DisallowedHost:
        return {"alternates": None, "header": None}
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        who: Any = "visitor"
    elif getattr(user, "is_guest", False):
        who = "guest"
    else:
        who = ("user", user.pk, user.shown_name)
    return {
        "alternates": (request.scheme, host, request.path),
        "header": (who, request.get_full_path()),
    }
