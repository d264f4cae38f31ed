"""Chinese Checkers (跳棋, Sternhalma) and its 食棋 capture variant.

>>> import qipan
>>> game = qipan.load("chinese-checkers", players=3)
>>> state = game.initial_state()
>>> len(game.legal_actions(state))
14
>>> state = game.play(state, "d2-e6")
>>> game.to_move(state), game.player_name(1)
(1, 'blue')
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any, NamedTuple

from qipan.core.errors import GameError, brief
from qipan.core.game import Game
from qipan.core.options import Option, Variant
from qipan.core.validate import MAX_COUNT, Reader
from qipan.games.chinese_checkers.board import (
    CENTRE,
    HEXAGON,
    NAMES,
    NEIGHBOURS,
    NUM_HOLES,
    POINT_HOLES,
    POINT_OF,
    REGION15,
    ROW_LENGTHS,
    ROW_OF,
    TIPS,
    distance,
    hole_index,
    in_hexagon,
    opposite_point,
)
from qipan.games.chinese_checkers.moves import (
    CAPTURED,
    MOVES,
    NUM_MOVE_IDS,
    PASS,
    Move,
    capture_move_ids,
    capture_moves,
    destinations,
    find_path,
    legal_move_ids,
    move_ends,
    move_from_id,
    single_jumps,
)

SEATS: dict[int, tuple[int, ...]] = {1: (1,), 2: (1, 4), 3: (1, 3, 5), 4: (1, 2, 4, 5), 5: (1, 2, 3, 4, 5),
                                     6: (1, 2, 3, 4, 5, 6)}
"""Home points by player count (1 and 5 only seat the capture variant, where points are colours)."""

COLOURS = ("red", "blue", "green", "yellow", "purple", "cyan")

CAPTURE_STEP_LIMIT = 60
"""食棋: the game also ends after this many moves in a row without a capture."""

_TOKEN = re.compile(r"[a-q]\d{1,2}")
_MOVE_TEXT = re.compile(r"[a-q]\d{1,2}+(?:\s*+[-x]?+\s*+[a-q]\d{1,2}+)++")
"""Holes separated by spaces, ``-`` or ``x`` (the text is stripped first). Possessive: nothing is
tried twice, where ``\\s*[-x]?\\s*`` could split each run of spaces two ways (``a1 a1 ... !`` took
time doubling with every hole: a 200-character move would never be answered)."""


class ChineseCheckersState(NamedTuple):
    """A position. ``board[h]`` is 0 for an empty hole, ``p + 1`` for player p's piece (in the
    capture variant 1 for any piece). ``turn`` is None once the game is over."""

    board: tuple[int, ...]
    turn: int | None
    finished: tuple[int, ...] = ()
    """Players who filled their target, in finishing order."""
    passes: int = 0
    """Consecutive passes (every active player passing in a row ends the game)."""
    scores: tuple[int, ...] = ()
    """Captures per player (capture variant)."""
    quiet: int = 0
    """Moves in a row without a capture (capture variant)."""
    ply: int = 0
    """Moves played so far, passes included (for the ``max_moves`` limit of the race)."""


class ChineseCheckers(Game[ChineseCheckersState, Move]):
    """Chinese Checkers on the 121-hole star for 2, 3, 4 or 6 players, and 食棋 ("capture")."""

    name = "chinese-checkers"
    title = "Chinese Checkers"
    draws = True  # by the move limit, or equal captures
    variants = (
        Variant("standard", "race all your pieces into the opposite point (Sternhalma)"),
        Variant(
            "capture",
            "食棋: 60 pieces fill the central hexagon; jump an adjacent piece to capture it, "
            "captures are compulsory; 1-6 players",
        ),
    )
    options = (
        Option("players", 2, "number of players: 2, 3, 4 or 6 (1-6 in the capture variant)",
               choices=(1, 2, 3, 4, 5, 6)),
        Option("pieces", 10, "pieces per player: 10, or 15 with 2 or 3 players", choices=(10, 15)),
        Option("jump", "long", "long: symmetric jump over a piece at any distance; adjacent: only "
               "over a neighbouring piece", choices=("long", "adjacent")),
        Option("chain", True, "a piece may keep jumping in the same move"),
        Option("other_corners", "allowed", "the points that are neither your home nor your target: "
               "allowed, pass-only (jump through, never stop) or forbidden",
               choices=("allowed", "pass-only", "forbidden")),
        Option("blocked_target", True, "a full target at least half of which holds your own "
               "pieces counts as filled (against spoiling)"),
        Option("play_on", False, "after the winner, the others play on for 2nd, 3rd... places"),
        Option("max_moves", 1000, "the race ends after this many moves in all (passes included); "
               "unfinished players share the places left; 0 = no limit", minimum=0, maximum=100000),
    )

    def check_options(self, values: dict[str, Any], explicit: frozenset[str]) -> dict[str, Any]:
        players = values["players"]
        if self.variant == "capture":
            defaults = {o.name: o.default for o in self.options}
            for key in sorted(explicit):
                name = key.replace("-", "_")
                if name != "players" and values[name] != defaults[name]:
                    raise GameError(
                        f"option {name} does not apply to the capture variant (食棋); "
                        "its only option is players (1-6)"
                    )
            return values
        if players not in (2, 3, 4, 6):
            raise GameError(
                f"Chinese Checkers seats 2, 3, 4 or 6 players, not {players}"
                + (" (5 would leave the board unbalanced)" if players == 5 else "")
                + "; the capture variant (食棋) seats 1-6"
            )
        if values["pieces"] == 15 and players > 3:
            raise GameError(
                f"15 pieces per player need 2 or 3 players: with {players} the 15-hole camps "
                "overlap; use pieces=10"
            )
        return values

    # -- setup -----------------------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        players: int = self.config["players"]
        return players

    @property
    def capture(self) -> bool:
        """Whether this is the 食棋 capture variant."""
        return self.variant == "capture"

    def player_name(self, player: int) -> str:
        return COLOURS[player]

    def home_point(self, player: int) -> int:
        """The point (1..6) where ``player`` starts."""
        return SEATS[self.num_players][player]

    def target_point(self, player: int) -> int:
        """The point ``player`` must fill: the one opposite their home."""
        return opposite_point(self.home_point(player))

    @cached_property
    def _camps(self) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
        region = REGION15 if self.config["pieces"] == 15 else POINT_HOLES
        homes = tuple(region[self.home_point(p)] for p in range(self.num_players))
        targets = tuple(region[self.target_point(p)] for p in range(self.num_players))
        return homes, targets

    def home_holes(self, player: int) -> tuple[int, ...]:
        """The holes ``player``'s pieces start on."""
        return self._camps[0][player]

    def target_holes(self, player: int) -> tuple[int, ...]:
        """The holes ``player`` must fill to finish."""
        return self._camps[1][player]

    @cached_property
    def _bans(self) -> tuple[bytes, ...]:
        mode = self.config["other_corners"]
        level = {"allowed": 0, "pass-only": 1, "forbidden": 2}[mode]
        bans = []
        for p in range(self.num_players):
            own = {self.home_point(p), self.target_point(p)}
            bans.append(bytes(level if POINT_OF[h] and POINT_OF[h] not in own else 0
                              for h in range(NUM_HOLES)))
        return tuple(bans)

    @cached_property
    def _target_owners(self) -> tuple[tuple[int, ...], ...]:
        return tuple(
            tuple(p for p in range(self.num_players) if h in self.target_holes(p)) for h in range(NUM_HOLES)
        )

    @cached_property
    def _distances(self) -> tuple[tuple[int, ...], ...]:
        return tuple(
            tuple(distance(h, TIPS[self.target_point(p)]) for h in range(NUM_HOLES))
            for p in range(self.num_players)
        )

    def distance_table(self, player: int) -> tuple[int, ...]:
        """For each hole, its distance to the far tip of ``player``'s target (0 in the tip)."""
        return self._distances[player]

    def initial_state(self) -> ChineseCheckersState:
        board = [0] * NUM_HOLES
        n = self.num_players
        if self.capture:
            for h in HEXAGON:
                board[h] = 1
            board[CENTRE] = 0
            return ChineseCheckersState(tuple(board), 0, scores=(0,) * n)
        for p in range(n):
            for h in self.home_holes(p):
                board[h] = p + 1
        return ChineseCheckersState(tuple(board), 0)

    # -- rules -----------------------------------------------------------------------------------

    def to_move(self, state: ChineseCheckersState) -> int | None:
        return state.turn

    def _destinations(self, board: Sequence[int], start: int, player: int) -> list[int]:
        cells = list(board)
        cells[start] = 0
        return destinations(
            cells, start, self.config["jump"] == "long", self.config["chain"], self._bans[player]
        )

    def legal_actions(self, state: ChineseCheckersState) -> list[Move]:
        me = state.turn
        if me is None:
            return []
        board = state.board
        if self.capture:
            return capture_moves(board)
        cells = list(board)
        mark = me + 1
        long = self.config["jump"] == "long"
        chain = self.config["chain"]
        ban = self._bans[me]
        out: list[Move] = []
        for start in range(NUM_HOLES):
            if cells[start] != mark:
                continue
            cells[start] = 0
            base = start * NUM_HOLES
            out.extend(MOVES[base + end] for end in destinations(cells, start, long, chain, ban))
            cells[start] = mark
        return out or [PASS]

    def _filled(self, board: Sequence[int], player: int) -> bool:
        mark = player + 1
        holes = self.target_holes(player)
        if self.config["blocked_target"]:
            return all(board[h] for h in holes) and self._holds_half(board, player)
        return all(board[h] == mark for h in holes)

    def _holds_half(self, board: Sequence[int], player: int) -> bool:
        """Whether at least half of ``player``'s target holds their own pieces: under
        ``blocked_target`` the others' pieces fill the rest, but not more, or a player would
        finish with one piece while the target's owner has hardly left home."""
        holes = self.target_holes(player)
        return 2 * sum(1 for h in holes if board[h] == player + 1) >= len(holes)

    def _next_turn(self, me: int, finished: tuple[int, ...]) -> int:
        n = self.num_players
        for k in range(1, n + 1):
            p = (me + k) % n
            if p not in finished:
                return p
        return me

    def _game_over(self, finished: tuple[int, ...], passes: int, ply: int) -> bool:
        active = self.num_players - len(finished)
        if finished and (not self.config["play_on"] or active <= 1):
            return True
        limit: int = self.config["max_moves"]
        return passes >= active or 0 < limit <= ply

    def next_state(self, state: ChineseCheckersState, action: Move) -> ChineseCheckersState:
        me = state.turn
        assert me is not None, "next_state on a finished game"
        if self.capture:
            return self._capture_next(state, me, action)
        if action.start < 0:
            passes = state.passes + 1
            ply = state.ply + 1
            over = self._game_over(state.finished, passes, ply)
            return state._replace(turn=None if over else self._next_turn(me, state.finished), passes=passes,
                                  ply=ply)
        board = list(state.board)
        board[action.start] = 0
        board[action.end] = me + 1
        finished = state.finished
        owners = self._target_owners[action.end]
        if owners:
            n = self.num_players
            for p in sorted(owners, key=lambda q: (q - me) % n):
                if p not in finished and self._filled(board, p):
                    finished += (p,)
        ply = state.ply + 1
        turn = None if self._game_over(finished, 0, ply) else self._next_turn(me, finished)
        return ChineseCheckersState(tuple(board), turn, finished, 0, ply=ply)

    def _capture_next(self, state: ChineseCheckersState, me: int, action: Move) -> ChineseCheckersState:
        board = list(state.board)
        board[action.start] = 0
        board[action.end] = 1
        captured = CAPTURED.get((action.start, action.end))
        scores = state.scores
        quiet = state.quiet + 1
        if captured is not None and action.end not in NEIGHBOURS[action.start]:
            board[captured] = 0
            scores = (*scores[:me], scores[me] + 1, *scores[me + 1:])
            quiet = 0
        left = NUM_HOLES - board.count(0)
        over = left <= 1 or quiet >= CAPTURE_STEP_LIMIT
        turn = None if over else (me + 1) % self.num_players
        return ChineseCheckersState(tuple(board), turn, (), 0, scores, quiet)

    def is_legal(self, state: ChineseCheckersState, action: Move) -> bool:
        if not isinstance(action, Move) or state.turn is None:
            return False
        if action == PASS:
            return not self.capture and self.legal_actions(state) == [PASS]
        if not (0 <= action.start < NUM_HOLES and 0 <= action.end < NUM_HOLES):
            return False
        if self.capture:
            return action in capture_moves(state.board)
        if state.board[action.start] != state.turn + 1:
            return False
        return action.end in self._destinations(state.board, action.start, state.turn)

    def explain_illegal(self, state: ChineseCheckersState, action: Move) -> str:
        me = state.turn
        if me is None:
            return "the game is over"
        if not isinstance(action, Move) or (action != PASS and not (
                0 <= action.start < NUM_HOLES and 0 <= action.end < NUM_HOLES)):
            return f"{action!r} is not a move; write moves like d2-e6"
        legal = self.legal_actions(state)
        if action == PASS:
            if self.capture:
                return "passing is only for a player with no move; the capture game always has one"
            return f"you can only pass when you have no move, and {self.player_name(me)} has {len(legal)}"
        start, end = NAMES[action.start], NAMES[action.end]
        board = state.board
        if self.capture:
            if not in_hexagon(action.start) or not in_hexagon(action.end):
                return "the capture game is played on the central hexagon only (rows e..m, a 5-hole edge)"
            if not board[action.start]:
                return f"there is no piece on {start}"
            if board[action.end]:
                return f"{end} is occupied"
            if (action.start, action.end) in CAPTURED:
                over = NAMES[CAPTURED[action.start, action.end]]
                return f"there is no piece on {over} to jump over"
            if action.end not in NEIGHBOURS[action.start]:
                return "a piece steps to a neighbouring hole or jumps over an adjacent piece to capture it"
            return f"captures are compulsory and one is available (e.g. {legal[0]})"
        owner = board[action.start]
        if not owner:
            return f"there is no piece on {start}"
        if owner != me + 1:
            return f"the piece on {start} is {self.player_name(owner - 1)}'s; {self.player_name(me)} is to move"
        if action.start == action.end:
            return "a move that ends where it started is not a move"
        if board[action.end]:
            return f"{end} is occupied; a move must end on an empty hole"
        point = POINT_OF[action.end]
        ban = self._bans[me][action.end]
        if ban:
            what = (
                "may jump through it but not stop there (other_corners=pass-only)"
                if ban == 1
                else "may not enter it (other_corners=forbidden)"
            )
            return f"{end} is in point {point}, neither your home nor your target: a piece {what}"
        if not self.config["chain"] and end not in (NAMES[h] for h in NEIGHBOURS[action.start]):
            return (f"no step or single jump leads from {start} to {end} "
                    "(chain=false: one jump per move)")
        kind = "jumps over adjacent pieces" if self.config["jump"] == "adjacent" else "jumps"
        return f"no step or chain of {kind} leads from {start} to {end}"

    # -- results ---------------------------------------------------------------------------------

    def _place_values(self, ranking: list[list[int]]) -> tuple[float, ...]:
        """Payoffs from groups of tied players, best first: place k is worth 1 - 2k/(n-1),
        shared places get their average."""
        n = self.num_players
        values = [0.0] * n
        place = 0
        for group in ranking:
            worth = [1 - 2 * k / (n - 1) for k in range(place, place + len(group))]
            for p in group:
                values[p] = sum(worth) / len(worth)
            place += len(group)
        return tuple(values)

    def ranking(self, state: ChineseCheckersState) -> list[list[int]]:
        """Players grouped by place, best first (ties share a group)."""
        n = self.num_players
        if self.capture:
            by_score = sorted(set(state.scores), reverse=True)
            return [[p for p in range(n) if state.scores[p] == s] for s in by_score]
        rest = [p for p in range(n) if p not in state.finished]
        return [[p] for p in state.finished] + ([rest] if rest else [])

    def returns(self, state: ChineseCheckersState) -> tuple[float, ...]:
        if self.num_players == 1:
            return (1.0 if self.pieces_left(state) == 1 else -1.0,)
        return self._place_values(self.ranking(state))

    def pieces_left(self, state: ChineseCheckersState) -> int:
        return NUM_HOLES - state.board.count(0)

    def result_text(self, state: ChineseCheckersState) -> str:
        if state.turn is not None:
            return "the game is not over"
        names = self.player_name
        if self.capture:
            left = self.pieces_left(state)
            if self.num_players == 1:
                if left == 1:
                    return "solved: one piece left"
                return f"not solved: {left} pieces left"
            top = self.ranking(state)[0]
            scores = ", ".join(f"{names(p)} {s}" for p, s in enumerate(state.scores))
            head = (
                f"{names(top[0])} won" if len(top) == 1 else "draw between " + " and ".join(map(names, top))
            )
            return f"{head} (captures: {scores})"
        active = self.num_players - len(state.finished)
        why = "nobody can move" if state.passes >= active else "move limit reached"
        if not state.finished:
            return f"draw: {why}"
        if len(state.finished) == 1 and not self.config["play_on"]:
            return f"{names(state.finished[0])} won"
        ordinals = ["1st", "2nd", "3rd", "4th", "5th", "6th"]
        parts = [f"{ordinals[i]} {names(p)}" for i, p in enumerate(state.finished)]
        rest = [p for p in range(self.num_players) if p not in state.finished]
        if rest:
            tail = "" if len(rest) == 1 else f" (shared: {why})"
            parts.append(f"{ordinals[len(state.finished)]} " + " and ".join(map(names, rest)) + tail)
        return ", ".join(parts)

    # -- notation --------------------------------------------------------------------------------

    def parse_action(self, state: ChineseCheckersState, text: str) -> Move:
        """Parse ``d2-e6``, ``pass``, or a whole jump path ``c1-e5-g5`` (each hop must be a real jump).

        Case and spaces do not matter; ``x`` or nothing may separate holes too."""
        if not isinstance(text, str):
            raise GameError(f"cannot read move {brief(text)}: a move is text like d2-e6, or pass")
        key = text.strip().lower()
        if key == "pass":
            return PASS
        if not _MOVE_TEXT.fullmatch(key):
            raise GameError(
                f"cannot read move {brief(text)}: write the start and end hole like d2-e6 "
                "(rows a..q, holes numbered from the left), a whole jump path like c1-e5-g5, or pass"
            )
        holes = [hole_index(token) for token in _TOKEN.findall(key)]
        if len(holes) > 2:
            self._check_path(state, holes, text)
        return MOVES[holes[0] * NUM_HOLES + holes[-1]]

    def _check_path(self, state: ChineseCheckersState, holes: list[int], text: str) -> None:
        if self.capture:
            raise GameError(f"cannot read move {brief(text)}: a capture-game move is one step or one jump, "
                            "written start-end")
        if not self.config["chain"]:
            raise GameError(f"path {brief(text)}: one jump per move (chain=false); write the move as start-end")
        cells = list(state.board)
        cells[holes[0]] = 0
        long = self.config["jump"] == "long"
        owner = state.board[holes[0]]
        ban = self._bans[owner - 1] if owner else bytes(NUM_HOLES)
        for a, b in itertools.pairwise(holes):
            if b not in single_jumps(cells, a, long):
                raise GameError(
                    f"path {brief(text)}: {NAMES[a]}-{NAMES[b]} is not a jump here; "
                    "write the move as start-end (e.g. " + f"{NAMES[holes[0]]}-{NAMES[holes[-1]]})"
                )
            if ban[b] >= 2:
                raise GameError(
                    f"path {brief(text)}: {NAMES[b]} is in point {POINT_OF[b]}, neither home nor target, "
                    "where a piece may not land (other_corners=forbidden)"
                )

    def action_text(self, state: ChineseCheckersState, action: Move) -> str:
        return str(action)

    def move_path(self, state: ChineseCheckersState, action: Move) -> list[str]:
        """The holes a legal move visits: ``["d2", "e2"]`` for a step, the landing holes of
        the shortest jump chain otherwise, and ``[]`` for a pass.

        Works on the state before the move, and equally on the state right after it."""
        return [NAMES[h] for h in self._path(state.board, action)]

    def _path(self, board: Sequence[int], action: Move) -> list[int]:
        if action.start < 0:
            return []
        if self.capture:
            return [action.start, action.end]
        cells = list(board)
        owner = cells[action.start] or cells[action.end]
        cells[action.start] = cells[action.end] = 0
        player = owner - 1 if owner else 0
        path = find_path(cells, action.start, action.end, self.config["jump"] == "long",
                         self.config["chain"], self._bans[player])
        return path if path is not None else [action.start, action.end]

    def describe_action(self, state: ChineseCheckersState, action: Move) -> str:
        who = self.player_name(state.turn) if state.turn is not None else "nobody"
        if action.start < 0:
            return f"{who} passes (no legal move)"
        if self.capture:
            captured = CAPTURED.get((action.start, action.end))
            if captured is not None and action.end not in NEIGHBOURS[action.start]:
                return f"{who}: {action} captures {NAMES[captured]}"
            return f"{who}: {action} (step)"
        path = self._path(state.board, action)
        if len(path) == 2 and action.end in NEIGHBOURS[action.start]:
            return f"{who}: {action} (step)"
        jumps = len(path) - 1
        route = "-".join(NAMES[h] for h in path)
        return f"{who}: {route} ({jumps} jump{'s' if jumps > 1 else ''})"

    # -- integer actions -------------------------------------------------------------------------

    @property
    def num_distinct_actions(self) -> int:
        return NUM_MOVE_IDS

    def action_id(self, state: ChineseCheckersState, action: Move) -> int:
        return action.id

    def legal_action_ids(self, state: ChineseCheckersState) -> list[int]:
        """The ids of :meth:`legal_actions`, in order, straight from the board (no move objects)."""
        me = state.turn
        if me is None:
            return []
        if self.capture:
            return capture_move_ids(state.board)
        return legal_move_ids(state.board, me + 1, self.config["jump"] == "long", self.config["chain"],
                              self._bans[me])

    def move_ends(self, state: ChineseCheckersState) -> list[tuple[int, int]]:
        """The race's legal moves in bulk: per piece of the player to move, its hole and the holes
        its moves end on as a bitboard (all 0: the player must pass). Not for the capture variant."""
        me = state.turn
        assert me is not None and not self.capture
        return move_ends(state.board, me + 1, self.config["jump"] == "long", self.config["chain"], self._bans[me])

    def action_from_id(self, state: ChineseCheckersState, action_id: int) -> Move:
        if isinstance(action_id, bool) or not isinstance(action_id, int) or not 0 <= action_id < NUM_MOVE_IDS:
            raise GameError(f"action id must be an integer 0..{NUM_MOVE_IDS - 1}, not {action_id!r}")
        return move_from_id(action_id)

    # -- JSON and views --------------------------------------------------------------------------

    def _rows(self, board: Sequence[int]) -> list[str]:
        rows: list[list[str]] = [[] for _ in ROW_LENGTHS]
        for h, v in enumerate(board):
            rows[ROW_OF[h]].append("." if not v else ("o" if self.capture else str(v)))
        return ["".join(r) for r in rows]

    def state_to_json(self, state: ChineseCheckersState) -> dict[str, Any]:
        """The position as rows a..q of characters: ``.`` empty, ``1``..``6`` player 1..6's piece
        (``o`` for a piece in the capture variant).

        >>> import qipan
        >>> game = qipan.load("chinese-checkers")
        >>> game.state_to_json(game.initial_state())["rows"][:5]
        ['1', '11', '111', '1111', '.............']
        """
        data: dict[str, Any] = {"rows": self._rows(state.board), "to_move": state.turn}
        if self.capture:
            data["scores"] = list(state.scores)
            data["quiet"] = state.quiet
        else:
            data["finished"] = list(state.finished)
            data["passes"] = state.passes
            data["ply"] = state.ply
        return data

    def state_from_json(self, data: Any) -> ChineseCheckersState:
        read = Reader("Chinese Checkers state")
        data = read.mapping(data, "the state")
        rows = read.array(read.field(data, "rows"), "rows (a..q)", length=len(ROW_LENGTHS))
        n = self.num_players
        allowed = ".o" if self.capture else "." + "".join(str(p + 1) for p in range(n))
        board: list[int] = []
        for letter, row, length in zip("abcdefghijklmnopq", rows, ROW_LENGTHS, strict=True):
            if not isinstance(row, str) or len(row) != length:
                raise read.fail(f"row {letter} must be a string of {length} holes, not {brief(row, 40)}")
            for ch in row:
                if ch not in allowed:
                    raise read.fail(f"row {letter}: bad character {brief(ch, 10)}; use {', '.join(allowed)}")
                board.append(0 if ch == "." else 1 if ch == "o" else int(ch))
        turn = read.field(data, "to_move")
        if turn is not None:
            turn = read.integer(turn, "to_move (a player or null)", 0, n - 1)
        if self.capture:
            return self._capture_from_json(read, data, board, turn)
        for p in range(n):
            count = board.count(p + 1)
            if count != self.config["pieces"]:
                raise read.fail(f"{count} pieces of player {p + 1}; each player has {self.config['pieces']}")
        finished = [read.integer(p, "a finished player", 0, n - 1)
                    for p in read.array(data.get("finished", []), "finished", longest=n)]
        read.distinct(finished, "finished")
        passes = read.integer(data.get("passes", 0), "passes", 0, n)
        limit: int = self.config["max_moves"]
        ply = read.integer(data.get("ply", 0), "ply", 0, limit or MAX_COUNT)
        for p in range(n):
            mark, holes = p + 1, self.target_holes(p)
            if p in finished:
                # Finished pieces never move again, but with blocked_target foreign pieces may
                # leave the target: only the finisher's own pieces are sure to stay.
                ok = (self._holds_half(board, p) if self.config["blocked_target"]
                      else all(board[h] == mark for h in holes))
                if not ok:
                    raise read.fail(f"it lists {self.player_name(p)} as finished, but "
                                    f"{self.player_name(p)} has not filled their target")
            elif self._filled(board, p):
                raise read.fail(f"{self.player_name(p)} has filled their target, so finished "
                                f"must list player {p}")
        over = self._game_over(tuple(finished), passes, ply)
        if turn is None and not over:
            raise read.fail("to_move is null but the game is not over")
        if turn is not None and (over or turn in finished):
            raise read.fail(f"to_move is {turn}, but that player has finished or the game is over")
        return ChineseCheckersState(tuple(board), turn, tuple(finished), passes, ply=ply)

    def _capture_from_json(self, read: Reader, data: Mapping[str, Any], board: list[int],
                           turn: int | None) -> ChineseCheckersState:
        n = self.num_players
        outside = [NAMES[h] for h, v in enumerate(board) if v and not in_hexagon(h)]
        if outside:
            raise read.fail(f"capture-game pieces must be on the central hexagon, not {', '.join(outside[:5])}")
        left = NUM_HOLES - board.count(0)
        if not 1 <= left <= 60:
            raise read.fail(f"a capture-game state has 1..60 pieces, not {left}")
        scores = tuple(read.integer(s, "a capture count", 0, 60)
                       for s in read.array(read.field(data, "scores"), "scores", length=n))
        if sum(scores) != 60 - left:
            raise read.fail(f"scores add up to {sum(scores)}, but {60 - left} pieces were captured")
        quiet = read.integer(data.get("quiet", 0), "quiet", 0, CAPTURE_STEP_LIMIT)
        over = left == 1 or quiet >= CAPTURE_STEP_LIMIT
        if (turn is None) != over:
            raise read.fail("to_move must be null exactly when the game is over")
        return ChineseCheckersState(tuple(board), turn, (), 0, scores, quiet)

    def view(self, state: ChineseCheckersState, player: int | None) -> dict[str, Any]:
        """Everything is public: the position, the camps, and the progress of each player."""
        self.check_player(player)
        board = state.board
        n = self.num_players
        view: dict[str, Any] = {
            "player": player,
            "to_move": state.turn,
            "variant": self.variant,
            "players": [self.player_name(p) for p in range(n)],
            "pieces": {NAMES[h]: v - 1 for h, v in enumerate(board) if v},
            "state": self.state_to_json(state),
            "result": None if state.turn is not None else self.result_text(state),
        }
        if self.capture:
            view["scores"] = list(state.scores)
            view["pieces_left"] = self.pieces_left(state)
            view["quiet"] = state.quiet
        else:
            view["homes"] = [self.home_point(p) for p in range(n)]
            view["targets"] = [self.target_point(p) for p in range(n)]
            view["target_holes"] = [[NAMES[h] for h in self.target_holes(p)] for p in range(n)]
            view["in_target"] = [sum(board[h] == p + 1 for h in self.target_holes(p)) for p in range(n)]
            view["finished"] = list(state.finished)
        return view

    def pieces_of(self, state: ChineseCheckersState, player: int) -> list[int]:
        """The holes of ``player``'s pieces."""
        mark = player + 1
        return [h for h, v in enumerate(state.board) if v == mark]
