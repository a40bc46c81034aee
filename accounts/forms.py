"""Forms for signing up and in; validation only — the writes are in ``services``."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts.models import Role, User
from accounts.services import GUEST_USERNAME_PREFIX

RESERVED_USERNAME = _("Names beginning with “guest-” are kept for guests. Please choose another.")


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

    def clean_username(self) -> str | None:
        # Django's method returns None when it has already recorded "name taken".
        username: str | None = super().clean_username()
        if username and username.lower().startswith(GUEST_USERNAME_PREFIX):
            raise forms.ValidationError(RESERVED_USERNAME, code="reserved")
        return username


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
