"""Pages and fragments drawn once and kept in this process's own cache (``caches["pages"]``).

A signed-in page kept per a stamp of what it shows (the class dashboard, the trainer's
statistics, past rounds) still paid for its layout, its blocks and the template engine's context
on every request: a quarter of the class dashboard's CPU (issue 17).  :func:`render_kept` keeps
the whole page, in the per-process local-memory cache ``pages`` of Django's cache framework.

Its key is derived, not promised: the view gives each name of the page's context the value that
determines it (``key={"data": stamp, "sort": sort, ...}``), a context name missing from the key
is an error, and the layout's names (who is looking, the address, the language) come from
:func:`core.context_processors.layout_keys`.  ``tests/core/test_kept.py`` renders every kept page
with a context that raises on any read of a name outside those, so a template that starts to
show something else fails there, not in front of another visitor.

No kept text holds a visitor's CSRF token: while it is drawn to be kept, the token is
:data:`TOKEN_PLACEHOLDER`, and each response gets the placeholder replaced by its own token
(Django's ``get_token``).  Kept in the process, not in the shared cache: a deployment's new code
starts new processes, so nothing kept outlives the template that made it.
"""

from __future__ import annotations

import hashlib
import pickle
import secrets
from collections.abc import Mapping
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.contrib.messages import get_messages
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import translation

from core.context_processors import layout_keys

CACHE = "pages"  # settings.CACHES: local memory, one per process
# Stands for the request's CSRF token in what is kept: letters and digits only, like a real
# token, so that it passes through escaping unchanged.
TOKEN_PLACEHOLDER = "csrfplaceholder" + secrets.token_hex(24)
# What the layout (base.html and the context processors) shows, each named by a layout key:
# a kept page may read these names besides its own context's.
LAYOUT_NAMES = frozenset(
    {
        "request",  # its address: layout_keys' "alternates" and "header"
        "user",  # who is looking: "header"
        "messages",  # a request with messages is never kept
        "csrf_token",  # the placeholder, replaced in each response
        "language_links", "hreflang_alternates", "layout_keys",  # the address and language
        "LANGUAGE_CODE", "LANGUAGE_BIDI", "LANGUAGES",  # the language
    }
)  # fmt: skip
# Names the layout's tags ask for that no context of the site holds: django-htmx's script tag
# asks for a CSP nonce, which the site does not use (a per-request value no kept page may hold).
ABSENT_NAMES = frozenset({"csp_nonce"})
PLAIN = (str, int, float, bool, Decimal, date, datetime, type(None))
_PLAIN_TYPES = frozenset(PLAIN)


def plain(value: Any) -> bool:
    """A value that names itself (so that it can be part of a key): text, numbers, times,
    ``None``, and tuples of them; not an object known by its identity."""
    stack = [value]
    while stack:
        v = stack.pop()
        kind = type(v)
        if kind is tuple:
            stack.extend(v)
        elif kind not in _PLAIN_TYPES and not isinstance(v, PLAIN):
            return False
    return True


def cache_key(kind: str, *parts: Any) -> str:
    """A short cache key for ``parts`` (plain values): the digest of their pickle (equal plain
    values pickle alike), so that the cache's key checks look at 40 characters."""
    if not plain(parts):
        raise TypeError(f"a kept {kind}'s key must be plain values: {parts!r}")
    digest = hashlib.sha1(pickle.dumps(parts, protocol=5), usedforsecurity=False).hexdigest()
    return f"{kind}:{digest}"


def forget() -> None:
    """Drop every kept page and fragment (tests: ids in a key are one test database's)."""
    caches[CACHE].clear()


def with_token(text: str, request: HttpRequest) -> str:
    """Kept text with the request's own CSRF token in place of the placeholder.  The token is
    asked for only where there is one: asking sets the CSRF cookie."""
    if TOKEN_PLACEHOLDER not in text:
        return text
    return text.replace(TOKEN_PLACEHOLDER, get_token(request))


def render_kept(
    request: HttpRequest,
    template_name: str,
    context: dict[str, Any],
    *,
    key: Mapping[str, Any] | None,
    status: int = 200,
) -> HttpResponse:
    """``render(request, template_name, context, status=status)``, the page kept per ``key``:
    for each name of ``context``, the plain value that determines it.  ``None`` renders anew,
    as do a page of another status than 200 (a refused form) and a request with messages to
    show (they are shown once)."""
    if key is not None and not set(context) <= set(key):
        raise ValueError(f"context names without a key: {sorted(set(context) - set(key))}")
    layout = layout_keys(request)
    if key is None or status != 200 or None in layout.values() or len(get_messages(request)):
        return render(request, template_name, context, status=status)
    pages = caches[CACHE]
    full_key = cache_key(
        "page",
        template_name,
        translation.get_language(),
        tuple(sorted(key.items())),
        *layout.values(),
    )
    text = pages.get(full_key)
    if text is None:
        text = render_to_string(
            template_name, {**context, "csrf_token": TOKEN_PLACEHOLDER}, request
        )
        pages.set(full_key, text, None)
    return HttpResponse(with_token(text, request))


def form_key(form: Any) -> tuple[Any, ...] | None:
    """What a form's rendering depends on: its initial values, or the data bound to its fields;
    ``None`` (render anew) for a form with errors."""
    if not form.is_bound:
        return ("initial", tuple(sorted((k, str(v)) for k, v in form.initial.items())))
    if form.errors:
        return None
    data = form.data
    values = []
    for name in form.fields:
        got = data.getlist(name) if hasattr(data, "getlist") else [data.get(name)]
        values.append((name, tuple(str(v) for v in got if v is not None)))
    return ("bound", tuple(values))
