"""Production settings, checked in a fresh process as an operator would run them."""

import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings
from django.contrib.sessions.backends.cached_db import KEY_PREFIX
from django.contrib.sessions.models import Session
from django.core.cache import cache

ROOT = Path(__file__).resolve().parents[2]


def run_manage(*args, **env_overrides):
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "DATABASE_URL", "REDIS_URL"))
    }
    env.update(env_overrides)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_settings_pass_check_deploy_without_warning():
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_SETTINGS_MODULE="config.settings.prod",
        DJANGO_SECRET_KEY="x" * 20 + "a-long-random-production-secret-key-0123456789",
        DJANGO_ALLOWED_HOSTS="thoth.example",
    )
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


def test_production_refuses_to_start_without_secret_key():
    result = run_manage("check", DJANGO_SETTINGS_MODULE="config.settings.prod")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY must be set in production." in result.stderr


def test_static_files_hashed_and_compressed_in_production():
    result = run_manage(
        "shell",
        "-c",
        "from django.conf import settings; print(settings.STORAGES['staticfiles']['BACKEND'])",
        DJANGO_SETTINGS_MODULE="config.settings.prod",
        DJANGO_SECRET_KEY="y" * 60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "core.storage.StaticFilesStorage"


def test_sessions_live_in_the_database(db, client):
    """Every session is a row (any process serves any request; an emptied cache loses none);
    the cache only holds a copy."""
    from accounts.models import User

    shared = "redis" in settings.CACHES["default"]["BACKEND"].lower()
    engine = "cached_db" if shared else "db"  # a copy only in a cache every process shares
    assert settings.SESSION_ENGINE.rsplit(".", 1)[1] == engine
    client.force_login(User.objects.create_user(username="kept", password="x"))
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert Session.objects.filter(session_key=key).exists()
    cache.delete(KEY_PREFIX + key)  # the copy gone (a restarted Redis): read from the row
    assert client.get("/en/accounts/").status_code == 200
    assert client.get("/en/accounts/").wsgi_request.user.username == "kept"


def test_cache_round_trip():
    cache.set("thoth-test-key", {"debens": 500}, timeout=30)
    assert cache.get("thoth-test-key") == {"debens": 500}
    cache.delete("thoth-test-key")
