"""Production: secret key required, HTTPS only, hashed and compressed static files."""

from config.settings.base import *  # noqa: F403
from config.settings.env import env

SECRET_KEY = env.secret_key(default=None)
DEBUG = env.debug(default=False)

# TLS ends at the load balancer, which says so in this header.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = True
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
LANGUAGE_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
