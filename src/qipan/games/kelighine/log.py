"""The turn log: events recorded in the state and the sentences that explain them.

Events are tuples ``(kind, player, ...)`` of small ints so that states stay cheap:

- ``("roll", p, a, b)`` (b is 0 in version 1), ``("ones", p, choice)``, ``("enter", p, start)``,
- ``("move", p, from, to, steps)``, ``("promote", p, from, to, coin)``, ``("lap", p, cell, tier)``,
- ``("push", owner, from, to, cause, rule, last, chosen, pusher)``, ``("pass", p)``, ``("win", p)``.

>>> print(explain_push(("push", 1, 18, 4, 2, 1, 6, 1, 0)))
B3 → pushed to A5 (indirect, last piece on A7) [pushed again; owner's choice]
"""

from __future__ import annotations

from collections.abc import Sequence

from qipan.games.kelighine.board import lower_cells, name
from qipan.games.kelighine.state import BACK, DIRECT, FALLBACK, ONES_FOUR, ONES_TWO, PERSIST

Event = tuple[object, ...]

TIER_LETTERS = {1: "A", 2: "B", 3: "C"}


def _int(event: Event, index: int) -> int:
    value = event[index]
    assert isinstance(value, int)
    return value


def explain_push(event: Event) -> str:
    """Why and where a piece was pushed: ``"B3 → pushed to A5 (indirect, last piece on A7)"``.

    Details follow in brackets: a repeated push (persistence), a fallback to a corner, the
    owner's choice."""
    origin, dest, cause, rule, last, chosen, pusher = (_int(event, i) for i in range(2, 9))
    if cause == DIRECT:
        why = f"direct, player {pusher + 1} moved onto {name(origin)}"
    else:
        why = f"indirect, last piece on {name(last)}"
    extras = []
    if cause == PERSIST:
        extras.append("pushed again")
    if rule == FALLBACK:
        taken = " and ".join(name(c) for c in lower_cells(origin))
        extras.append(f"{taken} taken, nearest free corner")
    if rule == BACK:
        extras.append("no free corner, all progress lost")
    if chosen:
        extras.append("owner's choice")
    more = f" [{'; '.join(extras)}]" if extras else ""
    verb = "back to start" if rule == BACK else "pushed to"
    return f"{name(origin)} → {verb} {name(dest)} ({why}){more}"


def describe_event(event: Event) -> str:
    """One readable log line for an event."""
    kind = event[0]
    who = f"player {_int(event, 1) + 1}"
    if kind == "roll":
        b = _int(event, 3)
        return f"{who} rolls {event[2]}" + (f",{b}" if b else "")
    if kind == "ones":
        choice = _int(event, 2)
        if choice == ONES_FOUR:
            return f"{who} takes the double 1 as four 1s"
        if choice == ONES_TWO:
            return f"{who} keeps the double 1 as two 1s"
        return f"{who} rerolls the double 1"
    if kind == "enter":
        return f"{who} brings a piece from the reserve to {name(_int(event, 2))}"
    if kind == "move":
        origin, dest, steps = _int(event, 2), _int(event, 3), _int(event, 4)
        sign = "+" if steps > 0 else "-"
        return f"{who}: {name(origin)}{sign}{abs(steps)} → {name(dest)}"
    if kind == "promote":
        origin, dest, coin = _int(event, 2), _int(event, 3), _int(event, 4)
        if name(dest) == "J":
            return f"{who}: {name(origin)}^J, the piece reaches the goal J"
        extra = " and places a coin there" if coin else ""
        return f"{who}: {name(origin)}^{name(dest)}, promotes to {name(dest)}{extra}"
    if kind == "lap":
        tier = _int(event, 3)
        return f"{who}: the piece on {name(_int(event, 2))} completes lap {TIER_LETTERS[tier]} (face {tier})"
    if kind == "push":
        return f"{who}'s piece {explain_push(event)}"
    if kind == "pass":
        return f"{who} cannot use the dice and passes"
    if kind == "win":
        return f"{who} wins"
    return " ".join(str(x) for x in event)


def describe_events(events: Sequence[Event]) -> list[str]:
    return [describe_event(e) for e in events]
