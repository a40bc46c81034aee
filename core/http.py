"""Request type shared by every view, as in django-htmx's example project."""

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request that has passed through django-htmx's middleware (for type checkers)."""

    htmx: HtmxDetails
