"""Choice fields that a form copies cheaply.

Every form Django makes deep-copies its class's fields, and a choice field's copy deep-copies its
choices and normalises them again for the widget: for the drill's settings (sixteen choice
fields, their labels lazy translations) that was nearly half of the drill page's time.  Our
choices are constants that no code changes in place (a form that offers other choices assigns
a new list, as ``DrillForm`` does), so each form's copy of a field shares them; the parts a form
may change (the widget and its attributes, the error messages, the validators) are still its
own.
"""

from __future__ import annotations

import copy
from typing import Any

from django import forms


class SharedChoicesMixin:
    """For a subclass of ``ChoiceField``: a form's copy shares the class field's choices."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        field: Any = self
        result = copy.copy(field)
        memo[id(field)] = result
        widget = copy.copy(field.widget)  # keeps the widget's normalised choices, shared
        widget.attrs = field.widget.attrs.copy()
        result.widget = widget
        result.error_messages = field.error_messages.copy()
        result.validators = field.validators[:]
        return result


class ChoiceField(SharedChoicesMixin, forms.ChoiceField):
    pass


class TypedChoiceField(SharedChoicesMixin, forms.TypedChoiceField):
    pass
