"""The class pages name chart rows and up cards with the language's letter for the ace, as the
trainer's chart does."""

from __future__ import annotations

import pytest
from django.utils import translation

from classroom import presenters
from classroom.templatetags.classroom_tags import up_label


@pytest.mark.parametrize(("lang", "ace"), [("en", "A"), ("uk", "Т"), ("cs", "A"), ("hy", "Տ")])
def test_cell_and_up_labels_use_the_language_letter(lang, ace):
    with translation.override(lang):
        labels = [presenters.cell_label("soft", 18), presenters.cell_label("pair", 1)]
        assert [*labels, up_label(1), up_label(7)] == [f"{ace}-7", f"{ace}-{ace}", ace, "7"]
