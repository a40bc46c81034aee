import pytest
from django.core.exceptions import ImproperlyConfigured

from config.settings.env import SECRET_KEY_MISSING, Env, default_database_url


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("true", True), ("1", True), ("Yes", True), ("false", False), ("0", False), ("off", False)],
)
def test_debug_words(raw, expected):
    assert Env({"DJANGO_DEBUG": raw}).debug(default=not expected) is expected


def test_debug_default_when_unset():
    assert Env({}).debug(default=True) is True
    assert Env({}).debug(default=False) is False


def test_debug_rejects_nonsense():
    with pytest.raises(ImproperlyConfigured, match="DJANGO_DEBUG"):
        Env({"DJANGO_DEBUG": "maybe"}).debug(default=False)


def test_secret_key_required_in_production():
    with pytest.raises(ImproperlyConfigured, match=SECRET_KEY_MISSING):
        Env({}).secret_key(default=None)


def test_secret_key_from_environment():
    assert Env({"DJANGO_SECRET_KEY": "s3cret"}).secret_key(default=None) == "s3cret"
    assert Env({}).secret_key(default="dev") == "dev"


def test_allowed_hosts_split_on_commas():
    env = Env({"DJANGO_ALLOWED_HOSTS": "a.example, b.example ,,"})
    assert env.allowed_hosts(default=["x"]) == ["a.example", "b.example"]


def test_database_defaults_to_sqlite_file():
    env = Env({})
    assert env.database_url() == default_database_url()
    config = env.database()
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert str(config["NAME"]).endswith("db.sqlite3")


def test_database_url_postgres():
    config = Env({"DATABASE_URL": "postgres://u:p@db.internal:5433/thoth"}).database()
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["HOST"], config["PORT"], config["NAME"]) == ("db.internal", 5433, "thoth")
    assert config["CONN_MAX_AGE"] == 60
    assert config["CONN_HEALTH_CHECKS"] is True


def test_cache_is_redis_when_redis_url_set():
    caches = Env({"REDIS_URL": "redis://127.0.0.1:6379/0"}).caches()
    assert caches["default"]["BACKEND"] == "django_redis.cache.RedisCache"
    assert caches["default"]["LOCATION"] == "redis://127.0.0.1:6379/0"


def test_cache_is_local_memory_without_redis():
    assert Env({}).caches()["default"]["BACKEND"].endswith("LocMemCache")


@pytest.mark.parametrize(("raw", "expected"), [("true", True), ("1", True), ("", False)])
def test_ci_flag(raw, expected):
    assert Env({"CI": raw}).ci() is expected


def test_trusted_proxies():
    assert Env({}).trusted_proxies() == []
    env = Env({"DJANGO_TRUSTED_PROXIES": "10.0.0.0/24, 192.0.2.7,"})
    assert env.trusted_proxies() == ["10.0.0.0/24", "192.0.2.7"]
    with pytest.raises(ImproperlyConfigured, match="DJANGO_TRUSTED_PROXIES"):
        Env({"DJANGO_TRUSTED_PROXIES": "balancer.internal"}).trusted_proxies()


def test_https_switch():
    assert Env({}).https(default=True) is True
    assert Env({"DJANGO_HTTPS": "false"}).https(default=True) is False
    with pytest.raises(ImproperlyConfigured, match="DJANGO_HTTPS"):
        Env({"DJANGO_HTTPS": "sometimes"}).https(default=True)


def test_postgres_connections_time_out_in_seconds():
    config = Env({"DATABASE_URL": "postgres://u@db.internal:5432/thoth"}).database()
    assert config["OPTIONS"]["connect_timeout"] == 5


def test_postgres_binds_parameters_on_the_server():
    config = Env({"DATABASE_URL": "postgres://u@db.internal:5432/thoth"}).database()
    assert config["OPTIONS"]["server_side_binding"] is True
