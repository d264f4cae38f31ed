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
