"""core.forms: a form's copy of a choice field shares the choices and nothing a form changes."""

from __future__ import annotations

from django.utils import translation

from core.forms import ChoiceField
from trainer.forms import CELLS_FOCUS, FOCUS_CHOICES, DrillForm


def _focus_values(form: DrillForm) -> list[str]:
    return [value for value, _label in form.fields["focus"].choices]


def test_choices_offered_by_one_form_reach_no_other():
    cells = DrillForm({"focus": CELLS_FOCUS, "up": "6", "preset": "thoth"})
    assert cells.is_valid(), cells.errors
    assert CELLS_FOCUS in _focus_values(cells)
    assert CELLS_FOCUS not in _focus_values(DrillForm())
    assert CELLS_FOCUS not in _focus_values(DrillForm({"focus": "all", "up": "6"}))
    assert [v for v, _ in DrillForm.base_fields["focus"].choices] == [v for v, _ in FOCUS_CHOICES]


def test_a_forms_widget_attributes_errors_and_validators_are_its_own():
    one, two = DrillForm(), DrillForm()
    one.fields["up"].widget.attrs["data-x"] = "1"
    one.fields["up"].error_messages["required"] = "changed"
    one.fields["up"].validators.append(lambda value: None)
    assert "data-x" not in two.fields["up"].widget.attrs
    assert "data-x" not in DrillForm.base_fields["up"].widget.attrs
    assert two.fields["up"].error_messages["required"] != "changed"
    assert two.fields["up"].validators == DrillForm.base_fields["up"].validators
    assert one.fields["up"] is not two.fields["up"]
    assert one.fields["up"].widget is not two.fields["up"].widget


def test_the_copy_renders_and_validates_like_djangos():
    field = DrillForm.base_fields["focus"]
    assert isinstance(field, ChoiceField)
    form = DrillForm({"focus": "nonsense", "up": "6", "preset": "thoth"})
    assert not form.is_valid() and "focus" in form.errors
    with translation.override("uk"):
        html = str(DrillForm(initial={"focus": "pair"})["focus"])
    assert 'value="pair" selected' in html
    assert "Пари" in html  # the lazy labels are still translated when rendered
