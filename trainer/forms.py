"""The drill's settings: the focus and the rule set (a preset, then any option set by hand)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from blackjack import DEFAULT_PRESET, PRESETS, DoubleOn, PairsBy, Peek, Rules, Surrender
from blackjack.counting import DEFAULT_SYSTEM, SYSTEMS, CountSystem
from core.display import payout_lazy
from core.forms import ChoiceField

AS_PRESET = ("", _("as in the rule set"))
YES_NO = [AS_PRESET, ("1", _("yes")), ("0", _("no"))]

FOCUS_CHOICES = [
    ("all", _("All hands")),
    ("hard", _("Hard totals")),
    ("soft", _("Soft totals")),
    ("pair", _("Pairs")),
    ("up", _("One dealer up card")),
    ("insurance", _("Insurance decisions")),
    ("exact", _("Where the chart and the exact play differ")),
    ("weak", _("My weak spots")),
    # Counting (issue 31): the first two ask for a number, the third is a hand at a count.
    ("running", _("Counting: the running count")),
    ("true_count", _("Counting: the true count")),
    ("index", _("Counting: index plays")),
]
# The focuses that use a count system, and those of them that show cards at a pace.
SYSTEM_FOCUSES = ("running", "true_count", "index")
PACE_FOCUSES = ("running",)
# The focuses whose answer is a number typed (a count), not a move: an assignment of one is
# counted in counts, not in hands.
NUMBER_FOCUSES = ("running", "true_count")
CELLS_FOCUS = "cells"
CELLS_LABEL = _("Hands chosen by your teacher")
UP_CHOICES = [(str(p), pgettext_lazy("up card", "A") if p == 1 else str(p)) for p in
              (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)]  # fmt: skip
PRESET_LABELS = {
    "thoth": _("Hall of Thoth (house rules)"),
    # the same names as the Variants tables (game), so each language has one name per preset
    "live": _("Live casino rules"),
    "sixdeck": _("Six-deck rules with surrender"),
    "free": _("Free-play rules, no insurance"),
    "european": _("European no-hole-card rules"),
}

# form field -> (Rules field, how to read the submitted text)
_OPTION_FIELDS: dict[str, tuple[str, Any]] = {
    "decks": ("decks", int),
    "h17": ("dealer_hits_soft_17", lambda v: v == "1"),
    "peek": ("peek", Peek),
    "bj_pays": ("blackjack_pays", lambda v: Fraction(*map(int, v.split(":")))),
    "double_on": ("double_on", DoubleOn),
    "double_soft": ("double_soft", lambda v: v == "1"),
    "das": ("double_after_split", lambda v: v == "1"),
    "max_hands": ("max_hands", int),
    "pairs_by": ("pairs_by", PairsBy),
    "resplit_aces": ("resplit_aces", lambda v: v == "1"),
    "hit_split_aces": ("hit_split_aces", lambda v: v == "1"),
    "surrender": ("surrender", Surrender),
    "insurance": ("insurance", lambda v: v == "1"),
}


class RulesForm(forms.Form):
    """A preset and, optionally, each rule option changed by hand ("" keeps the preset's)."""

    preset = ChoiceField(
        label=_("Rules"),
        choices=[(name, PRESET_LABELS.get(name, name)) for name in PRESETS],
        initial=DEFAULT_PRESET,
    )
    decks = ChoiceField(
        label=_("Decks"),
        required=False,
        choices=[AS_PRESET, *[(str(d), str(d)) for d in (1, 2, 4, 6, 8)]],
    )
    h17 = ChoiceField(label=_("Dealer hits soft 17"), required=False, choices=YES_NO)
    peek = ChoiceField(
        label=_("Dealer peeks"),
        required=False,
        choices=[
            AS_PRESET,
            (Peek.ACE_AND_TEN.value, _("with an ace or a ten up")),
            (Peek.ACE_ONLY.value, _("with an ace up only")),
            (Peek.NONE.value, _("never (no hole card)")),
        ],
    )
    bj_pays = ChoiceField(
        label=_("Blackjack pays"),
        required=False,
        choices=[AS_PRESET, ("3:2", payout_lazy(3, 2)), ("6:5", payout_lazy(6, 5))],
    )
    double_on = ChoiceField(
        label=_("Double on"),
        required=False,
        choices=[
            AS_PRESET,
            (DoubleOn.ANY_TWO.value, _("any two cards")),
            (DoubleOn.NINE_TO_ELEVEN.value, _("9 to 11 only")),
            (DoubleOn.TEN_TO_ELEVEN.value, _("10 and 11 only")),
        ],
    )
    double_soft = ChoiceField(label=_("Double soft hands"), required=False, choices=YES_NO)
    das = ChoiceField(label=_("Double after a split"), required=False, choices=YES_NO)
    max_hands = ChoiceField(
        label=_("Maximum hands after splitting"),
        required=False,
        choices=[AS_PRESET, ("2", "2"), ("3", "3"), ("4", "4")],
    )
    pairs_by = ChoiceField(
        label=_("Pairs"),
        required=False,
        choices=[
            AS_PRESET,
            (PairsBy.VALUE.value, _("equal value (K and 10 split)")),
            (PairsBy.RANK.value, _("equal rank only")),
        ],
    )
    resplit_aces = ChoiceField(label=_("Resplit aces"), required=False, choices=YES_NO)
    hit_split_aces = ChoiceField(label=_("Hit split aces"), required=False, choices=YES_NO)
    surrender = ChoiceField(
        # The rule's name, a noun ("Surrender: none / late"); the move's button is a verb.
        label=pgettext_lazy("rule option", "Surrender"),
        required=False,
        choices=[
            AS_PRESET,
            (Surrender.NONE.value, pgettext_lazy("surrender", "none")),
            (Surrender.LATE.value, _("late")),
        ],
    )
    insurance = ChoiceField(label=_("Insurance offered"), required=False, choices=YES_NO)

    OPTION_NAMES = tuple(_OPTION_FIELDS)

    def rules(self) -> Rules:
        """The rule set chosen; call after ``is_valid()``."""
        data = self.cleaned_data
        changes = {
            field: parse(data[name])
            for name, (field, parse) in _OPTION_FIELDS.items()
            if data.get(name)
        }
        return replace(PRESETS[data.get("preset") or DEFAULT_PRESET], **changes)

    def changed_options(self) -> bool:
        return any(self.cleaned_data.get(name) for name in _OPTION_FIELDS)

    def option_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in _OPTION_FIELDS]


