"""The Abalone game: state, options, checked play, views and records."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Any, ClassVar, NamedTuple

from qipan.core.errors import GameError, brief
from qipan.core.game import Game
from qipan.core.options import Option, Variant
from qipan.core.validate import MAX_COUNT, Reader
from qipan.games.abalone.board import (
    DELTAS,
    NAMES,
    VALID,
    cell_index,
    cell_name,
    cells_of,
)
from qipan.games.abalone.layouts import LAYOUTS
from qipan.games.abalone.moves import (
    NUM_ACTIONS,
    AbaloneMove,
    direction_name,
    generate,
    has_move,
    is_legal,
    move_from_id,
    move_id,
    parse_move,
    perform,
)

MARBLES = 14
TO_WIN = 6
PLAYERS = ("black", "white")

ONGOING, BLACK_WON, WHITE_WON, DRAW = 0, 1, 2, 3
_OUTCOMES = ("ongoing", "black", "white", "draw")


class AbaloneState(NamedTuple):
    """A position. ``history`` holds the keys of earlier positions since the last marble was
    pushed out (kept only when the repetition rule is on); ``quiet`` counts moves since then."""

    black: int
    white: int
    turn: int
    quiet: int = 0
    history: tuple[int, ...] = ()
    outcome: int = ONGOING

    def key(self) -> int:
        """A hash of the marbles and the turn (the repetition rule compares these). The bitboards
        go in as 61-bit pieces: Python hashes ints modulo 2**61 - 1, so hashing them whole would
        confuse a marble with one 61 bits away (d8 and h5, say)."""
        b, w = self.black, self.white
        return hash((b & _PIECE, b >> 61 & _PIECE, b >> 122 & _PIECE, b >> 183,
                     w & _PIECE, w >> 61 & _PIECE, w >> 122 & _PIECE, w >> 183, self.turn))


MAX_TIME_LIMIT = 7 * 24 * 3600
"""The longest clock (seconds) the ``time_limit`` option allows: a week."""

_PIECE = (1 << 61) - 1
assert VALID >> 244 == 0  # four pieces hold every cell


class Abalone(Game[AbaloneState, AbaloneMove]):
    """Abalone for two players, with the three standard start layouts.

    >>> game = Abalone()
    >>> state = game.play(game.initial_state(), "a1b2")
    >>> game.view(state, 1)["marbles"]["black"][:3]
    ['a2', 'a3', 'a4']
    """

    name = "abalone"
    title = "Abalone"
    draws = True  # by repetition or the quiet-move limit
    variants = (
        Variant("standard", "the classic start: each side in three rows"),
        Variant("belgian-daisy", "two 'daisies' per side, marbles meeting from the start"),
        Variant("german-daisy", "daisies pulled towards the centre"),
    )
    options = (
        Option("time_limit", 0, "seconds on each player's clock, no increment (at most a week); 0 = untimed; "
               "running out loses; a clock chosen when the game is made replaces it", minimum=0,
               maximum=MAX_TIME_LIMIT),
        Option("repetition_draw", False, "draw when the same position occurs a third time"),
        Option("quiet_move_limit", 0, "draw after this many moves with no marble pushed out; 0 = off",
               minimum=0, maximum=10_000),
        Option("tournament", False, "tournament preset: 15 min clocks, threefold repetition, "
                                    "draw after 100 quiet moves (explicit options still win)"),
    )

    TOURNAMENT: ClassVar[dict[str, Any]] = {"time_limit": 900, "repetition_draw": True, "quiet_move_limit": 100}

    def check_options(self, values: dict[str, Any], explicit: frozenset[str]) -> dict[str, Any]:
        if values["tournament"]:
            for key, value in self.TOURNAMENT.items():
                if key not in explicit:
                    values[key] = value
        return values

    @property
    def num_players(self) -> int:
        return 2

    def player_name(self, player: int) -> str:
        return PLAYERS[player]

    def time_limit(self) -> float | None:
        """The ``time_limit`` option: a match without a clock of its own gets
        ``TimeControl(time_limit, 0)`` (:class:`qipan.core.match.Match`)."""
        return float(self.config["time_limit"]) or None

    # -- protocol ------------------------------------------------------------------------------

    def initial_state(self) -> AbaloneState:
        black, white = LAYOUTS[self.variant]
        return AbaloneState(black, white, 0)

    def to_move(self, state: AbaloneState) -> int | None:
        return None if state.outcome else state.turn

    def legal_actions(self, state: AbaloneState) -> Sequence[AbaloneMove]:
        if state.outcome:
            return []
        own, opp = (state.black, state.white) if state.turn == 0 else (state.white, state.black)
        return generate(own, opp)

    quick_legality: ClassVar[bool] = True
    """:meth:`is_legal` checks one move on the bitboards (search agents may rely on it)."""

    def is_legal(self, state: AbaloneState, action: AbaloneMove) -> bool:
        if state.outcome or not isinstance(action, AbaloneMove):
            return False
        if state.turn == 0:
            return is_legal(state.black, state.white, action)
        return is_legal(state.white, state.black, action)

    def next_state(self, state: AbaloneState, action: AbaloneMove) -> AbaloneState:
        black, white, turn, quiet, history, _outcome = state
        if turn == 0:
            black, after = perform(black, white, action)
            pushed_out = after.bit_count() < white.bit_count()
            white = after
        else:
            white, after = perform(white, black, action)
            pushed_out = after.bit_count() < black.bit_count()
            black = after
        if pushed_out:
            quiet, history = 0, ()
        else:
            quiet += 1
            history = (*history, state.key()) if self._repetition_draw else ()
        turn = 1 - turn
        return AbaloneState(black, white, turn, quiet, history, self._outcome_of(black, white, turn, quiet, history))

    @cached_property
    def _repetition_draw(self) -> bool:
        return bool(self.config["repetition_draw"])

    @cached_property
    def _quiet_move_limit(self) -> int:
        return int(self.config["quiet_move_limit"])

    def _outcome(self, state: AbaloneState) -> int:
        return self._outcome_of(state.black, state.white, state.turn, state.quiet, state.history)

    def _outcome_of(self, black: int, white: int, turn: int, quiet: int, history: tuple[int, ...]) -> int:
        if white.bit_count() <= MARBLES - TO_WIN:
            return BLACK_WON
        if black.bit_count() <= MARBLES - TO_WIN:
            return WHITE_WON
        limit = self._quiet_move_limit
        if limit and quiet >= limit:
            return DRAW
        if history and history.count(AbaloneState(black, white, turn).key()) >= 2:
            return DRAW
        if not (has_move(black, white) if turn == 0 else has_move(white, black)):
            # Never seen in practice; a side that cannot move loses rather than stall the game.
            return WHITE_WON if turn == 0 else BLACK_WON
        return ONGOING

    def returns(self, state: AbaloneState) -> tuple[float, ...]:
        return {BLACK_WON: (1.0, -1.0), WHITE_WON: (-1.0, 1.0)}.get(state.outcome, (0.0, 0.0))

    def result_text(self, state: AbaloneState) -> str:
        if state.outcome == DRAW:
            if self.config["quiet_move_limit"] and state.quiet >= self.config["quiet_move_limit"]:
                return f"draw: {state.quiet} moves without a marble pushed out"
            return "draw by threefold repetition"
        if state.outcome in (BLACK_WON, WHITE_WON):
            winner = PLAYERS[state.outcome - 1]
            loser_marbles = (state.white if winner == "black" else state.black).bit_count()
            return f"{winner} won, pushing out {MARBLES - loser_marbles} marbles"
        return "game in progress"

    # -- notation --------------------------------------------------------------------------------

    def parse_action(self, state: AbaloneState, text: str) -> AbaloneMove:
        if not isinstance(text, str):
            raise GameError(f"a move must be text such as a1b2, not {brief(text)}")
        return parse_move(text)

    def explain_illegal(self, state: AbaloneState, action: AbaloneMove) -> str:
        own, opp = (state.black, state.white) if state.turn == 0 else (state.white, state.black)
        colour = PLAYERS[state.turn]
        delta = DELTAS[action.direction]
        if not action.inline:
            for cell in action.marbles():
                if not own >> cell & 1:
                    whose = "empty" if not opp >> cell & 1 else f"{PLAYERS[1 - state.turn]}'s"
                    return f"{cell_name(cell)} is {whose}; a broadside line must be {colour}'s own marbles"
            for cell in action.marbles():
                target = cell + delta
                if target not in NAMES:
                    return f"{cell_name(cell)} would leave the board"
                if (own | opp) >> target & 1:
                    return f"{cell_name(target)} is occupied; broadside moves need empty cells and never push"
            return "it is not a legal move here"
        cell = action.first
        if not own >> cell & 1:
            return f"there is no {colour} marble on {cell_name(cell)}"
        front, size = cell + delta, 1
        while own >> front & 1:
            if size == 3:
                return "at most three marbles move; a fourth of your own blocks the line"
            front += delta
            size += 1
        if front not in NAMES:
            return "your own marble would leave the board"
        if not opp >> front & 1:
            return "it is not a legal move here"
        if size == 1:
            return f"a single marble cannot push ({cell_name(front)} is occupied)"
        count, beyond = 0, front
        while beyond in NAMES and opp >> beyond & 1:
            count += 1
            beyond += delta
        if count >= size:
            return f"{size} marbles cannot push {count}: a push needs strict majority (2>1, 3>1, 3>2)"
        return f"{cell_name(beyond)} holds your own marble behind the opponent's, which blocks the push"

    # -- views and JSON --------------------------------------------------------------------------

    def state_to_json(self, state: AbaloneState) -> dict[str, Any]:
        return {
            "black": [cell_name(c) for c in cells_of(state.black)],
            "white": [cell_name(c) for c in cells_of(state.white)],
            "turn": PLAYERS[state.turn],
            "quiet": state.quiet,
            "history": list(state.history),
            "outcome": _OUTCOMES[state.outcome],
        }

    def state_from_json(self, data: Any) -> AbaloneState:
        read = Reader("Abalone state")
        data = read.mapping(data, "the state")
        black, white = (self._marbles(read, read.field(data, side), side) for side in PLAYERS)
        if black & white:
            raise read.fail(f"{', '.join(cell_name(c) for c in cells_of(black & white))} hold two marbles")
        least = MARBLES - TO_WIN
        counts = black.bit_count(), white.bit_count()
        if not all(least <= n <= MARBLES for n in counts) or counts == (least, least):
            raise read.fail(f"each side has {least}..{MARBLES} marbles (the game ends when one side has "
                            f"{least}), not {counts[0]} and {counts[1]}")
        turn = read.choice(read.field(data, "turn"), "turn", PLAYERS)
        limit = self._quiet_move_limit or MAX_COUNT
        quiet = read.integer(data.get("quiet", 0), "quiet", 0, limit)
        raw = read.array(data.get("history", []), "history", longest=MAX_COUNT)  # as long as quiet
        if raw and not self._repetition_draw:
            raise read.fail("history is kept only under the repetition_draw option")
        if len(raw) > quiet:
            raise read.fail(f"history holds a key per move since the last push: at most quiet ({quiet}), "
                            f"not {len(raw)}")
        history = tuple(read.integer(h, "a history key", -(2**63), 2**63 - 1) for h in raw)
        state = AbaloneState(black, white, turn, quiet, history)
        state = state._replace(outcome=self._outcome(state))
        if "outcome" in data and read.choice(data["outcome"], "outcome", _OUTCOMES) != state.outcome:
            raise read.fail(f"outcome is {_OUTCOMES[state.outcome]} in this position, not {brief(data['outcome'])}")
        return state

    @staticmethod
    def _marbles(read: Reader, cells: Any, side: str) -> int:
        """The bitboard of a list of cell names (each named once)."""
        names = [read.text(c, f"a {side} cell", 4) for c in read.array(cells, side, longest=MARBLES)]
        board = 0
        for name in names:
            try:
                bit = 1 << cell_index(name)
            except GameError as exc:
                raise read.fail(str(exc)) from None
            if board & bit:
                raise read.fail(f"{side} lists {name} twice")
            board |= bit
        return board

    def view(self, state: AbaloneState, player: int | None) -> dict[str, Any]:
        self.check_player(player)
        to_move = self.to_move(state)
        return {
            "game": self.name,
            "player": player,
            "to_move": to_move,
            "marbles": {"black": [cell_name(c) for c in cells_of(state.black)],
                        "white": [cell_name(c) for c in cells_of(state.white)]},
            "pushed_out": {"black": MARBLES - state.white.bit_count(),
                           "white": MARBLES - state.black.bit_count()},
            "quiet": state.quiet,
            "result": None if to_move is not None else self.result_text(state),
            "state": self.state_to_json(state),
        }

    def describe_action(self, state: AbaloneState, action: AbaloneMove) -> str:
        """E.g. ``black c3d3: 3 marbles north-west, pushing 1 (off the board)``."""
        colour = PLAYERS[state.turn]
        way = direction_name(action.direction)
        if not action.inline:
            return f"{colour} {action}: {action.size} marbles broadside {way}"
        own, opp = (state.black, state.white) if state.turn == 0 else (state.white, state.black)
        delta = DELTAS[action.direction]
        size, cell = 1, action.first + delta
        while size < 3 and own >> cell & 1:
            size, cell = size + 1, cell + delta
        pushed = 0
        while cell in NAMES and opp >> cell & 1:
            pushed, cell = pushed + 1, cell + delta
        text = f"{colour} {action}: {size} marble{'s' * (size > 1)} {way}"
        if pushed:
            text += f", pushing {pushed}" + (" (one off the board)" if cell not in NAMES else "")
        return text

    # -- integer actions -------------------------------------------------------------------------

    @property
    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def action_id(self, state: AbaloneState, action: AbaloneMove) -> int:
        return move_id(action)

    def action_from_id(self, state: AbaloneState, action_id: int) -> AbaloneMove:
        return move_from_id(action_id)


__all__ = ["Abalone", "AbaloneMove", "AbaloneState"]
