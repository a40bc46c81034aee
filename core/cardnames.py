"""Card names for screen readers, one whole phrase per card so each language can word it its
own way (a rank and a suit glued together would not agree in every language).  The table and
the drills both name their cards from here."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

CARD_NAMES: dict[str, Promise] = {
    "As": _("ace of spades"), "2s": _("two of spades"), "3s": _("three of spades"),
    "4s": _("four of spades"), "5s": _("five of spades"), "6s": _("six of spades"),
    "7s": _("seven of spades"), "8s": _("eight of spades"), "9s": _("nine of spades"),
    "10s": _("ten of spades"), "Js": _("jack of spades"), "Qs": _("queen of spades"),
    "Ks": _("king of spades"),
    "Ah": _("ace of hearts"), "2h": _("two of hearts"), "3h": _("three of hearts"),
    "4h": _("four of hearts"), "5h": _("five of hearts"), "6h": _("six of hearts"),
    "7h": _("seven of hearts"), "8h": _("eight of hearts"), "9h": _("nine of hearts"),
    "10h": _("ten of hearts"), "Jh": _("jack of hearts"), "Qh": _("queen of hearts"),
    "Kh": _("king of hearts"),
    "Ad": _("ace of diamonds"), "2d": _("two of diamonds"), "3d": _("three of diamonds"),
    "4d": _("four of diamonds"), "5d": _("five of diamonds"), "6d": _("six of diamonds"),
    "7d": _("seven of diamonds"), "8d": _("eight of diamonds"), "9d": _("nine of diamonds"),
    "10d": _("ten of diamonds"), "Jd": _("jack of diamonds"), "Qd": _("queen of diamonds"),
    "Kd": _("king of diamonds"),
    "Ac": _("ace of clubs"), "2c": _("two of clubs"), "3c": _("three of clubs"),
    "4c": _("four of clubs"), "5c": _("five of clubs"), "6c": _("six of clubs"),
    "7c": _("seven of clubs"), "8c": _("eight of clubs"), "9c": _("nine of clubs"),
    "10c": _("ten of clubs"), "Jc": _("jack of clubs"), "Qc": _("queen of clubs"),
    "Kc": _("king of clubs"),
}  # fmt: skip
