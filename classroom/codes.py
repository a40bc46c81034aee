"""Join codes: 8 characters from 31 that cannot be mistaken for each other (no 0 O 1 I L),
read case-insensitively and with or without spaces or a dash.

31⁸ ≈ 8.5 × 10¹¹ codes; with wrong codes limited to 100 an hour per address and 20 per account
(see ``services.JOIN_FAILURES_PER_ADDRESS``), one address guessing any of a thousand classes'
codes needs about 970 years on average.
"""

from __future__ import annotations

import re
import secrets

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
LENGTH = 8
_SEPARATORS = re.compile(r"[\s\-_.]+")


def code_new() -> str:
    """A fresh random code, normalised.

    >>> len(code_new()), set(code_new()) <= set(ALPHABET)
    (8, True)
    """
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def code_normalise(text: str) -> str | None:
    """The stored form of a typed code, or ``None`` if it cannot be one.

    >>> code_normalise(" abcd-efgh "), code_normalise("ABCD EFG0")
    ('ABCDEFGH', None)
    """
    code = _SEPARATORS.sub("", text or "").upper()
    if len(code) != LENGTH or any(c not in ALPHABET for c in code):
        return None
    return code


def code_display(code: str) -> str:
    """Four and four, easier to read aloud.

    >>> code_display("ABCDEFGH")
    'ABCD-EFGH'
    """
    return f"{code[:4]}-{code[4:]}"
