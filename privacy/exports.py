"""The user's own data download: everything stored about them, as one JSON document.

Each app says what it stores about a user (its ``*_export`` selectors); this module only puts
the parts together and streams them, so a user with 50,000 decisions costs the same dozen
queries as one with none and is never held in memory whole: the long lists (ledger, rounds,
decisions, drill questions) are read in chunks from one query each and written row by row.

What is not in the file, on purpose (the README says the same):

- the password hash (a secret even from its owner);
- the order of any shoe: a round shows what the player saw (:func:`blackjack.player_view`:
  the hole card once revealed, of the shoe only the number of cards left), and a seat's shoe
  is the cards of the next rounds;
- the answer to a drill question not yet answered;
- other people's data: a taught class comes with its assignments and number of students, not
  the students; a class one belongs to comes without the teachers' private note (it has no
  author among the class's teachers: it is their record, not the user's).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.selectors import profile_export
from classroom.selectors import classes_export
from decisions.selectors import decisions_export, weak_spots_export
from game.selectors import ledger_export, rounds_export, seats_export, wallet_export
from trainer.selectors import count_questions_export, situations_export

FORMAT = "hall-of-thoth/user-data"
FORMAT_VERSION = 1
# Bytes gathered before a piece is handed to the server: big enough that a long list is
# not thousands of tiny writes, small enough that memory stays flat.
FLUSH_AT = 64 * 1024

# Compact rows, one per line; amounts (Decimal) as exact strings, times in ISO 8601 (UTC).
_encode = DjangoJSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def export_filename(*, user: User) -> str:
    return f"hall-of-thoth-{user.get_username()}-{timezone.now():%Y-%m-%d}.json"


def _array(rows: Iterable[Any]) -> Iterator[str]:
    yield "["
    first = True
    for row in rows:
        yield ("\n" if first else ",\n") + _encode(row)
        first = False
    yield "\n]" if not first else "]"


def _parts(user: User) -> Iterator[str]:
    small: dict[str, Any] = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "exported_at": timezone.now(),
        "not_included": _(
            "Your password, the order of the cards still in any shoe, the hole card of a "
            "round before the dealer shows it, the answer to a drill question you have not "
            "answered, and other people's data (your classmates, your students, and the "
            "notes your teachers keep)."
        ),
        "account": profile_export(user=user),
        "wallet": wallet_export(user=user),
        "seats": seats_export(user=user),
        "weak_spots": weak_spots_export(user=user),
        "classes": classes_export(user=user),
    }
    yield "{\n"
    for key, value in small.items():
        yield f"{_encode(key)}: {_encode(value)},\n"
    streamed: list[tuple[str, Iterable[Any]]] = [
        ("ledger", ledger_export(user=user)),
        ("rounds", rounds_export(user=user)),
        ("decisions", decisions_export(user=user)),
        ("drill_questions", situations_export(user=user)),
        ("counting_questions", count_questions_export(user=user)),
    ]
    for i, (key, rows) in enumerate(streamed):
        yield f"{_encode(key)}: "
        yield from _array(rows)
        yield ",\n" if i < len(streamed) - 1 else "\n"
    yield "}\n"


def export_stream(*, user: User, language: str) -> Iterator[bytes]:
    """The document in pieces of about :data:`FLUSH_AT` bytes (UTF-8).

    The pieces are made while the server sends them, after the view has returned, so the
    page's language is named here rather than left to whatever is active then.
    """
    with translation.override(language):
        buffer: list[str] = []
        size = 0
        for part in _parts(user):
            buffer.append(part)
            size += len(part)
            if size >= FLUSH_AT:
                yield "".join(buffer).encode()
                buffer, size = [], 0
        if buffer:
            yield "".join(buffer).encode()
