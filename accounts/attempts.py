"""Who is trying to log in, and how hard: the client address, the name tried, the slow-down.

django-axes locks a (username, client address) pair after five wrong passwords. That alone
lets a spread attacker (a new address every five tries) guess forever, and a lock by username
alone would let anyone lock the owner out with five requests. So, on top of the pair lock, a
username-wide *slow-down*: once a name has collected ``SLOWDOWN_AFTER`` failures from all
addresses within the cool-off time, each further try for it waits ``SLOWDOWN_SECONDS`` after the
last failure, unless the browser carries this user's *device cookie* (set by an earlier
successful log-in, or by the sign-up). The owner's own browsers are never slowed down, and a
refused try is not a failure, so it cannot lengthen the wait.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core import signing
from django.db.models import Max, Sum
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

SLOWDOWN_AFTER = 10
SLOWDOWN_SECONDS = 30
DEVICE_COOKIE = "thoth_device"
DEVICE_COOKIE_AGE = 60 * 60 * 24 * 365
DEVICE_SALT = "accounts.attempts.device"
# The names a browser has logged in as, newest first: a shared family computer has several.
DEVICE_NAMES_KEPT = 5
USERNAME_MAX = 150  # User.username's max_length: no longer name can be anyone's


def _networks(entries: Iterable[str]) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [ipaddress.ip_network(entry.strip(), strict=False) for entry in entries if entry.strip()]


def _valid_address(raw: str) -> str | None:
    try:
        return str(ipaddress.ip_address(raw.strip()))
    except ValueError:
        return None


def client_address(request: HttpRequest) -> str | None:
    """The client's address: ``REMOTE_ADDR``, unless that is a trusted proxy (the load
    balancer, ``DJANGO_TRUSTED_PROXIES``); then the right-most ``X-Forwarded-For`` entry that
    is not itself a trusted proxy. Entries left of it were written by the client and could
    be anything, so they are never believed.

    Set as ``AXES_CLIENT_IP_CALLABLE``.
    """
    remote = _valid_address(request.META.get("REMOTE_ADDR", ""))
    trusted = _networks(settings.TRUSTED_PROXIES)
    if remote is None or not trusted:
        return remote

    def is_trusted(address: str) -> bool:
        ip = ipaddress.ip_address(address)
        return any(ip in network for network in trusted)

    if not is_trusted(remote):
        return remote
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    for entry in reversed(forwarded.split(",")):
        address = _valid_address(entry)
        if address is None:
            return remote  # a garbled header: count the attempt against the proxy itself
        if not is_trusted(address):
            return address
    return remote


def attempt_username(request: HttpRequest, credentials: Mapping[str, Any] | None) -> str | None:
    """The name tried, cut to the longest name an account can have (axes stores 255
    characters: a longer one was a 500 on PostgreSQL). Set as ``AXES_USERNAME_CALLABLE``."""
    source: Mapping[str, Any] = credentials if credentials else request.POST
    raw = source.get(getattr(settings, "AXES_USERNAME_FORM_FIELD", "username"))
    if raw is None:
        return None
    return str(raw)[:USERNAME_MAX]


def username_failures(*, username: str, now: datetime | None = None) -> tuple[int, datetime | None]:
    """Failures for ``username`` from every address within the cool-off time, and the last."""
    from axes.models import AccessAttempt  # axes' models load after the app registry

    now = now or timezone.now()
    since = now - settings.AXES_COOLOFF_TIME
    found = AccessAttempt.objects.filter(
        username=username[:USERNAME_MAX], attempt_time__gte=since
    ).aggregate(failures=Sum("failures_since_start"), last=Max("attempt_time"))
    return int(found["failures"] or 0), found["last"]


def device_names(request: HttpRequest) -> list[str]:
    raw = request.COOKIES.get(DEVICE_COOKIE)
    if not raw:
        return []
    try:
        names = signing.loads(raw, salt=DEVICE_SALT, max_age=DEVICE_COOKIE_AGE)
    except signing.BadSignature:
        return []
    return [str(n) for n in names] if isinstance(names, list) else []


def slowdown_wait(*, request: HttpRequest, username: str) -> int:
    """Seconds this try for ``username`` must still wait; 0 if it may go ahead."""
    if not username or username in device_names(request):
        return 0
    failures, last = username_failures(username=username)
    if failures < SLOWDOWN_AFTER or last is None:
        return 0
    left = last + timedelta(seconds=SLOWDOWN_SECONDS) - timezone.now()
    return max(0, int(left.total_seconds() + 0.999))


def remember_device(*, request: HttpRequest, response: HttpResponse, username: str) -> None:
    """After a successful log-in or sign-up: this browser is one of ``username``'s own."""
    names = [username, *(n for n in device_names(request) if n != username)]
    response.set_cookie(
        DEVICE_COOKIE,
        signing.dumps(names[:DEVICE_NAMES_KEPT], salt=DEVICE_SALT),
        max_age=DEVICE_COOKIE_AGE,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
