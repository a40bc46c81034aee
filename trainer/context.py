"""The drill's saved settings and an opaque *context* that other apps may start a drill with.

A class assignment (or anything else above the trainer) starts a drill by saving the drill's
settings and a context such as ``"assignment:42"`` in the session; every situation dealt with
exactly those settings carries the context into its decision record.  The trainer never
interprets the context, so it depends on nobody: changing the settings in the drill form ends
the context.  ``cells`` optionally limits the deal to given chart cells (focus ``"cells"``).

The app that started a drill may describe its context on the drill page ("this drill counts
toward …"): it registers a describer for its contexts' prefix (:func:`drill_notice_register`,
from its ``AppConfig.ready``), and the page includes the template the describer names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

SETTINGS_KEY = "trainer_settings"
CONTEXT_KEY = "trainer_context"
CONTEXT_MAX = 40


def drill_context_set(
    *,
    session: Any,
    settings: Mapping[str, str],
    context: str,
    cells: Iterable[tuple[str, int, int]] = (),
) -> None:
    """Save the drill settings and the context the next deals carry."""
    if not context or len(context) > CONTEXT_MAX:
        raise ValueError("A drill context is 1 to 40 characters.")
    saved = {k: str(v) for k, v in settings.items() if v}
    session[SETTINGS_KEY] = saved
    session[CONTEXT_KEY] = {
        "context": context,
        "settings": saved,
        "cells": [[str(k), int(r), int(u)] for k, r, u in cells],
    }


def drill_context_get(
    *, session: Any, settings: Mapping[str, str]
) -> tuple[str | None, list[tuple[str, int, int]]]:
    """The context and cells for a deal with ``settings``; none when the settings differ from
    the ones the context was started with (the learner has chosen another drill)."""
    saved = session.get(CONTEXT_KEY)
    if not isinstance(saved, dict):
        return None, []
    if saved.get("settings") != dict(settings):
        del session[CONTEXT_KEY]
        return None, []
    cells = [(str(k), int(r), int(u)) for k, r, u in saved.get("cells") or []]
    return str(saved.get("context") or "") or None, cells


def drill_context_peek(*, session: Any, settings: Mapping[str, str]) -> str | None:
    """The context the next deal with ``settings`` carries; reads only (unlike
    :func:`drill_context_get`, it never ends a context, so a GET writes nothing)."""
    saved = session.get(CONTEXT_KEY)
    if not isinstance(saved, dict) or saved.get("settings") != dict(settings):
        return None
    return str(saved.get("context") or "") or None


@dataclass(frozen=True)
class DrillNotice:
    """What the drill page shows about a context: a template of the describing app's and
    the values it renders (as ``notice``)."""

    template: str
    values: Mapping[str, Any]


Describer = Callable[..., DrillNotice | None]  # describe(*, user, context) -> notice or None
_DESCRIBERS: dict[str, Describer] = {}


def drill_notice_register(prefix: str, describe: Describer) -> None:
    """Let ``describe(user=..., context=...)`` tell the drill page about contexts that begin
    with ``prefix`` (say ``"assignment:"``)."""
    _DESCRIBERS[prefix] = describe


def drill_notice(*, user: Any, context: str | None) -> DrillNotice | None:
    """The notice of the app whose context this is; ``None`` for no context or no describer."""
    if not context:
        return None
    for prefix, describe in _DESCRIBERS.items():
        if context.startswith(prefix):
            return describe(user=user, context=context)
    return None
