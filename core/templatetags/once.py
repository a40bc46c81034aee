"""``{% once key … %}…{% endonce %}``: render a fragment once per process and keep it.

For parts of a page that are the same for every visitor given a few values (a rule set's chart
grids, an unchanged settings form): the body is rendered the first time a key is seen, in the
active language, and its output is kept in this process (a bounded LRU), so a later request pays a
dictionary look-up instead of hundreds of template nodes.  The key is the tag's arguments and
the active language; the body must depend on nothing else.  An argument that is ``None`` means
"do not keep this one" (a form with errors, say): the body is rendered as usual.

A body may hold forms: while it is rendered to be kept, its ``csrf_token`` is a placeholder,
and each request's output has the placeholder replaced by that request's own token
(``core.kept``, which also keeps whole pages).  No visitor's token is ever kept, so none can
reach another visitor.
"""

from __future__ import annotations

import threading
from typing import Any

from django import template
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.template.context import Context
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

from core import kept
from core.kept import TOKEN_PLACEHOLDER, Keeper, form_key

register = template.Library()

# node id -> its keeper: key -> (output, what the key names): an entry holds the node and the
# key's objects, so that neither's id() can be reused by another while the entry lives.
_kept: dict[int, Keeper] = {}
_lock = threading.Lock()


def forget() -> None:
    """Drop every kept fragment and page (tests)."""
    with _lock:
        _kept.clear()
    kept.forget()


def _part(value: Any) -> Any:
    try:
        hash(value)
    except TypeError:  # an object that is its own key (a rule set's parsed tables)
        return ("id", id(value))
    return value


class OnceNode(template.Node):
    def __init__(self, nodelist: NodeList, keys: list[FilterExpression]) -> None:
        self.nodelist = nodelist
        self.keys = keys

    def render(self, context: Context) -> SafeString:
        # A key that does not resolve (a template rendered without the request) is None too.
        values = tuple(k.resolve(context, ignore_failures=True) for k in self.keys)
        if any(v is None for v in values):
            return mark_safe(self.nodelist.render(context))
        # Not made into text here: asking for a token sets the CSRF cookie, which only a
        # fragment with a form should do.
        token = context.get("csrf_token")
        key = (translation.get_language(), token is not None, *(_part(v) for v in values))
        with _lock:
            keeper = _kept.get(id(self))
            if keeper is None:
                keeper = _kept[id(self)] = Keeper()
        found: tuple[SafeString, tuple[Any, ...]] | None = keeper.get(key)
        if found is None:
            if token is None:
                out = mark_safe(self.nodelist.render(context))
            else:
                with context.push(csrf_token=TOKEN_PLACEHOLDER):
                    out = mark_safe(self.nodelist.render(context))
            found = (out, (self, *values))
            keeper.put(key, found)
        out = found[0]
        if token is not None and TOKEN_PLACEHOLDER in out:
            out = mark_safe(out.replace(TOKEN_PLACEHOLDER, str(token)))
        return out


@register.tag
def once(parser: Parser, token: Token) -> OnceNode:
    bits = token.split_contents()[1:]
    if not bits:
        raise template.TemplateSyntaxError("{% once %} needs at least one key")
    nodelist = parser.parse(("endonce",))
    parser.delete_first_token()
    return OnceNode(nodelist, [parser.compile_filter(b) for b in bits])


# What a form's rendering depends on, as a key (core.kept.form_key).
register.filter("form_key", form_key)
