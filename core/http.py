"""Request type shared by every view, as in django-htmx's example project; safe ``next``."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request that has passed through django-htmx's middleware (for type checkers)."""

    htmx: HtmxDetails


def local_path(target: str | None) -> str | None:
    """``target`` if it is a path on this site (``/en/play/``), else None.

    Absolute URLs are refused even when they name our own host: ``http://our-host/…`` would
    take a visitor who came over HTTPS back to plain HTTP, and a path is all a form needs.

    >>> local_path("/en/play/?x=1"), local_path("http://testserver/en/"), local_path("//evil")
    ('/en/play/?x=1', None, None)
    """
    if not target or not target.startswith("/") or target.startswith(("//", "/\\")):
        return None
    if not url_has_allowed_host_and_scheme(target, allowed_hosts=set()):
        return None
    return target
