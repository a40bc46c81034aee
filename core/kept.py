"""What this process renders once and keeps: fragments (``{% once %}``) and whole pages.

A signed-in page that is kept per a stamp of what it shows (the class dashboard, the trainer's
statistics, past rounds) still paid for its layout, its template's blocks and the template
engine's context on every request: a quarter of the class dashboard's CPU (issue 17).
:func:`render_kept` keeps the whole page instead, per the view's key, the language and what the
layout shows (the address, who is looking), and serves it with a dictionary look-up.

A kept page or fragment never holds a visitor's CSRF token: while it is rendered to be kept, the
token is :data:`TOKEN_PLACEHOLDER`, and each response has the placeholder replaced by the
request's own token.  Kept in the process, not in the shared cache: a deployment's new code
starts new processes, so nothing kept outlives the template that made it.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from typing import Any

from django.contrib.messages import get_messages
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import translation

from core.context_processors import layout_keys

KEPT = 256  # entries per keeper, so that one page's or tag's many keys evict none of another's
# Stands for the request's CSRF token in what is kept: letters and digits only, like a real
# token, so that it passes through escaping unchanged.
TOKEN_PLACEHOLDER = "csrfplaceholder" + secrets.token_hex(24)


class Keeper:
    """A bounded LRU of rendered text, safe between threads."""

    def __init__(self) -> None:
        self._entries: OrderedDict[Any, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Any) -> Any:
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
            return found

    def put(self, key: Any, value: Any) -> None:
        with self._lock:
            self._entries[key] = value
            while len(self._entries) > KEPT:
                self._entries.popitem(last=False)

    def values(self) -> list[Any]:
        with self._lock:
            return list(self._entries.values())

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


# template name -> its pages: a learner's many past-rounds pages push out no class's dashboard
_pages: dict[str, Keeper] = {}
_pages_lock = threading.Lock()


def forget() -> None:
    """Drop every kept page (tests: ids in a key are one test database's)."""
    with _pages_lock:
        _pages.clear()


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
    key: Any,
    status: int = 200,
) -> HttpResponse:
    """``render(request, template_name, context, status=status)``, the page kept per ``key``:
    the page shows nothing that ``key``, the language and the layout's keys do not name.
    ``None`` renders anew, as do a page of another status than 200 (a refused form) and a
    request with messages to show (they are shown once)."""
    layout = layout_keys(request)
    if key is None or status != 200 or None in layout.values() or len(get_messages(request)):
        return render(request, template_name, context, status=status)
    with _pages_lock:
        pages = _pages.get(template_name)
        if pages is None:
            pages = _pages[template_name] = Keeper()
    full_key = (translation.get_language(), key, *layout.values())
    found = pages.get(full_key)
    if found is None:
        text = render_to_string(
            template_name, {**context, "csrf_token": TOKEN_PLACEHOLDER}, request
        )
        pages.put(full_key, text)
    else:
        text = found
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
