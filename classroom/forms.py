"""Forms of the class pages: validation only; the writes are in ``services``."""

from __future__ import annotations

from datetime import datetime, time, timedelta

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from classroom import records
from core.forms import ChoiceField

BAD_RANGE = _("The start of the range is after its end.")
DEFAULT_UP = "6"


class ClassForm(forms.Form):
    name = forms.CharField(label=_("Class name"), max_length=100)
    description = forms.CharField(
        label=_("Description (optional)"),
        max_length=2000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class JoinForm(forms.Form):
    code = forms.CharField(label=_("Join code"), max_length=32)


class CoTeacherForm(forms.Form):
    username = forms.CharField(label=_("Teacher's username"), max_length=150)


class NoteForm(forms.Form):
    note = forms.CharField(
        label=_("Private note"),
        max_length=4000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
    )


class DateRangeForm(forms.Form):
    start = forms.DateField(
        label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    end = forms.DateField(
        label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if data.get("start") and data.get("end") and data["start"] > data["end"]:
            raise forms.ValidationError(BAD_RANGE, code="range")
        return data

    def bounds(self) -> tuple[datetime | None, datetime | None]:
        """``[since, until)`` as aware datetimes: the end day is included."""
        start, end = self.cleaned_data.get("start"), self.cleaned_data.get("end")
        tz = timezone.get_current_timezone()
        since = datetime.combine(start, time.min, tzinfo=tz) if start else None
        until = datetime.combine(end + timedelta(days=1), time.min, tzinfo=tz) if end else None
        return since, until


class _TaskFields(forms.Form):
    hands = forms.IntegerField(label=_("Number of hands"), min_value=1, max_value=1000, initial=50)
    target_accuracy = forms.IntegerField(
        label=_("Target accuracy, percent"), min_value=0, max_value=100, initial=90
    )
    due = forms.DateField(
        label=_("Due date (optional)"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    def due_at(self) -> datetime | None:
        """The end of the due day: answers that day still count."""
        due = self.cleaned_data.get("due")
        if due is None:
            return None
        return datetime.combine(due, time.max, tzinfo=timezone.get_current_timezone())


ASSIGNABLE_FOCUSES = [(v, label) for v, label in records.FOCUS_CHOICES]
UP_CHOICES = [("2", "2"), ("3", "3"), ("4", "4"), ("5", "5"), ("6", "6"), ("7", "7"),
              ("8", "8"), ("9", "9"), ("10", "10"), ("1", "A")]  # fmt: skip


class AssignmentForm(records.RulesForm, _TaskFields):
    """A drill focus, a rule set (a preset and any options changed), hands, target, due."""

    title = forms.CharField(label=_("Title"), max_length=100)
    focus = ChoiceField(label=_("Focus"), choices=ASSIGNABLE_FOCUSES, initial="all")
    up = ChoiceField(
        label=_("Dealer's up card"), choices=UP_CHOICES, initial=DEFAULT_UP, required=False
    )
    # The counting drills' settings (issue 31), as the trainer's drill form has them.
    system = ChoiceField(
        label=_("Count system"), choices=records.SYSTEM_CHOICES, initial="hilo", required=False
    )
    pace = ChoiceField(
        label=_("Seconds per card or round"),
        choices=records.PACE_CHOICES,
        initial="1000",
        required=False,
    )
    cards = ChoiceField(
        label=_("Cards to count"), choices=records.CARDS_CHOICES, initial="10", required=False
    )
    step = ChoiceField(label=_("Shown"), choices=records.STEP_CHOICES, initial="1", required=False)
    # A counting drill of the running or the true count is counted in counts typed.
    hands = forms.IntegerField(
        label=_("Number of hands or counts"),
        help_text=_("A running-count or true-count drill asks for counts; the others deal hands."),
        min_value=1,
        max_value=1000,
        initial=50,
    )

    field_order = ["title", "focus", "up", "system", "pace", "cards", "step", "preset"]

    def drill_settings(self) -> dict[str, str]:
        """What the trainer's drill form gets: focus, up card, preset, the options changed,
        and for a counting drill its system (and the running count's pace and cards)."""
        data = self.cleaned_data
        focus = data["focus"]
        settings = {
            "focus": focus,
            "up": data.get("up") or DEFAULT_UP,
            "preset": data["preset"],
        }
        if focus in records.SYSTEM_FOCUSES:
            settings["system"] = data.get("system") or "hilo"
        if focus in records.PACE_FOCUSES:
            settings["pace"] = data.get("pace") or "1000"
            settings["cards"] = data.get("cards") or "10"
            settings["step"] = data.get("step") or "1"
        settings.update({name: data[name] for name in self.OPTION_NAMES if data.get(name)})
        return settings


class RemedialForm(records.RulesForm, _TaskFields):
    """The class's costliest cells as an assignment: the rule set and the task."""

    field_order = ["preset", "hands", "target_accuracy", "due"]

    def drill_settings(self) -> dict[str, str]:
        data = self.cleaned_data
        settings = {"focus": records.CELLS_FOCUS, "up": DEFAULT_UP, "preset": data["preset"]}
        settings.update({name: data[name] for name in self.OPTION_NAMES if data.get(name)})
        return settings
