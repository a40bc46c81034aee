"""Plain values (words, formatted figures, card views) made once per language and process.

Django's ``gettext`` and ``number_format`` read the active language from a thread-local each
time (a few microseconds a call); the table asks for the same amounts, card names and log
lines on every deal and move (issue 17).  ``per_language`` is ``functools.lru_cache`` with the
active language in the key.  It keeps values only, never markup: the markup is the templates'
(fixed fragments are kept by ``{% cache %}``).  The catalogues and formats do not change while
a process runs; a test that changes a setting (``override_settings``) empties these caches, as
Django empties its own.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, wraps
from typing import Any, ParamSpec, TypeVar

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils.translation import get_language

P = ParamSpec("P")
T = TypeVar("T")

_CACHES: list[Any] = []


def per_language(make: Callable[P, T]) -> Callable[P, T]:
    """``make(*args)`` kept per (args, active language): ``make`` must depend on nothing else,
    and what it returns must be a plain value its callers do not change (text, frozen views;
    no markup)."""
    call: Callable[..., T] = make
    kept = lru_cache(maxsize=4096)(lambda _language, *args: call(*args))
    _CACHES.append(kept)

    @wraps(make)
    def get(*args: P.args, **kwargs: P.kwargs) -> T:
        assert not kwargs, "positional arguments only: they are the cache's key"
        return kept(get_language(), *args)

    return get


@receiver(setting_changed)
def _forget(**_kwargs: object) -> None:
    for kept in _CACHES:
        kept.cache_clear()
