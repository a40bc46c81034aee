"""``/healthz`` for a load balancer: can this app server reach its database?"""

from __future__ import annotations

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from core.outage import RETRY_AFTER_SECONDS


@never_cache
@require_http_methods(["GET", "HEAD"])
def healthz(request: HttpRequest) -> HttpResponse:
    """200 "ok" when ``SELECT 1`` answers, else 503. No session, no template, no language:
    a balancer's probe must be cheap and must not depend on anything but the database."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        # Django drops the broken connection when the request ends (CONN_HEALTH_CHECKS and
        # close_old_connections), so the next probe connects afresh.
        response = HttpResponse("database unavailable\n", status=503, content_type="text/plain")
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    return HttpResponse("ok\n", content_type="text/plain")
