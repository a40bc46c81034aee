"""Production: secret key required, HTTPS only, hashed and compressed static files."""

from config.settings.base import *  # noqa: F403
from config.settings.env import env

SECRET_KEY = env.secret_key(default=None)
DEBUG = env.debug(default=False)

# TLS ends at the load balancer, which says so in this header.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
HTTPS = env.https(default=True)
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
LANGUAGE_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365 if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
