"""Django's own messages that its Armenian or Belarusian catalogue leaves untranslated.

Nothing calls :func:`_catalogue`; it exists so that ``makemessages`` copies these msgids into
our catalogues, which take precedence over Django's (``LOCALE_PATHS``), and a visitor reads
every sign-up error in their own language.
"""

from django.utils.translation import gettext, ngettext


def _catalogue() -> list[str]:  # pragma: no cover - read by makemessages only
    return [
        # The label suffix of every form (Django's ``_(":")``): Armenian sets a label off with
        # «՝», not the Latin colon, which reads like its full stop «։».
        gettext(":"),
        # The user model's field name, shown as the sign-up and log-in label: our own word
        # per language (hy «օգտանուն», as the class export's "Username"), not Django's.
        gettext("username"),
        # Django's forms' and log-in's words that its Belarusian catalogue gives in the
        # classical spelling or mistranslates («Набярыце ўвесь лік»): our own in every language.
        gettext("Password confirmation"),
        gettext("New password confirmation"),
        gettext("Enter a whole number."),
        gettext("Enter a valid date."),
        gettext("Ensure this value is less than or equal to %(limit_value)s."),
        gettext("Ensure this value is greater than or equal to %(limit_value)s."),
        gettext("This account is inactive."),
        gettext(
            "Please enter a correct %(username)s and password. Note that both fields may be "
            "case-sensitive."
        ),
        gettext("Select a valid choice. %(value)s is not one of the available choices."),
        gettext("The two password fields didn’t match."),
        gettext("Enter the same password as before, for verification."),
        gettext("Your password can’t be too similar to your other personal information."),
        gettext("Your password can’t be a commonly used password."),
        gettext("Your password can’t be entirely numeric."),
        gettext("This password is too common."),
        gettext("This password is entirely numeric."),
        gettext("Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only."),
        gettext(
            "Enter a valid username. This value may contain only letters, numbers, "
            "and @/./+/-/_ characters."
        ),
        ngettext(
            "This password is too short. It must contain at least %d character.",
            "This password is too short. It must contain at least %d characters.",
            8,
        ),
        ngettext(
            "Your password must contain at least %(min_length)d character.",
            "Your password must contain at least %(min_length)d characters.",
            8,
        ),
    ]
