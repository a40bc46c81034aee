"""A small reading of rendered markup for the tests: elements with their attributes, text and
ancestors (the standard library's HTML parser), so that a test asserts the structure a page
must keep (ids, classes, htmx and aria attributes, forms) rather than its whitespace."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"input", "br", "img", "meta", "link", "hr", "source", "area", "col", "wbr"}


@dataclass(eq=False)
class Element:
    tag: str
    attrs: dict[str, str | None]
    parent: Element | None = None
    children: list[Element] = field(default_factory=list)
    parts: list[str | Element] = field(default_factory=list)

    @property
    def classes(self) -> list[str]:
        return (self.attrs.get("class") or "").split()

    @property
    def text(self) -> str:
        """The element's text, its whitespace collapsed as a browser shows it."""
        out = "".join(p if isinstance(p, str) else p.text for p in self.parts)
        return re.sub(r"[ \t\n\r\f]+", " ", out).strip(" ")  # (a no-break space stays)

    def find_all(self, tag: str = "", *, cls: str = "", **attrs: str) -> list[Element]:
        found = []
        for child in self.children:
            if (
                (not tag or child.tag == tag)
                and (not cls or cls in child.classes)
                and all(
                    child.attrs.get(k.rstrip("_").replace("_", "-")) == v for k, v in attrs.items()
                )
            ):
                found.append(child)
            found += child.find_all(tag, cls=cls, **attrs)
        return found

    def one(self, tag: str = "", *, cls: str = "", **attrs: str) -> Element:
        found = self.find_all(tag, cls=cls, **attrs)
        assert len(found) == 1, (tag, cls, attrs, len(found))
        return found[0]

    def inside(self, tag: str) -> bool:
        node = self.parent
        while node is not None:
            if node.tag == tag:
                return True
            node = node.parent
        return False


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#root", {})
        self.open = self.root

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, dict(attrs), parent=self.open)
        self.open.children.append(element)
        self.open.parts.append(element)
        if tag not in VOID:
            self.open = element

    def handle_endtag(self, tag: str) -> None:
        node: Element | None = self.open
        while node is not None and node.tag != tag:
            node = node.parent
        assert node is not None and node.parent is not None, f"</{tag}> closes nothing"
        assert node is self.open, f"</{tag}> closes <{node.tag}> over an open <{self.open.tag}>"
        self.open = node.parent

    def handle_data(self, data: str) -> None:
        self.open.parts.append(data)


def parse(html: str) -> Element:
    """The markup's elements under a root; every element closed, and closed in order."""
    builder = _Builder()
    builder.feed(html)
    builder.close()
    assert builder.open is builder.root, f"<{builder.open.tag}> left open"
    return builder.root
