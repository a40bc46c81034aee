"""``{% once key … %}…{% endonce %}``: render a fragment once per process and keep it.

For parts of a page that are the same for every visitor given a few values (a rule set's chart
grids, an unchanged settings form): the body is rendered the first time a key is seen, in the
active language, and its output is kept in this process (a bounded LRU), so a later request pays a
dictionary look-up instead of hundreds of template nodes.  The key is the tag's arguments and
the active language; the body must depend on nothing else.  An argument that is ``None`` means
"do not keep this one" (a form with errors, say): the body is rendered as usual.

A body may hold forms: while it is rendered to be kept, its ``csrf_token`` is a placeholder
(random, this process's), and each request's output has the placeholder replaced by that
request's own token.  No visitor's token is ever kept, so none can reach another visitor.

Kept in the process, not in the shared cache: a deployment's new code starts new processes, so a
kept fragment never outlives the template that made it.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from typing import Any

from django import template
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.template.context import Context
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

KEPT = 256  # fragments kept per {% once %} tag, so that one tag's many keys evict none of another's
# node id -> key -> (output, what the key names): an entry holds the node and the key's objects,
# so that neither's id() can be reused by another while the entry lives.
_kept: dict[int, OrderedDict[tuple[Any, ...], tuple[SafeString, tuple[Any, ...]]]] = {}
_lock = threading.Lock()
# Stands for the request's CSRF token in a kept fragment: letters and digits only, like a real
# token, so that it passes through escaping unchanged.
TOKEN_PLACEHOLDER = "csrfplaceholder" + secrets.token_hex(24)


def forget() -> None:
    """Drop every kept fragment (tests)."""
    with _lock:
        _kept.clear()


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
            kept = _kept.setdefault(id(self), OrderedDict())
            found = kept.get(key)
            if found is not None:
                kept.move_to_end(key)
        if found is None:
            if token is None:
                out = mark_safe(self.nodelist.render(context))
            else:
                with context.push(csrf_token=TOKEN_PLACEHOLDER):
                    out = mark_safe(self.nodelist.render(context))
            found = (out, (self, *values))
            with _lock:
                kept = _kept.setdefault(id(self), OrderedDict())
                kept[key] = found
                while len(kept) > KEPT:
                    kept.popitem(last=False)
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


@register.filter
def form_key(form: Any) -> tuple[Any, ...] | None:
    """What a form's rendering depends on: its initial values, or the data bound to its fields;
    ``None`` (render anew) for a form with errors."""
    if not form.is_bound:
        return ("initial", tuple(sorted((k, str(v)) for k, v in form.initial.items())))
    if form.errors:
        return None
    data = form.data
    values = []
    for name in form.fields:
        got = data.getlist(name) if hasattr(data, "getlist") else [data.get(name)]
        values.append((name, tuple(str(v) for v in got if v is not None)))
    return ("bound", tuple(values))
