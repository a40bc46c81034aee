"""``{% once %}``: a fragment rendered once per key and language, then served as kept."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.cache import caches
from django.template import Context, Template, TemplateSyntaxError
from django.utils import translation

from core import kept
from core.templatetags import once

TEMPLATE = Template(
    '{% load i18n once %}{% once "f" key %}{% translate "Hit" %} {{ count.n }}{% endonce %}'
)


class Counter:
    def __init__(self) -> None:
        self.calls = 0

    @property
    def n(self) -> int:
        self.calls += 1
        return self.calls


@pytest.fixture(autouse=True)
def _fresh() -> None:
    once.forget()


def render(key: object, count: Counter) -> str:
    return TEMPLATE.render(Context({"key": key, "count": count}))


def test_the_body_is_rendered_once_per_key_and_kept():
    count = Counter()
    assert render("a", count) == "Hit 1"
    assert render("a", count) == "Hit 1"
    assert render("b", count) == "Hit 2"
    assert count.calls == 2


def test_each_language_has_its_own():
    count = Counter()
    with translation.override("uk"):
        uk = render("a", count)
    assert render("a", count) == "Hit 2"
    assert uk.endswith(" 1") and not uk.startswith("Hit")


def test_none_renders_anew_every_time():
    count = Counter()
    assert render(None, count) == "Hit 1"
    assert render(None, count) == "Hit 2"


def test_a_key_of_anything_but_plain_values_is_refused():
    with pytest.raises(TypeError, match="must be plain values"):
        render({"a": 1}, Counter())  # an object known by its identity names no fragment
    assert render(("a", 1, None), Counter()) == "Hit 1"


def test_a_key_is_needed():
    with pytest.raises(TemplateSyntaxError):
        Template("{% load once %}{% once %}x{% endonce %}")


def test_the_kept_fragments_are_in_a_bounded_cache_of_this_process():
    pages = settings.CACHES[kept.CACHE]
    assert pages["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"
    assert pages["OPTIONS"]["MAX_ENTRIES"] == 4096
    count = Counter()
    render("a", count)
    once.forget()
    assert render("a", count) == "Hit 2"  # forgotten, rendered again


def test_a_missing_key_renders_anew():
    count = Counter()
    template = Template('{% load once %}{% once "m" no.such.thing %}{{ count.n }}{% endonce %}')
    assert template.render(Context({"count": count})) == "1"
    assert template.render(Context({"count": count})) == "2"


FORM = Template(
    '{% load once %}{% once "form" key %}<form>{% csrf_token %}{{ count.n }}</form>{% endonce %}'
)


class Token:
    """Like the CSRF context processor's lazy token: counts how often it is made into text."""

    def __init__(self, value: str) -> None:
        self.value, self.asked = value, 0

    def __str__(self) -> str:
        self.asked += 1
        return self.value


def test_a_kept_form_carries_each_requests_own_token(monkeypatch):
    cache = caches[kept.CACHE]
    stored: list[str] = []
    real_set = cache.set
    monkeypatch.setattr(cache, "set", lambda k, v, t: (stored.append(v), real_set(k, v, t)))
    count = Counter()
    first, second = Token("a" * 64), Token("b" * 64)
    out1 = FORM.render(Context({"key": "k", "count": count, "csrf_token": first}))
    out2 = FORM.render(Context({"key": "k", "count": count, "csrf_token": second}))
    assert count.calls == 1  # kept
    assert 'value="' + "a" * 64 + '"' in out1 and "b" * 64 not in out1
    assert 'value="' + "b" * 64 + '"' in out2 and "a" * 64 not in out2
    assert once.TOKEN_PLACEHOLDER not in out1 + out2
    assert len(stored) == 1 and once.TOKEN_PLACEHOLDER in stored[0]
    assert "a" * 64 not in stored[0] and "b" * 64 not in stored[0]


def test_a_fragment_without_a_form_does_not_ask_for_the_token():
    token = Token("c" * 64)
    count = Counter()
    assert render("x", count) == "Hit 1"
    TEMPLATE.render(Context({"key": "x", "count": count, "csrf_token": token}))
    TEMPLATE.render(Context({"key": "x", "count": count, "csrf_token": token}))
    assert token.asked == 0


def test_without_a_token_the_form_has_none():
    out = FORM.render(Context({"key": "k", "count": Counter()}))
    assert out == "<form>1</form>"
    assert once.TOKEN_PLACEHOLDER not in out
