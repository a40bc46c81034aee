"""The Content-Security-Policy header: django-csp's middleware, as its documentation sets it up."""

from __future__ import annotations

import pytest
from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.utils import build_policy
from django.conf import settings


def test_the_policy_is_django_csps_own_middleware():
    assert "csp.middleware.CSPMiddleware" in settings.MIDDLEWARE


@pytest.mark.django_db
def test_a_page_carries_the_settings_policy_as_django_csp_writes_it(client):
    response = client.get("/en/")
    assert response[HEADER] == build_policy()
    assert "default-src 'self'" in response[HEADER]
    assert "script-src 'self'" in response[HEADER]
    assert HEADER_REPORT_ONLY not in response
