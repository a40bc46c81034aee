"""The CSRF token a page's forms carry, masked as Django masks it, with its mask drawn at once.

Django masks the cookie's secret afresh for every response (so that a compressed page never
repeats it: BREACH) with 32 characters drawn one by one from the system's random source, one
read each: 33 system calls and 0.18 M instructions a page (3 % of the home page's).  Here the
32 are drawn from one read, by rejection (a byte below 248 is one of 62 characters exactly as
often as any other), so the token is the same kind of value: Django's middleware unmasks and
checks it as its own (tests/core/test_csrf.py).  The mask is sent beside the masked secret and
is no secret itself; only its freshness counts.
"""

from __future__ import annotations

import os
from typing import Any

from django.http import HttpRequest
from django.middleware import csrf as django_csrf
from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH

_django: Any = django_csrf  # its private helpers, which the type stubs leave out

_CHARS = CSRF_ALLOWED_CHARS
_INDEX = {c: i for i, c in enumerate(_CHARS)}
_BELOW = 256 - 256 % len(_CHARS)  # 248: the bytes that map evenly onto the characters


def _mask(secret: str) -> str:
    drawn = [b % len(_CHARS) for b in os.urandom(2 * CSRF_SECRET_LENGTH) if b < _BELOW]
    if len(drawn) < CSRF_SECRET_LENGTH:  # 33 bytes of 64 at or above 248: about never
        return str(_django._mask_cipher_secret(secret))
    mask = drawn[:CSRF_SECRET_LENGTH]
    cipher = "".join(
        _CHARS[(_INDEX[c] + m) % len(_CHARS)] for c, m in zip(secret, mask, strict=False)
    )
    return "".join(_CHARS[m] for m in mask) + cipher


def get_token(request: HttpRequest) -> str:
    """``django.middleware.csrf.get_token``: the masked secret of the request's CSRF cookie
    (a new one if it has none), and the cookie sent again with the response."""
    if "CSRF_COOKIE" in request.META:
        secret = str(request.META["CSRF_COOKIE"])
        request.META["CSRF_COOKIE_NEEDS_UPDATE"] = True  # Django renews the cookie's expiry
    else:
        secret = str(_django._add_new_csrf_cookie(request))
    return _mask(secret)
