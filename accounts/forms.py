"""Forms for signing up and in; validation only — the writes are in ``services``."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import authenticate
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm, UserCreationForm
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.attempts import slowdown_wait
from accounts.models import Role, User
from accounts.services import GUEST_USERNAME_PREFIX

RESERVED_USERNAME = _(
    "Names beginning with “guest-” are reserved for guests. Please choose another."
)


class SignUpForm(UserCreationForm):  # type: ignore[type-arg]
    """Username, display name, role, language and the password twice, with Django's validators."""

    role = forms.ChoiceField(
        label=_("I am"),
        choices=Role.choices,
        initial=Role.LEARNER,
        widget=forms.RadioSelect,
    )
    preferred_language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "display_name", "role", "preferred_language")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["display_name"].help_text = _("Shown to your teacher and at the table.")

    def full_clean(self) -> None:
        """After a refused sign-up, the focus starts on the first field that has an error
        (Django's form always puts it on the username), so that its message is read first."""
        super().full_clean()
        if not self.is_bound or not self.errors:
            return
        first = next((name for name in self.fields if name in self.errors), None)
        if first is None:  # only errors of the whole form: leave the focus where it was
            return
        for name, field in self.fields.items():
            if name == first:
                field.widget.attrs["autofocus"] = True
            else:
                field.widget.attrs.pop("autofocus", None)

    def clean_username(self) -> str | None:  # type: ignore[override]
        # Django's method returns None when it has already recorded "name taken".
        username: str | None = super().clean_username()
        if username and username.lower().startswith(GUEST_USERNAME_PREFIX):
            raise forms.ValidationError(RESERVED_USERNAME, code="reserved")
        return username


def slowdown_message(seconds: int) -> str:
    return ngettext(
        "Too many wrong passwords have been entered for this username from different places."
        " Please wait %(count)s second and try again.",
        "Too many wrong passwords have been entered for this username from different places."
        " Please wait %(count)s seconds and try again.",
        seconds,
    ) % {"count": seconds}


class SlowDownMixin:
    """Refuse a try for a name under the username-wide slow-down (``accounts.attempts``)
    before the password is checked, so that the refusal is not one more failure."""

    request: Any
    data: Any

    def clean(self) -> dict[str, Any]:
        username = str(self.data.get("username", ""))[:150]
        wait = slowdown_wait(request=self.request, username=username) if self.request else 0
        if wait:
            raise forms.ValidationError(slowdown_message(wait), code="slowed_down")
        cleaned: dict[str, Any] = super().clean()  # type: ignore[misc]
        return cleaned


class LoginForm(SlowDownMixin, AuthenticationForm):
    pass


class AdminLoginForm(SlowDownMixin, AdminAuthenticationForm):
    pass


class CheckedPasswordChangeForm(PasswordChangeForm):
    """The old password is checked through ``authenticate``, so that django-axes counts a
    wrong one like a wrong log-in: five from one address lock that pair out (429)."""

    def __init__(self, user: User, *args: Any, request: Any, **kwargs: Any) -> None:
        super().__init__(user, *args, **kwargs)
        self.request = request

    def clean_old_password(self) -> str:
        old: str = self.cleaned_data["old_password"]
        found = authenticate(self.request, username=self.user.get_username(), password=old)
        if found is None or found.pk != self.user.pk:
            raise forms.ValidationError(
                self.error_messages["password_incorrect"], code="password_incorrect"
            )
        return old


class NamesForm(forms.ModelForm):  # type: ignore[type-arg]
    """The names on the account page; the real name is shown to the user's teachers only."""

    class Meta:
        model = User
        fields = ("display_name", "real_name")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["real_name"].help_text = _(
            "Optional. Only the teachers of your classes see it."
        )


class PasswordCheckForm(forms.Form):
    """The user's password typed again before something that cannot be undone (deleting the
    account).  Checked through ``authenticate`` like the password change, so that django-axes
    counts a wrong one like a wrong log-in: five from one address lock that pair out (429)."""

    error_messages = {
        "password_incorrect": _("This is not your password. Please enter it again."),
    }

    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args: Any, user: User, request: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        self.request = request

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        found = authenticate(self.request, username=self.user.get_username(), password=password)
        if found is None or found.pk != self.user.pk:
            raise forms.ValidationError(
                self.error_messages["password_incorrect"], code="password_incorrect"
            )
        return password
