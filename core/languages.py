"""The six languages of the site, each named in itself for the switcher.

Django's own ``name_local`` says "česky" for Czech; the product wants the noun "Čeština", so the
names live here rather than in ``django.conf.locale.LANG_INFO``.
"""

from __future__ import annotations

from django.conf import settings

NAMES_IN_THEMSELVES: dict[str, str] = {
    "en": "English",
    "uk": "Українська",
    "ru": "Русский",
    "be": "Беларуская",
    "cs": "Čeština",
    "hy": "Հայերեն",
}


def language_codes() -> list[str]:
    """The codes of ``settings.LANGUAGES`` in their declared order."""
    return [code for code, _name in settings.LANGUAGES]


def is_supported(code: str) -> bool:
    return code in NAMES_IN_THEMSELVES and code in language_codes()
