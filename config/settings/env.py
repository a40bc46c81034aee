"""The one place that reads the process environment.

Every setting that may differ between machines comes through :class:`Env`, so a reader can see
in one file everything an operator may set, and tests can build an :class:`Env` from a plain
mapping instead of patching ``os.environ``.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent.parent

SECRET_KEY_MISSING = "DJANGO_SECRET_KEY must be set in production."
TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off", ""})


def default_database_url() -> str:
    """The embedded default: an SQLite file beside ``manage.py``."""
    return f"sqlite:///{BASE_DIR / 'db.sqlite3'}"


@dataclass(frozen=True)
class Env:
    """A read-only view of the variables this project understands.

    >>> Env({"DJANGO_DEBUG": "false"}).debug(default=True)
    False
    >>> Env({}).allowed_hosts(default=["localhost"])
    ['localhost']
    """

    values: Mapping[str, str] = field(default_factory=lambda: os.environ)

    def _get(self, name: str) -> str | None:
        value = self.values.get(name)
        return value if value not in (None, "") else None

    def debug(self, *, default: bool) -> bool:
        raw = self._get("DJANGO_DEBUG")
        if raw is None:
            return default
        word = raw.strip().lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
        raise ImproperlyConfigured(f"DJANGO_DEBUG must be true or false, not {raw!r}.")

    def https(self, *, default: bool) -> bool:
        """``DJANGO_HTTPS``: false only to try the production settings over plain HTTP on
        loopback (``make serve``); behind a load balancer that terminates TLS leave it on."""
        raw = self._get("DJANGO_HTTPS")
        if raw is None:
            return default
        word = raw.strip().lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
        raise ImproperlyConfigured(f"DJANGO_HTTPS must be true or false, not {raw!r}.")

    def secret_key(self, *, default: str | None) -> str:
        """The secret key; ``default=None`` makes it required (production)."""
        raw = self._get("DJANGO_SECRET_KEY")
        if raw is not None:
            return raw
        if default is None:
            raise ImproperlyConfigured(SECRET_KEY_MISSING)
        return default

    def allowed_hosts(self, *, default: list[str]) -> list[str]:
        raw = self._get("DJANGO_ALLOWED_HOSTS")
        if raw is None:
            return list(default)
        return [host.strip() for host in raw.split(",") if host.strip()]

    def trusted_proxies(self) -> list[str]:
        """``DJANGO_TRUSTED_PROXIES``: addresses or networks of the load balancers whose
        ``X-Forwarded-For`` is believed (comma-separated, e.g. ``10.0.0.0/24``); none by
        default, so that a client cannot forge its address on a server reached directly."""
        raw = self._get("DJANGO_TRUSTED_PROXIES")
        entries = [entry.strip() for entry in (raw or "").split(",") if entry.strip()]
        for entry in entries:
            try:
                ipaddress.ip_network(entry, strict=False)
            except ValueError:
                raise ImproperlyConfigured(
                    f"DJANGO_TRUSTED_PROXIES: {entry!r} is not an address or a network."
                ) from None
        return entries

    def database_url(self) -> str:
        return self._get("DATABASE_URL") or default_database_url()

    def database(self) -> dict[str, Any]:
        """Django's ``DATABASES["default"]`` from ``DATABASE_URL``."""
        config: dict[str, Any] = dict(dj_database_url.parse(self.database_url()))
        if config["ENGINE"] == "django.db.backends.postgresql":
            # Reuse connections between requests; health checks drop ones the server closed.
            config["CONN_MAX_AGE"] = 60
            config["CONN_HEALTH_CHECKS"] = True
            # A database host that does not answer: fail in seconds (a 503), not minutes.
            config.setdefault("OPTIONS", {}).setdefault("connect_timeout", 5)
            # Parameters bound by the server, not quoted into the SQL in Python (a round's
            # state is kilobytes of JSON): 4 % of a table move's CPU (issue 17).
            config["OPTIONS"]["server_side_binding"] = True
            # A statement run a fifth time on a connection is prepared (psycopg's default
            # threshold, which Django turns off for the sake of transaction poolers: a pooler
            # in front must keep prepared statements, README): PostgreSQL parses and plans it
            # once, not on every move.
            config["OPTIONS"].setdefault("prepare_threshold", 5)
        return config

    def redis_url(self) -> str | None:
        return self._get("REDIS_URL")

    def caches(self) -> dict[str, Any]:
        """Redis when ``REDIS_URL`` is set (shared by every process), else local memory; and
        always two caches in each process's own memory: ``pages``, the pages and fragments it drew
        (``core.kept``), which a deployment's new code must not find (new processes), and
        ``template_fragments``, the fragments ``{% cache %}`` keeps (the table's move and betting
        forms, the same few per language), where a look-up costs less than the trip to Redis."""
        url = self.redis_url()
        pages = {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "thoth-pages",
            "TIMEOUT": None,  # a kept page's key changes with what it shows
            "OPTIONS": {"MAX_ENTRIES": 4096},  # ~100 MB at most (24 KB a page)
        }
        fragments = {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "thoth-fragments",
            "TIMEOUT": None,
            "OPTIONS": {"MAX_ENTRIES": 2000},
        }
        if url:
            return {
                "default": {
                    # django-redis, not Django's own RedisCache: Django's makes a new redis-py
                    # client (copying its table of ~170 reply handlers) for every call, about
                    # 0.3 M instructions each, more than the GETs a signed-in page sends cost;
                    # django-redis keeps one client per server, through its public settings.
                    "BACKEND": "django_redis.cache.RedisCache",
                    "LOCATION": url,
                    "KEY_PREFIX": "thoth",
                },
                "pages": pages,
                "template_fragments": fragments,
            }
        return {
            "default": {
                "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                "LOCATION": "thoth",
            },
            "pages": pages,
            "template_fragments": fragments,
        }

    def ci(self) -> bool:
        """True on a continuous-integration run, where a skipped browser test is a failure."""
        return (self._get("CI") or "").strip().lower() in TRUE_WORDS


env = Env()
