"""``{% once key … %}…{% endonce %}``: render a fragment once per process and keep it.

For parts of a page that are the same for every visitor given a few values (a rule set's chart
grids, an unchanged settings form): the body is rendered the first time a key is seen, in the
active language, and its output is kept in this process's own cache (``caches["pages"]``, local
memory, as :mod:`core.kept`), so a later request pays a cache look-up instead of hundreds of
template nodes.  It is Django's ``{% cache %}`` with what the site's fragments need besides: the
key is the tag's place in its template, its arguments (plain values: text, numbers, tuples) and
the active language, and the body must depend on nothing else; an argument that is ``None``
means "do not keep this one" (a form with errors, say): the body is rendered as usual.

A body may hold forms: while it is rendered to be kept, its ``csrf_token`` is a placeholder,
and each request's output has the placeholder replaced by that request's own token.  No
visitor's token is ever kept, so none can reach another visitor.
"""

from __future__ import annotations

from django import template
from django.core.cache import caches
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.template.context import Context
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

from core.kept import CACHE, TOKEN_PLACEHOLDER, cache_key, forget, form_key

register = template.Library()
__all__ = ["forget", "once"]


class OnceNode(template.Node):
    def __init__(self, nodelist: NodeList, keys: list[FilterExpression], place: str) -> None:
        self.nodelist = nodelist
        self.keys = keys
        self.place = place  # the template and line: which fragment of the site this is

    def render(self, context: Context) -> SafeString:
        # A key that does not resolve (a template rendered without the request) is None too.
        values = tuple(k.resolve(context, ignore_failures=True) for k in self.keys)
        if any(v is None for v in values):
            return mark_safe(self.nodelist.render(context))
        # Not made into text here: asking for a token sets the CSRF cookie, which only a
        # fragment with a form should do.
        token = context.get("csrf_token")
        key = cache_key(
            "fragment", self.place, translation.get_language(), token is not None, *values
        )
        fragments = caches[CACHE]
        text: str | None = fragments.get(key)
        if text is None:
            if token is None:
                text = str(self.nodelist.render(context))
            else:
                with context.push(csrf_token=TOKEN_PLACEHOLDER):
                    text = str(self.nodelist.render(context))
            fragments.set(key, text, None)
        out = mark_safe(text)
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
    name = parser.origin.template_name if parser.origin else None
    place = f"{name if isinstance(name, str) else ''}:{token.lineno}"
    return OnceNode(nodelist, [parser.compile_filter(b) for b in bits], place)


# What a form's rendering depends on, as a key (core.kept.form_key).
register.filter("form_key", form_key)
