from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.forms import AdminLoginForm
from accounts.models import User


@admin.register(User)
class UserAdmin(DjangoUserAdmin[User]):
    list_display = (
        "username",
        "display_name",
        "role",
        "is_guest",
        "preferred_language",
        "is_staff",
    )
    list_filter = ("role", "is_guest", "preferred_language", "is_staff", "is_active")
    search_fields = ("username", "display_name", "email")
    fieldsets = (
        *(DjangoUserAdmin.fieldsets or ()),
        (
            _("Hall of Thoth"),
            {"fields": ("display_name", "role", "preferred_language", "is_guest")},
        ),
    )


# The admin's log-in gets the same username-wide slow-down as the site's.
admin.site.login_form = AdminLoginForm
