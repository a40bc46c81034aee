"""A move's name carries no quotation marks of its own: sentences quote it («%(move)s»), so a
name already quoted would show twice («««1 к 1 сразу»»»), as the ru review found."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.utils import translation

from core.display import MOVE_LABELS
from game.presenters import EVEN_MONEY_NAMES
from trainer.display import EVEN_MONEY_LABELS

QUOTES = "«»„“”\"'"
NAMES = [*MOVE_LABELS.values(), *EVEN_MONEY_NAMES.values(), *EVEN_MONEY_LABELS.values()]


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_no_move_name_is_quoted_by_its_translation(language):
    with translation.override(language):
        quoted = [
            str(name) for name in NAMES if str(name)[:1] in QUOTES or str(name)[-1:] in QUOTES
        ]
    assert quoted == []
