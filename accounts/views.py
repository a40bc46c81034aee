"""Sign up, log in, log out, change password: parse, call a service, redirect."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login, logout, update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from accounts.attempts import remember_device
from accounts.backends import PATH as SIGN_IN_BACKEND
from accounts.forms import (
    CheckedPasswordChangeForm,
    LoginForm,
    NamesForm,
    PasswordCheckForm,
    SignUpForm,
)
from accounts.models import User
from accounts.services import (
    SignUpRefused,
    user_become_teacher,
    user_sign_up,
    user_update_names,
)
from core.http import HtmxHttpRequest, local_path
from core.languages import is_supported
from core.selectors import path_in_language

SIGNED_UP_ELSEWHERE = gettext_lazy(
    "You have just signed up for another account in this browser. "
    "Log out first to create a new one."
)


def _safe_next(request: HtmxHttpRequest) -> str | None:
    return local_path(request.POST.get("next") or request.GET.get("next"))


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
        user = _sign_up(request, form) if form.is_valid() else None
        if user is not None:
            # The next page is in the language just chosen; so is the greeting.
            with translation.override(user.preferred_language):
                welcome = _("Welcome to the Hall of Thoth, %(name)s.") % {"name": user.shown_name}
            messages.success(request, welcome)
            response = _redirect_in_language(request, user.preferred_language)
            # Signing up signs this browser in: it is the new account's own from now on, so
            # a spread log-in attack on the name never slows it down (as after a log-in).
            remember_device(request=request, response=response, username=user.get_username())
            return response
    else:
        form = SignUpForm(initial={"preferred_language": translation.get_language()})
    return render(request, "accounts/signup.html", {"form": form, "next": _safe_next(request)})


def _sign_up(request: HtmxHttpRequest, form: SignUpForm) -> User | None:
    """The new account, or None with the reason on the form (a race the form cannot see)."""
    data = form.cleaned_data
    try:
        return user_sign_up(
            request=request,
            username=data["username"],
            password=data["password1"],
            display_name=data["display_name"],
            role=data["role"],
            preferred_language=data["preferred_language"],
        )
    except SignUpRefused as exc:
        if exc.code == "taken":
            # Django's own "already exists" message, as the form gives it without the race.
            form.add_error("username", form.instance.unique_error_message(User, ["username"]))
            return None
    # A second click of the same sign-up: this browser's guest is already that account.
    pk = request.user.pk
    user = User.objects.filter(pk=pk).first() if pk is not None else None
    if (
        user is not None
        and user.username == data["username"]
        and user.check_password(data["password1"])
    ):
        login(request, user, backend=SIGN_IN_BACKEND)
        return user
    form.add_error(None, SIGNED_UP_ELSEWHERE)
    return None


@require_http_methods(["GET", "POST"])
def login_view(request: HtmxHttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = LoginForm(request, data=request.POST)
        if form.is_valid():
            user = form.get_user()
            assert isinstance(user, User)
            login(request, user)
            language = user.preferred_language
            if not is_supported(language):
                language = translation.get_language()
            with translation.override(language):
                messages.success(request, _("You are logged in."))
            response = _redirect_in_language(request, language)
            remember_device(request=request, response=response, username=user.get_username())
            return response
    else:
        form = LoginForm(request)
    return render(request, "accounts/login.html", {"form": form, "next": _safe_next(request)})


@require_POST
def logout_view(request: HtmxHttpRequest) -> HttpResponse:
    logout(request)
    messages.success(request, _("You are logged out."))
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
        form = CheckedPasswordChangeForm(user, request.POST, request=request)
        if form.is_valid():
            form.save()
            update_session_auth_hash(request, form.user)
            messages.success(request, _("Your password has been changed."))
            return redirect("core:home")
    else:
        form = CheckedPasswordChangeForm(user, request=request)
    return render(request, "accounts/password_change.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def account(request: HtmxHttpRequest) -> HttpResponse:
    """The account page: names, and the way to become a teacher."""
    user = request.user
    assert isinstance(user, User)
    if user.is_guest:
        messages.info(request, _("Sign up first to save your account."))
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
    # The deletion's first step (its view is privacy's: it needs every app's rows).
    delete_form = PasswordCheckForm(user=user, request=request)
    context = {"form": form, "delete_form": delete_form}
    return render(request, "accounts/account.html", context, status=status)


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
