"""The user's own data: download it, delete the account.  Thin: check, call, answer."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.forms import PasswordCheckForm
from accounts.models import User
from core.http import HtmxHttpRequest
from privacy.exports import export_filename, export_stream
from privacy.services import (
    STAFF_REFUSED,
    DeletionConflict,
    DeletionRefused,
    account_delete,
    confirmation_token,
    confirmation_valid,
    deletion_preview,
)

CONFIRMATION_EXPIRED = gettext_lazy(
    "The confirmation has expired or does not belong to this account. Please enter your "
    "password again."
)
DELETION_RACED = gettext_lazy(
    "Your account changed while it was being deleted, and nothing was deleted. Please try again."
)


def _user(request: HtmxHttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


@login_required
@require_GET
@never_cache
def download(request: HtmxHttpRequest) -> StreamingHttpResponse:
    """Everything stored about the user, as a JSON file (a guest's too)."""
    user = _user(request)
    response = StreamingHttpResponse(
        export_stream(user=user, language=translation.get_language() or "en"),
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = content_disposition_header(True, export_filename(user=user))
    return response


def _delete_page(
    request: HtmxHttpRequest, form: PasswordCheckForm | None, *, status: int = 200
) -> HttpResponse:
    return render(request, "privacy/delete.html", {"form": form}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
@never_cache
def delete(request: HtmxHttpRequest) -> HttpResponse:
    """Step one: the password (a guest has none: the session is all that knows the guest),
    then the confirmation page, which says what will happen to each class."""
    user = _user(request)
    if user.is_staff or user.is_superuser:
        messages.error(request, STAFF_REFUSED)
        return redirect("accounts:account")
    bound = request.POST if request.method == "POST" else None
    form = None if user.is_guest else PasswordCheckForm(bound, user=user, request=request)
    if request.method == "POST" and (form is None or form.is_valid()):
        context = {"preview": deletion_preview(user=user), "token": confirmation_token(user=user)}
        return render(request, "privacy/confirm.html", context)
    return _delete_page(request, form, status=400 if request.method == "POST" else 200)


@login_required
@require_POST
@never_cache
def delete_confirm(request: HtmxHttpRequest) -> HttpResponse:
    """Step two: the signed ticket of step one; then everything goes and the session ends."""
    user = _user(request)
    form = None if user.is_guest else PasswordCheckForm(user=user, request=request)
    if not confirmation_valid(user=user, token=request.POST.get("token", "")):
        messages.error(request, CONFIRMATION_EXPIRED)
        return _delete_page(request, form, status=400)
    try:
        account_delete(user=user)
    except DeletionRefused:
        messages.error(request, STAFF_REFUSED)
        return redirect("accounts:account")
    except DeletionConflict:
        messages.error(request, DELETION_RACED)
        return _delete_page(request, form, status=409)
    was_guest = user.is_guest
    logout(request)
    if was_guest:
        messages.success(request, _("Everything stored about you as a guest has been deleted."))
    else:
        messages.success(
            request, _("Your account has been deleted, with everything stored about you.")
        )
    return redirect("core:home")
