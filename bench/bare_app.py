"""The yardstick of ``bench/pages.py``: a bare Django view that makes one SQL query.

``gunicorn --chdir bench bare_app`` serves it beside the app, under the same gunicorn settings
and on the same database (``DATABASE_URL``, with the app's connection reuse): no middleware, no
template, no session; one indexed row read (a house table's slug) and a short plain-text
answer.  What a page costs beyond this is the app's own work.
"""

from __future__ import annotations

import os

import dj_database_url
import django
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.urls import path


def bare(request: HttpRequest) -> HttpResponse:
    with connection.cursor() as cursor:
        cursor.execute("SELECT slug FROM game_table WHERE id = %s", [1])
        row = cursor.fetchone()
    return HttpResponse(f"table {row[0] if row else '-'}\n", content_type="text/plain")


urlpatterns = [path("", bare)]

if not settings.configured:
    database = dict(dj_database_url.parse(os.environ["DATABASE_URL"]))
    database.update(CONN_MAX_AGE=60, CONN_HEALTH_CHECKS=True)
    settings.configure(
        DEBUG=False,
        SECRET_KEY="bare",
        ALLOWED_HOSTS=["*"],
        ROOT_URLCONF=__name__,
        DATABASES={"default": database},
        MIDDLEWARE=[],
        INSTALLED_APPS=[],
        USE_TZ=True,
    )
    django.setup()

from django.core.wsgi import get_wsgi_application  # noqa: E402

application = get_wsgi_application()
