"""How much new work one requester may ask for: fixed-window counters in the shared cache.

A new rule set costs a worker about a minute of CPU, so asking for one is limited per user and
per client address (an anonymous visitor has only the address). The counters live in the
cache (Redis in production, shared by every app server); a lost cache forgets them, which
only lets someone ask a little more, never less.
"""

from __future__ import annotations

import hashlib
import time
from typing import TypedDict

from django.core.cache import cache
from django.http import HttpRequest

from accounts.attempts import client_address

# (requests, seconds) per scope: new rule sets asked for within one window.
JOB_LIMITS: dict[str, tuple[int, int]] = {"user": (5, 600), "address": (10, 600)}


def _key(scope: str, ident: str, window: int) -> str:
    digest = hashlib.sha256(ident.encode()).hexdigest()[:32]
    return f"computed:jobs:{scope}:{digest}:{int(time.time() // window)}"


def job_allowed(*, user_key: str | None, address: str | None) -> bool:
    """Count one request for new work against each of the requester's scopes; ``False`` when
    any scope is over its limit in the current window."""
    allowed = True
    for scope, ident in (("user", user_key), ("address", address)):
        if not ident:
            continue
        limit, window = JOB_LIMITS[scope]
        key = _key(scope, ident, window)
        cache.add(key, 0, timeout=window)
        try:
            count = cache.incr(key)
        except ValueError:  # expired between add and incr: this is the window's first
            cache.add(key, 1, timeout=window)
            count = 1
        allowed = allowed and count <= limit
    return allowed


class Requester(TypedDict):
    user_key: str | None
    address: str | None


def requester(request: HttpRequest) -> Requester:
    """The scopes a request's new work counts against: its user (if signed in) and its client
    address (behind the trusted proxies, as for log-in attempts)."""
    user = getattr(request, "user", None)
    user_key = str(user.pk) if user is not None and user.is_authenticated else None
    return {"user_key": user_key, "address": client_address(request)}
