"""Reading Kelighine states back from JSON, checking every field and every board invariant."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from qipan.core.errors import GameError, brief
from qipan.core.validate import MAX_COUNT, Reader
from qipan.games.kelighine import board
from qipan.games.kelighine.board import STARTS, J, name, tier
from qipan.games.kelighine.state import (
    ACT,
    CAUSES,
    DIRECT,
    ONES,
    ONES_FOUR,
    ONES_REROLL,
    ONES_TWO,
    OVER,
    PHASES,
    PUSH,
    RESERVE,
    ROLL,
    RULES,
    Pending,
    Piece,
    State,
)

if TYPE_CHECKING:
    from qipan.games.kelighine.game import Kelighine

_READ = Reader("kelighine state")
_bad = _READ.fail

MAX_EVENTS = 100
"""The longest turn log accepted (a real turn logs at most a few dozen events)."""

# The fields of each log event after its kind (see log.py): what each one may hold.
_EVENT_FIELDS: dict[str, tuple[str, ...]] = {
    "roll": ("player", "die", "second die"), "ones": ("player", "choice"), "enter": ("player", "start"),
    "move": ("player", "field cell", "cell", "steps"), "promote": ("player", "field cell", "upper cell", "flag"),
    "lap": ("player", "field cell", "tier"), "pass": ("player",), "win": ("player",),
    "push": ("player", "field cell", "cell", "cause", "rule", "cell or none", "flag", "player or none"),
}


def _int(data: Mapping[str, Any], key: str, low: int, high: int) -> int:
    return _READ.integer(data.get(key), key, low, high)


def _cell(value: Any, what: str, allow_none: bool = False) -> int:
    if value is None and allow_none:
        return -1
    if not isinstance(value, str) or len(value) > 8:
        raise _bad(f"{what} must be a cell name, not {brief(value, 40)}")
    try:
        return board.cell(value)
    except GameError:
        raise _bad(f"{what}: {brief(value, 20)} is not a cell (A1..A16, B1..B8, C1..C8, D E F G, I L H K, J)") from None


def _piece(data: Any, what: str) -> Piece:
    if not isinstance(data, Mapping):
        raise _bad(f"{what} must be an object with cell, a, done and entry")
    c = RESERVE if data.get("cell") == "reserve" else _cell(data.get("cell"), f"{what} cell")
    piece = Piece(c, _int(data, "a", -64, 128), _int(data, "done", 0, 3), _cell(data.get("entry"),
                  f"{what} entry", allow_none=True))
    if c == RESERVE:
        if piece.done or piece.entry >= 0:
            raise _bad(f"{what}: a reserve piece has no laps and no coin")
        return piece
    t = tier(c)
    if c == J and piece.done != 3:
        raise _bad(f"{what} is at J without completing lap C")
    if t >= 2 and piece.done < t - 1:
        raise _bad(f"{what} on {name(c)} has not completed the lap of the tier below")
    expects_coin = t >= 2 and piece.done == t - 1
    if expects_coin != (piece.entry >= 0) or (expects_coin and tier(piece.entry) != t):
        raise _bad(f"{what} on {name(c)}: a coin must mark its entry cell exactly while its lap is under way")
    return piece


def _events(game: Kelighine, data: Any, what: str, player: int) -> tuple[tuple[object, ...], ...]:
    """A turn log whose events all belong to the turn of ``player`` (a push may move anyone's piece)."""
    events = []
    for event in _READ.array(data, what, longest=MAX_EVENTS):
        fields = _EVENT_FIELDS.get(event[0]) if isinstance(event, list) and event and isinstance(
            event[0], str) else None
        if (
            fields is None or len(event) != len(fields) + 1
            or not all(isinstance(x, int) and not isinstance(x, bool) and x in _values(game, f)
                       for f, x in zip(fields, event[1:], strict=False))
        ):
            raise _bad(f"{what} holds a malformed event {brief(event, 60)}")
        owner = event[8] if event[0] == "push" else event[1]
        if owner not in (player, -1):
            raise _bad(f"{what} holds an event of player {owner + 1}, not of player {player + 1} whose turn it was")
        if event[0] == "push" and (event[6] < 0 if event[4] != DIRECT else event[8] < 0):
            raise _bad(f"{what} holds a push without its cause (the last piece's cell or the pusher)")
        events.append(tuple(event))
    return tuple(events)


def _values(game: Kelighine, kind: str) -> Sequence[int]:
    """The values an event field of ``kind`` may hold in ``game``."""
    n, top = game.num_players, game.die if game.version == 1 else 4
    return {
        "player": range(n), "player or none": range(-1, n), "die": range(1, top + 1),
        "second die": range(0, 1) if game.version == 1 else range(1, 5), "choice": (ONES_FOUR, ONES_REROLL, ONES_TWO),
        "start": STARTS, "field cell": range(J), "cell": range(J + 1), "cell or none": range(-1, J + 1),
        "upper cell": range(16, J + 1), "steps": (*range(-top, 0), *range(1, top + 1)), "flag": range(2),
        "tier": range(1, 4), "cause": range(len(CAUSES)), "rule": range(len(RULES)),
    }[kind]


def decode_state(game: Kelighine, data: Any) -> State:
    """Rebuild and check a state written by ``Kelighine.state_to_json``."""
    if not isinstance(data, Mapping):
        raise _bad("expected a JSON object")
    n = game.num_players
    turn = _int(data, "turn", 0, n - 1)
    phase = _READ.choice(data.get("phase"), "phase", PHASES)
    dice_max = game.die if game.version == 1 else 4
    rolled, dice = data.get("rolled"), data.get("dice")
    for key, values, most in (("rolled", rolled, 2), ("dice", dice, 4)):
        most = 1 if game.version == 1 else most
        if not isinstance(values, list) or len(values) > most or not all(
            isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= dice_max for v in values
        ):
            raise _bad(f"{key} must list at most {most} die value(s) 1..{dice_max}")
    if phase == ROLL and rolled:
        raise _bad("the dice are not rolled yet in the roll phase: rolled must be empty")
    one_die = _READ.flag(data.get("one_die"), "one_die")
    raw_pieces = data.get("pieces")
    if not isinstance(raw_pieces, list) or len(raw_pieces) != n:
        raise _bad(f"pieces must list the pieces of each of the {n} players")
    pend_data = data.get("pending")
    limbo = pend_data.get("owner") if isinstance(pend_data, Mapping) else None
    pieces: list[tuple[Piece, ...]] = []
    seen: dict[int, int] = {}
    for owner, ps in enumerate(raw_pieces):
        count = game.pieces_per_player - (owner == limbo)
        if not isinstance(ps, list) or len(ps) != count:
            raise _bad(f"player {owner + 1} must have {count} piece(s) on the board, in reserve or at J"
                       " (a piece being pushed is listed under pending)")
        own = tuple(sorted(_piece(p, f"player {owner + 1}'s piece") for p in ps))
        for p in own:
            if p.cell in STARTS and p.cell != game.start_of(owner):
                raise _bad(f"player {owner + 1} has a piece on another player's start cell {name(p.cell)}")
            if p.cell == RESERVE and game.version == 1:
                raise _bad("version 1 has no reserve pieces")
            if p.cell < 36:
                if p.cell in seen:
                    raise _bad(f"two pieces on {name(p.cell)}")
                seen[p.cell] = owner
        pieces.append(own)
    pending = None
    if pend_data is not None:
        if not isinstance(pend_data, Mapping):
            raise _bad("pending must be null or an object")
        owner = _int(pend_data, "owner", 0, n - 1)
        cause, rule = pend_data.get("cause"), pend_data.get("rule")
        options = pend_data.get("options")
        if cause not in CAUSES or rule not in RULES or not isinstance(options, list) or not 2 <= len(options) <= 4:
            raise _bad("pending needs a cause, a rule and two to four options")
        opts = tuple(_cell(o, "pending option") for o in options)
        if any(o in seen for o in opts):
            raise _bad("a pending push option is occupied")
        pending = Pending(owner, _piece(pend_data.get("piece"), "pending piece"),
                          _cell(pend_data.get("from"), "pending from"), CAUSES.index(cause),
                          RULES.index(rule), opts, _int(pend_data, "pusher", -1, n - 1))
    if (phase == PUSH) != (pending is not None):
        raise _bad("a pending push exists exactly in the push phase")
    if pending is not None:
        _check_pending(game, pieces, pending)
    _check_turn(game, phase, rolled, dice, one_die)
    _check_coins(pieces)
    after = _cell(data.get("after"), "after", allow_none=True)
    if after >= 0 and phase != PUSH:
        raise _bad("after is only set while a push is pending (the mover waiting for its indirect push)")
    if after >= 0 and after not in seen:
        raise _bad(f"after names the empty cell {name(after)}; it must be the cell of the piece that moved")
    number = _int(data, "number", 1, MAX_COUNT)
    prev_log = _events(game, data.get("prev_log"), "prev_log", (turn - 1) % n)
    if number == 1 and prev_log:
        raise _bad("prev_log must be empty in the first turn")
    winner_raw = data.get("winner")
    winner = -1 if winner_raw is None else _int(data, "winner", 0, n - 1)
    if (phase == OVER) != (winner >= 0):
        raise _bad("the game is over exactly when there is a winner")
    for owner, ps in enumerate(pieces):
        home = len(ps) == game.pieces_per_player and all(p.cell == J for p in ps)
        if home and winner != owner:
            raise _bad(f"player {owner + 1} has every piece at J but is not the winner")
        if winner == owner and not home:
            raise _bad(f"player {owner + 1} won without every piece at J")
    return State(
        tuple(pieces), turn, phase, tuple(rolled), tuple(sorted(dice)), one_die,  # type: ignore[arg-type]
        _cell(data.get("last"), "last", allow_none=True),
        _cell(data.get("moved"), "moved", allow_none=True),
        pending,
        after,
        _events(game, data.get("log"), "log", turn),
        prev_log,
        number,
        winner,
    )


def _check_pending(game: Kelighine, pieces: list[tuple[Piece, ...]], pending: Pending) -> None:
    """The pending push must be the one the rules give from its cell, on the current board."""
    from qipan.games.kelighine.game import push_destinations

    origin = pending.origin
    if tier(origin) == 0:
        raise _bad(f"a piece is only pushed from an A, B or C cell, not from {name(origin)}")
    if pending.piece.cell != origin:
        raise _bad("the pending piece must stand on the cell it is pushed from")
    occupied = {p.cell for ps in pieces for p in ps if p.cell < 36}
    rule, options = push_destinations(origin, occupied, game.start_of(pending.owner))
    if (rule, options) != (pending.rule, pending.options):
        where = ", ".join(name(c) for c in options)
        raise _bad(f"the piece pushed from {name(origin)} can only go to {where} (rule {RULES[rule]})")


def _check_turn(game: Kelighine, phase: int, rolled: Any, dice: Any, one_die: bool) -> None:
    """The dice agree with the phase of the turn and the version."""
    if one_die and game.version != 2:
        raise _bad("one_die is a version 2 rule")
    if phase in (ROLL, ONES) and dice:
        raise _bad("there are no unused dice before the roll is settled")
    if phase == ONES:
        if game.version != 2:
            raise _bad("the double-1 choice is a version 2 rule")
        if sorted(rolled) != [1, 1]:
            raise _bad("the double-1 choice follows a roll of 1,1")
    if phase == ACT and not dice:
        raise _bad("the act phase needs unused dice")
    if len(dice) > 2 and set(dice) != {1}:
        raise _bad("more than two unused dice only after a double 1 taken as four 1s")


def _check_coins(pieces: list[tuple[Piece, ...]]) -> None:
    """At most one piece of a player in the middle of a B lap, and one in a C lap."""
    for owner, ps in enumerate(pieces):
        tiers = [tier(p.entry) for p in ps if p.entry >= 0]
        for t in set(tiers):
            if tiers.count(t) > 1:
                raise _bad(f"player {owner + 1} has two pieces in the middle of a {'ABC'[t - 1]} lap "
                           "(one coin per tier)")
