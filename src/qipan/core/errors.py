"""The one error type of qipan."""

from __future__ import annotations


class GameError(ValueError):
    """Bad input to a game: unknown game, bad option, unparseable or illegal action, wrong player.

    The message says what is wrong and, where practical, what is allowed. Raising it never
    changes any state: states are immutable and every check happens before anything is built.

    >>> raise GameError("illegal move a1a2: a2 is occupied by your own marble")
    Traceback (most recent call last):
    ...
    qipan.core.errors.GameError: illegal move a1a2: a2 is occupied by your own marble
    """


def choices_text(values: object, limit: int = 40) -> str:
    """Render a list of allowed values for an error message, shortened when long.

    >>> choices_text(["a", "b"])
    'a, b'
    >>> choices_text(range(50), limit=3)
    '0, 1, 2, ... (50 in all)'
    """
    items = [str(v) for v in values]  # type: ignore[attr-defined]
    if len(items) > limit:
        return ", ".join(items[:limit]) + f", ... ({len(items)} in all)"
    return ", ".join(items) if items else "(none)"


def brief(value: object, limit: int = 80) -> str:
    """``repr(value)`` cut to about ``limit`` characters, for error messages about hostile input.

    >>> brief("a1b2")
    "'a1b2'"
    >>> brief("x" * 100, limit=20)
    "'xxxxxxxxxxx… (more than 40 characters)"
    >>> brief(10**5000)[:12]
    'a number of '
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 256:
        # repr() of a huge int is slow and, past 4300 digits, refused by Python itself.
        return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
    if isinstance(value, str) and len(value) > 4 * limit:
        value = value[: 2 * limit]  # never repr a huge string just to cut it
        text = repr(value)
        return f"{text[: limit - 8]}… (more than {2 * limit} characters)"
    try:
        text = repr(value)
    except Exception:
        return f"a {type(value).__name__}"
    if len(text) <= limit:
        return text
    return f"{text[: limit - 8]}… ({len(text)} characters)"


def brief_text(text: str, limit: int = 80) -> str:
    """``text`` cut like :func:`brief`, without the quotes around it (escapes stay).

    >>> brief_text("a1b2"), brief_text("x" * 100, limit=20)
    ('a1b2', 'xxxxxxxxxxx… (more than 40 characters)')
    """
    shown = brief(text, limit)
    return shown[1:-1] if shown[-1] == shown[0] else shown[1:]  # a shortened one has no closing quote
