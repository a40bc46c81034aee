"""django-csp's middleware with the site's policy headers built once per process.

The site sets no policy per view (no ``csp_update``, ``csp_replace``, exemptions) and uses no
nonce, so every response carries the same header, made from the settings alone.  django-csp
builds it anew twice a response (the policy and the report-only one, each from dataclass
copies): 0.27 M instructions a response, 3 to 4 % of a page's.  A response or request that
does carry a part of its own goes through django-csp unchanged (tests/core/test_csp.py).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject, CSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest
from django.http.response import HttpResponseBase

# What a view or a decorator sets on a response to change its policy (django-csp's names).
_OWN_PARTS = ("_csp_config", "_csp_update", "_csp_replace", "_csp_exempt",
              "_csp_config_ro", "_csp_update_ro", "_csp_replace_ro", "_csp_exempt_ro")  # fmt: skip


@cache
def _headers() -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """(header, value, excluded path prefixes) for each policy the settings define."""
    out = []
    for header, setting, report_only in (
        (HEADER, "CONTENT_SECURITY_POLICY", False),
        (HEADER_REPORT_ONLY, "CONTENT_SECURITY_POLICY_REPORT_ONLY", True),
    ):
        value = build_policy(report_only=report_only)
        if value:
            policy = getattr(settings, setting, None) or {}
            out.append((header, value, tuple(policy.get("EXCLUDE_URL_PREFIXES", None) or ())))
    return tuple(out)


@receiver(setting_changed)
def _forget(*, setting: str, **kwargs: Any) -> None:
    if setting.startswith("CONTENT_SECURITY_POLICY"):
        _headers.cache_clear()


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        own = any(hasattr(response, name) for name in _OWN_PARTS)
        if own or settings.DEBUG or getattr(request, "_csp_nonce", None) is not None:
            return super().process_response(request, response)
        for header, value, excluded in _headers():
            if header not in response and not request.path_info.startswith(excluded):
                response[header] = value
        # As django-csp does: a nonce asked for after the header is written is an error.
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)  # type: ignore[attr-defined]
        return response
