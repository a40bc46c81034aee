"""Sign-in: Django's ModelBackend, reading a signed-in user's row from the shared cache.

Every signed-in request loads its user; that query was the largest part of what a signed-in
page costs beyond a visitor's (issue 17). ``accounts.selectors.session_user`` keeps the row in
the cache every process shares, and ``accounts.signals`` drops it whenever the row changes.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from accounts.selectors import session_user

# Sessions signed in before this backend existed name Django's ModelBackend; it stays listed
# after this one in AUTHENTICATION_BACKENDS so that they (and their guests, who have no
# password to sign in again with) stay signed in.
PATH = "accounts.backends.UserBackend"


class UserBackend(ModelBackend):
    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        user = super().authenticate(request, username=username, password=password, **kwargs)
        given = username if username is not None else kwargs.get(get_user_model().USERNAME_FIELD)
        if user is None and given is not None and password is not None:
            # Refused here, refused by the ModelBackend listed after: stop, so that a wrong
            # password is hashed once, not twice (Django counts the failure once either way).
            raise PermissionDenied
        return user

    def get_user(self, user_id: Any) -> Any:
        user = session_user(user_id)
        return user if user is not None and self.user_can_authenticate(user) else None
