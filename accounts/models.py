"""The custom user model, there from the first migration so that it never has to be swapped."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class Role(models.TextChoices):
    LEARNER = "learner", _("Learner")
    TEACHER = "teacher", _("Teacher")


class User(AbstractUser):
    """A learner or a teacher; a *guest* is a learner made on a first action, without sign-up.

    A guest keeps its row when it signs up, so its chips and statistics (rows that point at
    it) stay its own.
    """

    display_name = models.CharField(_("display name"), max_length=60, blank=True)
    # Shown to the user's teachers only (class pages and exports); everywhere else the
    # display name is used.
    real_name = models.CharField(_("real name"), max_length=120, blank=True)
    preferred_language = models.CharField(
        _("preferred language"),
        max_length=8,
        choices=settings.LANGUAGES,
        default=settings.LANGUAGE_CODE,
    )
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.LEARNER)
    is_guest = models.BooleanField(_("guest"), default=False)

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"

    def __str__(self) -> str:
        return self.shown_name

    @property
    def shown_name(self) -> str:
        """The name shown on pages: the display name if there is one."""
        return self.display_name or self.username

    @property
    def is_teacher(self) -> bool:
        return self.role == Role.TEACHER and not self.is_guest
