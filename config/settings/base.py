"""Settings shared by every environment; values that vary come from :mod:`.env`."""

from __future__ import annotations

from datetime import timedelta
from typing import Literal

from csp.constants import NONE, SELF
from django.utils.translation import gettext_lazy as _

from config.settings.env import BASE_DIR, env

SECRET_KEY = env.secret_key(default="dev-only-insecure-key-do-not-use-in-production")
DEBUG = env.debug(default=False)
ALLOWED_HOSTS = env.allowed_hosts(default=["127.0.0.1", "localhost"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.sitemaps",
    "django_htmx",
    "template_partials",
    "csp",
    "axes",
    "django_tasks",
    "django_tasks_db",
    "core",
    "accounts",
    "decisions",
    "computed",
    "game",
    "trainer",
    "articles",
    "classroom",
    "privacy",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # No page compression here: WhiteNoise serves the static files precompressed, and the
    # load balancer compresses the HTML (README, "Running in production"); Django's
    # GZipMiddleware cost 0.6-3.8 M instructions a page (8-55 %) at its level 6.
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # After the language is known (the 400 page is in it), before anything loads the session.
    "core.middleware.RejectNulMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "core.middleware.PreferredLanguageMiddleware",
    # Inside the locale middleware: the 405 page is in the visitor's language.
    "core.middleware.MethodNotAllowedPageMiddleware",
    # Axes last, as its documentation asks: it turns a lockout into its response.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "core.context_processors.site",
            ],
        },
    },
]

DATABASES = {"default": env.database()}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
CACHES = env.caches()

# `manage.py bootstrap` asks a worker for the counting article's simulation (minutes of CPU);
# the test settings turn it off, their task backend running a job at once.
ARTICLES_COUNT_AT_START = True

# Background work (the tables of a new rule set): django-tasks on its database backend. Web
# processes only enqueue; `manage.py tables_worker` processes run the tasks (README).
TASKS = {
    "default": {
        "BACKEND": "django_tasks_db.DatabaseBackend",
        "QUEUES": ["tables"],
    }
}

# The database holds every session (any process serves any request; a restart of the cache
# loses none).  With a cache every process shares (Redis), it keeps a copy, so that a signed-in
# page reads no session row; a cache of one process's memory would keep a copy that another
# process's log-out or change never reaches, so there the row is read each time.
SESSION_ENGINE = (
    "django.contrib.sessions.backends.cached_db"
    if env.redis_url()
    else "django.contrib.sessions.backends.db"
)

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "accounts.backends.UserBackend",
    # Only for the sessions signed in through it before UserBackend (accounts/backends.py).
    "django.contrib.auth.backends.ModelBackend",
]
# How long the shared cache keeps a signed-in user's row (every change drops it at once); 0
# without a cache every process shares, for the sessions' reason above.  The row carries its
# password hash, as the database does: Redis must be as private as the database (it holds the
# sessions already).
ACCOUNTS_USER_CACHE_SECONDS = 300 if env.redis_url() else 0
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "core:home"
LOGOUT_REDIRECT_URL = "core:home"

# Log-in attempts (accounts/attempts.py says why): five wrong passwords for one name from one
# client address lock that pair out for 15 minutes; a name with ten failures from everywhere
# is slowed down for browsers it has never logged in from. The client address is the
# load balancer's X-Forwarded-For entry when REMOTE_ADDR is one of TRUSTED_PROXIES.
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_LOCKOUT_TEMPLATE = "accounts/locked_out.html"
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "accounts.attempts.client_address"
AXES_USERNAME_CALLABLE = "accounts.attempts.attempt_username"
TRUSTED_PROXIES = env.trusted_proxies()

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("uk", _("Ukrainian")),
    ("ru", _("Russian")),
    ("be", _("Belarusian")),
    ("cs", _("Czech")),
    ("hy", _("Armenian")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The language cookie goes with top-level navigations only, like the session's.
LANGUAGE_COOKIE_SAMESITE: Literal["Lax"] = "Lax"
# Date and number formats of the languages Django has no formats for (Belarusian, Armenian).
FORMAT_MODULE_PATH = ["config.formats"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "core.storage.StaticFilesStorage"},
}

# Our own error pages for a refused CSRF token, in the visitor's language.
CSRF_FAILURE_VIEW = "core.views.csrf_failure"

X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

# No inline script or style anywhere: htmx is configured from a <meta> tag.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "form-action": [SELF],
        "base-uri": [SELF],
        "frame-ancestors": [NONE],
        "object-src": [NONE],
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}