SYSTEM_CHOICES = [(key, system.name) for key, system in SYSTEMS.items()]
# Seconds each card (or round) is shown in the running-count drill; "0" shows all at once.
PACE_CHOICES = [
    ("0", _("all at once")),
    *[(str(ms), f"{ms / 1000:g}") for ms in (500, 750, 1000, 1500, 2000, 3000, 5000)],
]
CARDS_CHOICES = [(str(n), str(n)) for n in (6, 10, 15, 20, 30, 52)]
STEP_CHOICES = [
    ("1", _("one card at a time")),
    ("6", _("in rounds: two hands and the dealer's")),
    ("8", _("in rounds: three hands and the dealer's")),
]


class DrillForm(RulesForm):
    focus = ChoiceField(label=_("Focus"), choices=FOCUS_CHOICES, initial="all")
    up = ChoiceField(label=_("Dealer's up card"), choices=UP_CHOICES, initial="6")
    # The counting drills' settings; the other focuses ignore them.
    system = ChoiceField(
        label=_("Count system"), choices=SYSTEM_CHOICES, initial=DEFAULT_SYSTEM, required=False
    )
    pace = ChoiceField(
        label=_("Seconds per card or round"), choices=PACE_CHOICES, initial="1000", required=False
    )
    cards = ChoiceField(
        label=_("Cards to count"), choices=CARDS_CHOICES, initial="10", required=False
    )
    step = ChoiceField(label=_("Shown"), choices=STEP_CHOICES, initial="1", required=False)

    field_order = ["focus", "up", "system", "pace", "cards", "step", "preset"]
    COUNT_FIELDS = ("system", "pace", "cards", "step")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The "cells" focus is only ever set by a drill started elsewhere (a class
        # assignment); it is offered in the form only while such a drill is on.
        if self.is_bound and self.data.get("focus") == CELLS_FOCUS:
            focus = self.fields["focus"]
            assert isinstance(focus, forms.ChoiceField)
            focus.choices = [*FOCUS_CHOICES, (CELLS_FOCUS, CELLS_LABEL)]

    def up_points(self) -> int:
        return int(self.cleaned_data.get("up") or 6)

    def system_key(self) -> str:
        return str(self.cleaned_data.get("system") or DEFAULT_SYSTEM)

    def pace_ms(self) -> int:
        return int(self.cleaned_data.get("pace") or 0)

    def card_count(self) -> int:
        return int(self.cleaned_data.get("cards") or 10)

    def per_step(self) -> int:
        return int(self.cleaned_data.get("step") or 1)

    def count_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.COUNT_FIELDS]


def settings_query(data: dict[str, str]) -> dict[str, str]:
    """The non-empty settings, for links and hidden fields."""
    return {k: v for k, v in data.items() if v}


class IndicesForm(RulesForm):
    """The index page's settings: the rule set and the count system."""

    system = ChoiceField(
        label=_("Count system"), choices=SYSTEM_CHOICES, initial=DEFAULT_SYSTEM, required=False
    )

    field_order = ["preset", "system"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A link may name only the system (?system=ko): the house rules, then.
        self.fields["preset"].required = False

    def system_chosen(self) -> CountSystem:
        """The count system chosen; call after ``is_valid()``."""
        return SYSTEMS[self.cleaned_data.get("system") or DEFAULT_SYSTEM]
