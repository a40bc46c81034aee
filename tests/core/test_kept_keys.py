"""Every page kept whole (``core.kept.render_kept``) reads only names its key names (issue 30).

Each kept page is requested for real; the context it was kept with is then drawn again in a
context that raises on any read of a name that is neither in the view's key nor one of the
layout's (``core.kept.LAYOUT_NAMES``, named by the layout keys).  A template that starts to
show something its key does not name fails here, not in front of another visitor.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.template import engines
from django.template.context import Context
from django.template.loader import get_template
from django.test import Client

from accounts.models import Role, User
from classroom.models import Membership
from classroom.services import class_create
from core import kept
from tests.classroom.conftest import make_decision
from tests.game.conftest import learner, rig, tables  # noqa: F401  (fixtures)
from tests.game.test_views import deal_rigged, move_url

pytestmark = pytest.mark.django_db


class NotInKey(Exception):
    """A template read a name its page's key does not name."""


class KeyedContext(Context):
    """A context that knows only the names it was given (and those the template sets)."""

    def __getitem__(self, name: str) -> Any:
        if name not in self:
            raise NotInKey(name)
        return super().__getitem__(name)

    def get(self, name: str, otherwise: Any = None) -> Any:
        if name not in self and name not in kept.ABSENT_NAMES:
            raise NotInKey(name)
        return super().get(name, otherwise)


@pytest.fixture
def drawn(monkeypatch) -> list[tuple[Any, str, dict[str, Any], set[str]]]:
    """(request, template, context, key names) of each page drawn to be kept."""
    kept.forget()
    seen: list[tuple[Any, str, dict[str, Any], set[str]]] = []
    real = kept.render_kept

    def spy(request, template_name, context, *, key, status=200):
        if key is not None:
            seen.append((request, template_name, context, set(key)))
        return real(request, template_name, context, key=key, status=status)

    for module in ("classroom.views", "game.views", "trainer.views"):
        monkeypatch.setattr(f"{module}.render_kept", spy)
    yield seen
    kept.forget()


def _draw_with_only_the_key(request: Any, template_name: str, context: dict, names: set) -> str:
    layout: dict[str, Any] = {}
    for processor in engines["django"].engine.template_context_processors:
        layout.update(processor(request))
    assert not kept.ABSENT_NAMES & (set(layout) | set(context))  # absent: none holds them
    values = {n: v for n, v in layout.items() if n in kept.LAYOUT_NAMES}
    values.update({n: v for n, v in context.items() if n in names})
    values["csrf_token"] = kept.TOKEN_PLACEHOLDER
    return str(get_template(template_name).template.render(KeyedContext(values)))


def _check(client: Client, path: str, drawn: list) -> str:
    response = client.get(path)
    assert response.status_code == 200
    assert len(drawn) == 1, "the page was not drawn to be kept"
    request, template_name, context, names = drawn.pop()
    page = _draw_with_only_the_key(request, template_name, context, names)
    assert "<html" in page
    return page


def test_the_class_dashboard_reads_only_what_its_key_names(client, drawn):
    teacher = User.objects.create_user(username="thoth", password="x", role=Role.TEACHER)
    student = User.objects.create_user(username="seshat", password="x", real_name="Seshat")
    klass = class_create(owner=teacher, name="Scribes")
    Membership.objects.create(classroom=klass, student=student)
    make_decision(student, correct=False, lost=0.5)
    client.force_login(teacher)
    assert "Seshat" in _check(client, f"/en/classes/{klass.pk}/", drawn)
    assert "Seshat" in _check(client, f"/en/classes/{klass.pk}/?sort=accuracy", drawn)


def test_the_statistics_read_only_what_their_key_names(client, drawn):
    meryt = User.objects.create_user(username="meryt", password="x")
    make_decision(meryt, correct=False, lost=0.5)
    client.force_login(meryt)
    _check(client, "/en/trainer/stats/", drawn)


def test_past_rounds_read_only_what_their_key_names(client, learner, tables, rig, drawn):  # noqa: F811
    client.force_login(learner)
    rnd = deal_rigged(learner, tables, rig, boxes=["10s 9d"], dealer="10h 7c")
    client.post(move_url(rnd), {"move": "stand", "seq": 0})
    assert ">Round 1</a>" in _check(client, "/en/play/history/", drawn)


def test_a_read_of_a_name_outside_the_key_is_caught(client, drawn):
    meryt = User.objects.create_user(username="meryt", password="x")
    make_decision(meryt, correct=False, lost=0.5)
    client.force_login(meryt)
    client.get("/en/trainer/stats/")
    request, template_name, context, names = drawn.pop()
    with pytest.raises(NotInKey, match="stats"):
        _draw_with_only_the_key(request, template_name, context, names - {"stats"})
