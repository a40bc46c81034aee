"""Sign up, log in, log out, change password: parse, call a service, redirect."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login, logout, update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.forms import NamesForm, SignUpForm
from accounts.models import User
from accounts.services import user_become_teacher, user_sign_up, user_update_names
from core.http import HtmxHttpRequest
from core.languages import is_supported
from core.selectors import path_in_language


def _safe_next(request: HtmxHttpRequest) -> str | None:
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return None


def _redirect_in_language(request: HtmxHttpRequest, language: str) -> HttpResponseRedirect:
    """Go on in the user's saved language: to ``next`` if it is safe, else the home page."""
    target = _safe_next(request)
    if target:
        url = path_in_language(target, language)
    else:
        with translation.override(language):
            url = reverse("core:home")
    translation.activate(language)
    return HttpResponseRedirect(url)


@require_http_methods(["GET", "POST"])
def signup(request: HtmxHttpRequest) -> HttpResponse:
    if request.user.is_authenticated and not request.user.is_guest:
        return redirect("core:home")
    if request.method == "POST":
        form = SignUpForm(request.POST)
        if form.is_valid():
            user = user_sign_up(
                request=request,
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
                display_name=form.cleaned_data["display_name"],
                role=form.cleaned_data["role"],
                preferred_language=form.cleaned_data["preferred_language"],
            )
            # The next page is in the language just chosen; so is the greeting.
            with translation.override(user.preferred_language):
                welcome = _("Welcome to the Hall of Thoth, %(name)s.") % {"name": user.shown_name}
            messages.success(request, welcome)
            return _redirect_in_language(request, user.preferred_language)
    else:
        form = SignUpForm(initial={"preferred_language": translation.get_language()})
    return render(request, "accounts/signup.html", {"form": form, "next": _safe_next(request)})


@require_http_methods(["GET", "POST"])
def login_view(request: HtmxHttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = AuthenticationForm(request, data=request.POST)
        if form.is_valid():
            user = form.get_user()
            assert isinstance(user, User)
            login(request, user)
            language = user.preferred_language
            if not is_supported(language):
                language = translation.get_language()
            with translation.override(language):
                messages.success(request, _("You are signed in."))
            return _redirect_in_language(request, language)
    else:
        form = AuthenticationForm(request)
    return render(request, "accounts/login.html", {"form": form, "next": _safe_next(request)})


@require_POST
def logout_view(request: HtmxHttpRequest) -> HttpResponse:
    logout(request)
    messages.success(request, _("You are signed out."))
    return redirect("core:home")


@login_required
@require_http_methods(["GET", "POST"])
def password_change(request: HtmxHttpRequest) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)
    if user.is_guest:
        messages.info(request, _("Sign up first to choose a password."))
        return redirect("accounts:signup")
    if request.method == "POST":
        form = PasswordChangeForm(user, request.POST)
        if form.is_valid():
            form.save()
            update_session_auth_hash(request, form.user)
            messages.success(request, _("Your password has been changed."))
            return redirect("core:home")
    else:
        form = PasswordChangeForm(user)
    return render(request, "accounts/password_change.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def account(request: HtmxHttpRequest) -> HttpResponse:
    """The account page: names, and the way to become a teacher."""
    user = request.user
    assert isinstance(user, User)
    if user.is_guest:
        messages.info(request, _("Sign up first to keep an account."))
        return redirect("accounts:signup")
    form = NamesForm(request.POST or None, instance=user)
    if request.method == "POST" and form.is_valid():
        user_update_names(
            user=user,
            display_name=form.cleaned_data["display_name"],
            real_name=form.cleaned_data["real_name"],
        )
        messages.success(request, _("Your account has been saved."))
        return redirect("accounts:account")
    status = 400 if form.is_bound else 200
    return render(request, "accounts/account.html", {"form": form}, status=status)


@login_required
@require_POST
def become_teacher(request: HtmxHttpRequest) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)
    if user.is_guest:
        return redirect("accounts:signup")
    user_become_teacher(user=user)
    messages.success(request, _("You are a teacher now: open your first class."))
    return redirect("classroom:index")
