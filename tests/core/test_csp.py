"""The policy headers built once per process (core.csp): django-csp's own, header for header."""

from __future__ import annotations

import pytest
from csp.constants import HEADER, HEADER_REPORT_ONLY, SELF
from csp.decorators import csp_update
from csp.exceptions import CSPNonceError
from csp.middleware import CSPMiddleware
from csp.utils import build_policy
from django.http import HttpResponse
from django.test import RequestFactory, override_settings

from core.csp import ContentSecurityPolicyMiddleware


def _run(middleware_class, view, path="/en/"):
    request = RequestFactory().get(path)
    middleware = middleware_class(view)
    middleware.process_request(request)
    response = middleware.process_response(request, view(request))
    return request, response


def _page(request):
    return HttpResponse("page")


@pytest.mark.django_db
def test_a_page_carries_the_settings_policy_as_django_csp_writes_it(client):
    response = client.get("/en/")
    assert response[HEADER] == build_policy() and "default-src 'self'" in response[HEADER]
    assert HEADER_REPORT_ONLY not in response


def test_the_same_headers_as_django_csps_middleware():
    ours = _run(ContentSecurityPolicyMiddleware, _page)[1]
    theirs = _run(CSPMiddleware, _page)[1]
    assert ours[HEADER] == theirs[HEADER]
    with override_settings(
        CONTENT_SECURITY_POLICY_REPORT_ONLY={"DIRECTIVES": {"default-src": [SELF]}},
        CONTENT_SECURITY_POLICY={"DIRECTIVES": {"default-src": [SELF], "img-src": ["data:"]},
                                 "EXCLUDE_URL_PREFIXES": ["/static/"]},
    ):  # fmt: skip
        ours = _run(ContentSecurityPolicyMiddleware, _page)[1]
        theirs = _run(CSPMiddleware, _page)[1]
        assert "img-src data:" in ours[HEADER] == theirs[HEADER]  # kept headers follow settings
        assert ours[HEADER_REPORT_ONLY] == theirs[HEADER_REPORT_ONLY]
        excluded = _run(ContentSecurityPolicyMiddleware, _page, "/static/x.css")[1]
        assert HEADER not in excluded and HEADER_REPORT_ONLY in excluded
    assert "img-src data:" not in _run(ContentSecurityPolicyMiddleware, _page)[1][HEADER]


def test_a_views_own_policy_goes_through_django_csp():
    view = csp_update({"img-src": ["https://example.com"]})(_page)
    response = _run(ContentSecurityPolicyMiddleware, view)[1]
    assert response[HEADER] == _run(CSPMiddleware, view)[1][HEADER]
    assert "https://example.com" in response[HEADER]


def test_a_nonce_asked_for_after_the_header_is_an_error():
    request, _ = _run(ContentSecurityPolicyMiddleware, _page)
    with pytest.raises(CSPNonceError):
        str(request.csp_nonce)
