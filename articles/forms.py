"""The house-edge calculator's options: the house rules, each option changed by the reader."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from articles.figures import HOUSE
from core.display import payout_lazy
from core.forms import ChoiceField, TypedChoiceField

YES = "1"


class CalculatorForm(forms.Form):
    """Every field starts at the house rules; a GET with ``c`` set is a submitted form (an
    unticked box is then "no")."""

    c = forms.CharField(required=False, widget=forms.HiddenInput, initial=YES)
    decks = TypedChoiceField(
        label=_("Decks"), coerce=int, choices=[(d, str(d)) for d in (1, 2, 4, 6, 8)]
    )
    h17 = forms.BooleanField(label=_("Dealer hits soft 17"), required=False)
    bj_pays = ChoiceField(
        label=_("Blackjack pays"), choices=[("3:2", payout_lazy(3, 2)), ("6:5", payout_lazy(6, 5))]
    )
    peek = ChoiceField(
        label=_("Dealer peeks"),
        choices=[
            ("ace_and_ten", _("with an ace or a ten up")),
            ("ace_only", _("with an ace up only")),
            ("none", _("never (no hole card)")),
        ],
    )
    double_on = ChoiceField(
        label=_("Double on"),
        choices=[
            ("any_two", _("any two cards")),
            ("9-11", _("9 to 11 only")),
            ("10-11", _("10 and 11 only")),
        ],
    )
    double_soft = forms.BooleanField(label=_("Double soft hands"), required=False)
    das = forms.BooleanField(label=_("Double after a split"), required=False)
    max_hands = TypedChoiceField(
        label=_("Maximum hands after splitting"),
        coerce=int,
        choices=[(n, str(n)) for n in (2, 3, 4)],
    )
    resplit_aces = forms.BooleanField(label=_("Resplit aces"), required=False)
    hit_split_aces = forms.BooleanField(label=_("Hit split aces"), required=False)
    surrender = forms.BooleanField(label=_("Late surrender"), required=False)

    # Form field -> (Rules field, value from the cleaned field)
    OPTIONS: dict[str, str] = {
        "decks": "decks",
        "h17": "dealer_hits_soft_17",
        "bj_pays": "blackjack_pays",
        "peek": "peek",
        "double_on": "double_on",
        "double_soft": "double_soft",
        "das": "double_after_split",
        "max_hands": "max_hands",
        "resplit_aces": "resplit_aces",
        "hit_split_aces": "hit_split_aces",
        "surrender": "surrender",
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")  # the labels stand above or beside their field
        super().__init__(*args, **kwargs)

    @classmethod
    def house_initial(cls) -> dict[str, Any]:
        return {
            "c": YES,
            "decks": HOUSE.decks,
            "h17": HOUSE.dealer_hits_soft_17,
            "bj_pays": "3:2",
            "peek": HOUSE.peek.value,
            "double_on": HOUSE.double_on.value,
            "double_soft": HOUSE.double_soft,
            "das": HOUSE.double_after_split,
            "max_hands": HOUSE.max_hands,
            "resplit_aces": HOUSE.resplit_aces,
            "hit_split_aces": HOUSE.hit_split_aces,
            "surrender": HOUSE.surrender.value == "late",
        }

    def options(self) -> dict[str, Any]:
        """Rule options as ``Rules`` takes them; call after ``is_valid()``."""
        d = self.cleaned_data
        return {
            "decks": d["decks"],
            "dealer_hits_soft_17": d["h17"],
            "blackjack_pays": d["bj_pays"],
            "peek": d["peek"],
            "double_on": d["double_on"],
            "double_soft": d["double_soft"],
            "double_after_split": d["das"],
            "max_hands": d["max_hands"],
            "resplit_aces": d["resplit_aces"],
            "hit_split_aces": d["hit_split_aces"],
            "surrender": "late" if d["surrender"] else "none",
        }
