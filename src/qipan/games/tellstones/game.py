"""Tellstones: King's Gambit — rules, notation, views and the integer action space.

>>> import qipan
>>> game = qipan.load("tellstones")
>>> state = game.initial_state()
>>> game.view(state, 1)["lines"][0]
[None, None, None, 'scale', None, None, None]
>>> state = game.play(state, "place crown 3")
>>> state = game.play(state, "hide 3")
>>> game.view(state, 0)["lines"][0][2]
'?'
>>> state = game.play(state, "peek 3")
>>> game.view(state, 0)["revealed"], game.view(state, 1)["revealed"]
({'slot': '3', 'stone': 'crown'}, None)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, TypeVar

from qipan.core.errors import GameError, brief
from qipan.core.game import CHANCE, JSON, Game
from qipan.core.options import Option, Variant
from qipan.core.validate import MAX_COUNT, Reader
from qipan.games.tellstones.stones import (
    BELIEVE,
    BOAST,
    CHALLENGE,
    CHINESE,
    COUNTER,
    DOUBT,
    FIRST,
    HIDE,
    KIND_WORDS,
    LINE_LETTERS,
    NAME,
    PEEK,
    PLACE,
    SLOTS,
    STOP,
    SWAP,
    SYMBOLS,
    Action,
    parse_slot,
    parse_symbol,
    slot_label,
)

TARGET = 3
"""Points that win the game."""

MIDDLE = SLOTS // 2

# Phases: who decides what.
START, TURN, PEEKING, ANSWER_CHALLENGE, ANSWER_BOAST, ANSWER_COUNTER, PROVE, OVER = range(8)
PHASES = ("start", "turn", "peeking", "answer-challenge", "answer-boast", "answer-counter", "prove",
          "over")

# How the game ended.
ENDS = ("", "score", "proof", "turn-limit")

T = TypeVar("T")

Line = tuple[int, ...]
"""Seven slots: 0 empty, ``s + 1`` face-up symbol ``s``, ``-(s + 1)`` face-down symbol ``s``."""


@dataclass(frozen=True, slots=True)
class State:
    """A full Tellstones state (face-down symbols included). Immutable and hashable."""

    lines: tuple[Line, ...]
    scores: tuple[int, int]
    phase: int
    actor: int  # who decides now (meaningless at START and OVER)
    turn_player: int  # whose turn it is
    turn: int = 0  # completed turns
    ply: int = 0  # decisions and chance outcomes so far
    catch_up: tuple[bool, ...] = (False, False)  # per seat: the other team scored since its turn began
    bonus: bool = False  # this turn may peek up to three stones
    peeks_left: int = 0  # further peeks allowed this turn (phase PEEKING)
    peeked: tuple[tuple[int, int], ...] = ()  # (line, slot) peeked this turn
    target: tuple[int, int] | None = None  # the challenged stone
    boaster: int = -1  # who boasted (ANSWER_BOAST) or counter-boasted (ANSWER_COUNTER)
    last: tuple[int, Action] | None = None  # (player or CHANCE, action) of the last decision
    winner: int | None = None  # team 0/1, 2 for a draw, None while playing
    end: int = 0  # index into ENDS


class Tellstones(Game[State, Action]):
    """Tellstones: King's Gambit, with the round-table (4 players) and two-lines variants."""

    name = "tellstones"
    title = "Tellstones: King's Gambit"
    perfect_information = False
    public_history = False  # which stone went where is for the players to remember
    variants = (
        Variant("standard", "two players, one line of seven stones"),
        Variant("round-table", "圓桌王策: four players in two teams (players 1+3 against 2+4)"),
        Variant("two-lines", "畫下棋線: two players, two lines with their own seven stones each"),
    )
    options = (
        Option("first_stone", "scale", "the stone placed face up in the middle slot at setup",
               choices=SYMBOLS),
        Option("first_player", "0", "the seat that starts, or random (a chance event)",
               choices=("0", "1", "2", "3", "random"), seat=True),
        Option("turn_limit", 0, "end the game after this many turns, higher score winning "
               "(0: no limit)", minimum=0, maximum=100000),
    )

    _PLAYERS: ClassVar[dict[str, int]] = {"standard": 2, "round-table": 4, "two-lines": 2}
    _LINES: ClassVar[dict[str, int]] = {"standard": 1, "round-table": 1, "two-lines": 2}

    def __init__(self, variant: str | None = None, options: Mapping[str, object] | None = None):
        super().__init__(variant, options)
        self.players = self._PLAYERS[self.variant]
        self.lines = self._LINES[self.variant]
        self.teams = self.players > 2
        self.first_stone = SYMBOLS.index(self.config["first_stone"])
        self.turn_limit: int = self.config["turn_limit"]
        self._all = self._action_table()
        self._ids = {a: i for i, a in enumerate(self._all)}

    def check_options(self, values: dict[str, Any], explicit: frozenset[str]) -> dict[str, Any]:
        players = self._PLAYERS[self.variant]
        first = values["first_player"]
        if first != "random" and int(first) >= players:
            raise GameError(
                f"option first_player: {first} is not a seat of the {self.variant} variant; "
                f"choose one of {', '.join(str(p) for p in range(players))} or random"
            )
        return values

    @property
    def num_players(self) -> int:
        return self.players

    def player_name(self, player: int) -> str:
        if self.teams:
            return f"player {player + 1} (team {'AB'[player % 2]})"
        return f"player {player + 1}"

    def team(self, player: int) -> int:
        """The team of a seat: seats alternate A (0), B (1), A, B."""
        return player % 2

    def partner(self, player: int) -> int:
        """The teammate (the player themself in two-player games)."""
        return (player + 2) % 4 if self.teams else player

    def label(self, line: int, slot: int) -> str:
        return slot_label(line, slot, self.lines)

    # -- setup and turn order ------------------------------------------------------------------

    def initial_state(self) -> State:
        line = [0] * SLOTS
        line[MIDDLE] = self.first_stone + 1
        first = self.config["first_player"]
        starter = 0 if first == "random" else int(first)
        return State(
            lines=(tuple(line),) * self.lines,
            scores=(0, 0),
            phase=START if first == "random" else TURN,
            actor=starter,
            turn_player=starter,
            catch_up=(False,) * self.players,
        )

    def to_move(self, state: State) -> int | None:
        if state.phase == OVER:
            return None
        if state.phase == START:
            return CHANCE
        return state.actor

    def returns(self, state: State) -> tuple[float, ...]:
        if state.winner is None or state.winner == 2:
            return (0.0,) * self.players
        return tuple(1.0 if self.team(p) == state.winner else -1.0 for p in range(self.players))

    # -- legal actions ---------------------------------------------------------------------------

    def legal_actions(self, state: State) -> Sequence[Action]:
        phase = state.phase
        if phase == TURN:
            return self._turn_actions(state, Action)
        if phase == PEEKING:
            return [*self._peeks(state, state.peeked, Action), Action(STOP)]
        if phase in (ANSWER_CHALLENGE, PROVE):
            return [Action(NAME, symbol=s) for s in range(len(SYMBOLS))]
        if phase == ANSWER_BOAST:
            return [Action(BELIEVE), Action(DOUBT), Action(COUNTER)]
        if phase == ANSWER_COUNTER:
            return [Action(BELIEVE), Action(DOUBT)]
        if phase == START:
            return [Action(FIRST, a=p) for p in range(self.players)]
        return []

    def _turn_actions(self, state: State, make: Callable[..., T]) -> list[T]:
        """The actions of a turn, each built by ``make(kind, line, a, b, symbol)``: an
        :class:`Action`, or its id (:meth:`legal_action_ids`)."""
        places: list[T] = []
        hides: list[T] = []
        swaps: list[T] = []
        challenges: list[T] = []
        any_down = False
        for n, line in enumerate(state.lines):
            occupied = [i for i in range(SLOTS) if line[i]]
            lo, hi = occupied[0], occupied[-1]
            if lo > 0 or hi < SLOTS - 1:
                present = {abs(v) - 1 for v in line if v}
                for s in range(len(SYMBOLS)):
                    if s not in present:
                        if lo > 0:
                            places.append(make(PLACE, n, lo - 1, 0, s))
                        if hi < SLOTS - 1:
                            places.append(make(PLACE, n, hi + 1, 0, s))
            for i in occupied:
                if line[i] > 0:
                    hides.append(make(HIDE, n, i, 0, 0))
                else:
                    challenges.append(make(CHALLENGE, n, i, 0, 0))
                    any_down = True
            for x, i in enumerate(occupied):
                for j in occupied[x + 1:]:
                    swaps.append(make(SWAP, n, i, j, 0))
        actions = places + hides + swaps + self._peeks(state, (), make) + challenges
        if any_down:
            actions.append(make(BOAST, 0, 0, 0, 0))
        return actions

    def _peeks(self, state: State, skip: tuple[tuple[int, int], ...], make: Callable[..., T]) -> list[T]:
        peeks = []
        for n, line in enumerate(state.lines):
            for i in range(SLOTS):
                if line[i] < 0 and (n, i) not in skip:
                    peeks.append(make(PEEK, n, i, 0, 0))
                    if self.teams:
                        peeks.append(make(PEEK, n, i, 1, 0))
        return peeks

    def is_legal(self, state: State, action: Action) -> bool:
        return isinstance(action, Action) and action in self.legal_actions(state)

    @staticmethod
    def well_formed(action: object) -> bool:
        """Whether ``action`` is an :class:`Action` whose fields are in range (legal or not)."""
        if not isinstance(action, Action) or not all(type(v) is int for v in action):
            return False
        kind, line, a, b, symbol = action
        return (0 <= kind < len(KIND_WORDS) and 0 <= line < len(LINE_LETTERS)
                and 0 <= a < SLOTS and 0 <= symbol < len(SYMBOLS)
                and (b in (0, 1) if kind == PEEK else 0 <= b < SLOTS))

    def explain_illegal(self, state: State, action: Action) -> str:
        if not self.well_formed(action):
            return f"not a Tellstones action: {action!r}"
        phase = state.phase
        kind = action.kind
        who = self.player_name(state.actor)
        if phase == START:
            return "the starting player is drawn first (first 0, first 1, ...)"
        if kind == FIRST:
            return "the starting player is only drawn at the start"
        if phase in (ANSWER_CHALLENGE, PROVE):
            doing = "answer the challenge" if phase == ANSWER_CHALLENGE else "prove the boast"
            return f"{who} must {doing} by naming a stone: name crown, name shield, ..."
        if phase == ANSWER_BOAST:
            return f"{who} must answer the boast: believe, doubt or counter"
        if phase == ANSWER_COUNTER:
            return f"{who} must answer the counter-boast: believe or doubt (no counter-boast again)"
        if kind in (NAME, BELIEVE, DOUBT, COUNTER):
            return f"nothing to answer now; it is {who}'s turn to act"
        if phase == PEEKING and kind not in (PEEK, STOP):
            return f"{who} is still peeking: peek another face-down stone or stop"
        if kind == STOP:
            return "stop only ends a series of peeks"
        if action.line >= self.lines:
            return "this game has a single line"
        line = state.lines[action.line]
        where = self.label(action.line, action.a)
        down = any(v < 0 for ln in state.lines for v in ln)
        if kind == PLACE:
            occupied = [i for i in range(SLOTS) if line[i]]
            if len(occupied) == SLOTS:
                return "the line is full"
            if any(abs(v) - 1 == action.symbol for v in line if v):
                return f"the {SYMBOLS[action.symbol]} is already in the line, not in the pool"
            ends = [self.label(action.line, i) for i in (occupied[0] - 1, occupied[-1] + 1)
                    if 0 <= i < SLOTS]
            return f"stones go directly left or right of the line: {' or '.join(ends)}"
        if kind in (HIDE, SWAP, PEEK, CHALLENGE) and not line[action.a]:
            return f"there is no stone on {where}"
        if kind == HIDE:
            return f"the stone on {where} is face down already"
        if kind == SWAP:
            if action.a == action.b:
                return "swap needs two different stones"
            return f"there is no stone on {self.label(action.line, action.b)}"
        if kind in (PEEK, CHALLENGE) and line[action.a] > 0:
            done = "peeked" if kind == PEEK else "challenged"
            return f"the stone on {where} is face up; only face-down stones can be {done}"
        if kind == PEEK:
            if (action.line, action.a) in state.peeked:
                return f"the stone on {where} was peeked already this turn"
            if action.b and not self.teams:
                return "only the round-table variant lets a teammate look"
        if kind == BOAST and not down:
            return "a boast needs at least one face-down stone"
        return "it is not a legal move here"

    # -- applying actions ------------------------------------------------------------------------

    def next_state(self, state: State, action: Action) -> State:
        kind = action.kind
        me = state.actor
        st = replace(state, ply=state.ply + 1,
                     last=(CHANCE if state.phase == START else me, action))
        if kind == FIRST:
            return replace(st, phase=TURN, actor=action.a, turn_player=action.a)
        if kind == PLACE:
            return self._end_turn(self._set(st, action.line, action.a, action.symbol + 1))
        if kind == HIDE:
            return self._end_turn(self._set(st, action.line, action.a, -state.lines[action.line][action.a]))
        if kind == SWAP:
            line = list(state.lines[action.line])
            line[action.a], line[action.b] = line[action.b], line[action.a]
            return self._end_turn(self._with_line(st, action.line, tuple(line)))
        if kind == PEEK:
            peeked = (*state.peeked, (action.line, action.a))
            left = (2 if state.bonus else 0) if state.phase == TURN else state.peeks_left - 1
            st = replace(st, peeked=peeked, peeks_left=left)
            if left > 0 and self._peeks(st, peeked, Action):
                return replace(st, phase=PEEKING)
            return self._end_turn(st)
        if kind == STOP:
            return self._end_turn(st)
        if kind == CHALLENGE:
            return replace(st, phase=ANSWER_CHALLENGE, target=(action.line, action.a),
                           actor=self._answerer(me))
        if kind == BOAST:
            return replace(st, phase=ANSWER_BOAST, boaster=me, actor=self._answerer(me))
        if kind == BELIEVE:
            st = replace(st, boaster=-1)
            return self._end_turn(self._score(st, self.team(state.boaster)))
        if kind == DOUBT:
            return replace(st, phase=PROVE, actor=state.boaster, boaster=-1)
        if kind == COUNTER:
            return replace(st, phase=ANSWER_COUNTER, boaster=me, actor=state.boaster)
        if kind == NAME:
            if state.phase == ANSWER_CHALLENGE:
                assert state.target is not None
                line_no, slot = state.target
                truth = -state.lines[line_no][slot] - 1
                st = replace(self._set(st, line_no, slot, truth + 1), target=None)
                scorer = self.team(me) if truth == action.symbol else 1 - self.team(me)
                return self._end_turn(self._score(st, scorer))
            line_no, slot = self._next_proof_stone(state)
            truth = -state.lines[line_no][slot] - 1
            st = self._set(st, line_no, slot, truth + 1)
            if truth != action.symbol:
                return self._finish(st, 1 - self.team(me), 2)
            if self._next_proof_stone(st)[0] < 0:
                return self._finish(st, self.team(me), 2)
            return replace(st, actor=self.partner(me))
        raise GameError(f"not a Tellstones action: {action!r}")

    def _answerer(self, player: int) -> int:
        # The next player in turn order is always on the other team.
        return (player + 1) % self.players

    def _set(self, state: State, line_no: int, slot: int, value: int) -> State:
        line = list(state.lines[line_no])
        line[slot] = value
        return self._with_line(state, line_no, tuple(line))

    def _with_line(self, state: State, line_no: int, line: Line) -> State:
        lines = list(state.lines)
        lines[line_no] = line
        return replace(state, lines=tuple(lines))

    def _next_proof_stone(self, state: State) -> tuple[int, int]:
        for n, line in enumerate(state.lines):
            for i in range(SLOTS):
                if line[i] < 0:
                    return n, i
        return -1, -1

    def _score(self, state: State, team: int) -> State:
        scores = list(state.scores)
        scores[team] += 1
        # "If the opponent scored during their last turn or during your last turn": the side
        # scored against peeks three in the first of the next two turns that is theirs. With
        # two players that is the opponent's next turn, or the turn player's own next one when
        # the opponent scored during it; at the round table it is one turn of the team (three
        # stones in all for the two), never one per teammate.
        nxt = (state.turn_player + 1) % self.players
        seat = nxt if self.team(nxt) != team else (state.turn_player + 2) % self.players
        catch_up = tuple(c or p == seat for p, c in enumerate(state.catch_up))
        state = replace(state, scores=(scores[0], scores[1]), catch_up=catch_up)
        if scores[team] >= TARGET:
            return self._finish(state, team, 1)
        return state

    def _finish(self, state: State, winner: int, end: int) -> State:
        return replace(state, phase=OVER, winner=winner, end=end, target=None, boaster=-1,
                       peeks_left=0, peeked=(), actor=state.turn_player)

    def _end_turn(self, state: State) -> State:
        if state.phase == OVER:
            return replace(state, turn=state.turn + 1)
        turn = state.turn + 1
        if self.turn_limit and turn >= self.turn_limit:
            a, b = state.scores
            return replace(self._finish(state, 0 if a > b else 1 if b > a else 2, 3), turn=turn)
        nxt = (state.turn_player + 1) % self.players
        catch_up = list(state.catch_up)
        bonus = catch_up[nxt]
        catch_up[nxt] = False
        return replace(state, phase=TURN, actor=nxt, turn_player=nxt, turn=turn, bonus=bonus,
                       catch_up=tuple(catch_up), peeks_left=0, peeked=(), target=None)

    # -- notation --------------------------------------------------------------------------------

    def action_text(self, state: State, action: Action) -> str:
        if not self.well_formed(action):
            return repr(action)
        kind = action.kind
        word = KIND_WORDS[kind]
        where = self.label(action.line, action.a)
        if kind == PLACE:
            return f"place {SYMBOLS[action.symbol]} {where}"
        if kind in (HIDE, CHALLENGE):
            return f"{word} {where}"
        if kind == SWAP:
            return f"swap {where} {self.label(action.line, action.b)}"
        if kind == PEEK:
            return f"peek {where}" + (" partner" if action.b else "")
        if kind == NAME:
            return f"name {SYMBOLS[action.symbol]}"
        if kind == FIRST:
            return f"first {action.a}"
        return word

    def parse_action(self, state: State, text: str) -> Action:
        words = text.strip().lower().replace(",", " ").split()
        if not words:
            raise GameError("empty move; try place, hide, swap, peek, challenge, boast or name")
        head, rest = words[0], words[1:]
        try:
            return self._parse_words(state, head, rest)
        except GameError as exc:
            raise GameError(f"cannot read {brief(text.strip())}: {exc}") from None

    def _parse_words(self, state: State, head: str, rest: list[str]) -> Action:
        aliases = {"counter-boast": "counter", "counterboast": "counter", "done": "stop",
                   "look": "peek", "turn": "hide", "flip": "hide"}
        head = aliases.get(head, head)
        if head not in KIND_WORDS:
            try:  # a bare stone name answers a challenge or a proof
                symbol = parse_symbol(head)
            except GameError:
                raise GameError(
                    f"unknown action {brief(head, 40)}; actions are place, hide, swap, peek, stop, challenge, "
                    "boast, believe, doubt, counter, name"
                ) from None
            if rest:
                raise GameError("a bare stone name takes nothing after it")
            return Action(NAME, symbol=symbol)
        kind = KIND_WORDS.index(head)
        counts = {PLACE: (2, 3), HIDE: (1, 1), SWAP: (2, 2), PEEK: (1, 2), CHALLENGE: (1, 1),
                  NAME: (1, 1), FIRST: (1, 1)}
        low, high = counts.get(kind, (0, 0))
        if not low <= len(rest) <= high:
            usage = {PLACE: "place STONE SLOT (or place STONE left|right)", HIDE: "hide SLOT",
                     SWAP: "swap SLOT SLOT", PEEK: "peek SLOT [partner]",
                     CHALLENGE: "challenge SLOT", NAME: "name STONE", FIRST: "first SEAT"}
            raise GameError(f"write it as: {usage.get(kind, head)}")
        if kind == PLACE:
            symbol = parse_symbol(rest[0])
            line, slot = self._parse_place_slot(state, rest[1:])
            return Action(PLACE, line, slot, symbol=symbol)
        if kind in (HIDE, CHALLENGE):
            line, slot = parse_slot(rest[0], self.lines)
            return Action(kind, line, slot)
        if kind == SWAP:
            (l1, s1), (l2, s2) = parse_slot(rest[0], self.lines), parse_slot(rest[1], self.lines)
            if l1 != l2:
                raise GameError("a swap exchanges two stones of the same line")
            if s1 == s2:
                raise GameError("a swap needs two different slots")
            return Action(SWAP, l1, min(s1, s2), max(s1, s2))
        if kind == PEEK:
            line, slot = parse_slot(rest[0], self.lines)
            mate = 0
            if len(rest) == 2:
                if rest[1] not in ("partner", "teammate", "mate"):
                    raise GameError(f"{brief(rest[1], 40)}: after the slot only 'partner' may follow")
                mate = 1
            return Action(PEEK, line, slot, mate)
        if kind == NAME:
            return Action(NAME, symbol=parse_symbol(rest[0]))
        if kind == FIRST:
            if not rest[0].isdecimal() or int(rest[0]) >= self.players:
                raise GameError(f"first takes a seat 0..{self.players - 1}")
            return Action(FIRST, a=int(rest[0]))
        return Action(kind)

    def _parse_place_slot(self, state: State, words: list[str]) -> tuple[int, int]:
        side = [w for w in words if w in ("left", "right", "l", "r")]
        if not side:
            if len(words) != 1:
                raise GameError("say where: a slot (e.g. 3) or left/right")
            return parse_slot(words[0], self.lines)
        others = [w for w in words if w not in side]
        if self.lines > 1 and (len(others) != 1 or others[0] not in ("a", "b")):
            raise GameError("with two lines say which: place STONE a left, place STONE b right, ...")
        line = "ab".index(others[0]) if others else 0
        if others and line >= self.lines:
            raise GameError("this game has a single line")
        occupied = [i for i in range(SLOTS) if state.lines[line][i]]
        slot = occupied[0] - 1 if side[0].startswith("l") else occupied[-1] + 1
        if not 0 <= slot < SLOTS:
            raise GameError(f"the line reaches its {'left' if slot < 0 else 'right'} edge already")
        return line, slot

    def describe_action(self, state: State, action: Action) -> str:
        kind = action.kind
        who = self.player_name(state.actor)
        where = self.label(action.line, action.a)
        if kind == FIRST:
            return f"{self.player_name(action.a)} starts"
        if kind == PLACE:
            return f"{who} places the {SYMBOLS[action.symbol]} on {where}"
        if kind == HIDE:
            return f"{who} turns the stone on {where} face down"
        if kind == SWAP:
            return f"{who} swaps the stones on {where} and {self.label(action.line, action.b)}"
        if kind == PEEK:
            looker = self.player_name(self.partner(state.actor)) if action.b else who
            return f"{looker} peeks at the stone on {where}"
        if kind == STOP:
            return f"{who} stops peeking"
        if kind == CHALLENGE:
            return f"{who} challenges {self.player_name(self._answerer(state.actor))} to name {where}"
        if kind == BOAST:
            return f"{who} boasts to know every face-down stone"
        if kind == BELIEVE:
            return f"{who} believes; {self.player_name(state.boaster)} scores"
        if kind == DOUBT:
            return f"{who} doubts; {self.player_name(state.boaster)} must prove it"
        if kind == COUNTER:
            return f"{who} counter-boasts: they know them too"
        # NAME: the stone is turned face up, so saying whether it was right leaks nothing.
        if state.phase == ANSWER_CHALLENGE and state.target is not None:
            line_no, slot = state.target
        else:
            line_no, slot = self._next_proof_stone(state)
        truth = -state.lines[line_no][slot] - 1
        verdict = "right" if truth == action.symbol else f"wrong, it is the {SYMBOLS[truth]}"
        return f"{who} names {self.label(line_no, slot)} the {SYMBOLS[action.symbol]}: {verdict}"

    def result_text(self, state: State) -> str:
        if state.winner is None:
            return "the game is not over"
        if state.winner == 2:
            return f"draw at the turn limit, {state.scores[0]}-{state.scores[1]}"
        if self.teams:
            who = f"team {'AB'[state.winner]} (players {state.winner + 1} and {state.winner + 3})"
        else:
            who = self.player_name(state.winner)
        how = {1: f"scoring {TARGET}", 2: "a proof", 3: "points at the turn limit"}[state.end]
        if state.end == 2 and state.last is not None and self.team(state.last[0]) != state.winner:
            how = "a failed proof"
        return f"{who} won by {how} ({state.scores[0]}-{state.scores[1]})"

    # -- integer action space --------------------------------------------------------------------

    def _action_table(self) -> list[Action]:
        table: list[Action] = []
        for n in range(self.lines):
            table += [Action(PLACE, n, i, symbol=s) for s in range(len(SYMBOLS)) for i in range(SLOTS)]
            table += [Action(HIDE, n, i) for i in range(SLOTS)]
            table += [Action(SWAP, n, i, j) for i in range(SLOTS) for j in range(i + 1, SLOTS)]
            table += [Action(PEEK, n, i, m) for i in range(SLOTS) for m in range(2 if self.teams else 1)]
            table += [Action(CHALLENGE, n, i) for i in range(SLOTS)]
        table += [Action(STOP), Action(BOAST), Action(BELIEVE), Action(DOUBT), Action(COUNTER)]
        table += [Action(NAME, symbol=s) for s in range(len(SYMBOLS))]
        return table

    @property
    def num_distinct_actions(self) -> int:
        return len(self._all)

    def action_id(self, state: State, action: Action) -> int:
        if action not in self._ids:
            raise GameError(f"{action!r} has no action id (chance outcomes have none)")
        return self._ids[action]

    def legal_action_ids(self, state: State) -> list[int]:
        """The ids of :meth:`legal_actions`, in order (one table look-up each)."""
        if state.phase == START:
            raise GameError("the choice of the first player is a chance outcome and has no action id")
        ids = self._ids

        def make(*fields: int) -> int:  # a plain tuple finds its Action's id: equal, same hash
            return ids[fields]  # type: ignore[index]

        if state.phase == TURN:
            return self._turn_actions(state, make)
        if state.phase == PEEKING:
            return [*self._peeks(state, state.peeked, make), ids[Action(STOP)]]
        return [ids[a] for a in self.legal_actions(state)]

    def action_from_id(self, state: State, action_id: int) -> Action:
        if not 0 <= action_id < len(self._all):
            raise GameError(f"action id {action_id} is out of range 0..{len(self._all) - 1}")
        return self._all[action_id]

    # -- views -----------------------------------------------------------------------------------

    def looker(self, state: State) -> int | None:
        """The seat that sees a stone right now: the looker of a peek that was the last action."""
        if state.last is None or state.last[1].kind != PEEK:
            return None
        player, action = state.last
        return self.partner(player) if action.b else player

    def view(self, state: State, player: int | None) -> dict[str, JSON]:
        self.check_player(player)
        revealed = None
        if player is not None and self.looker(state) == player:
            assert state.last is not None
            action = state.last[1]
            revealed = {"slot": self.label(action.line, action.a),
                        "stone": SYMBOLS[-state.lines[action.line][action.a] - 1]}
        data = self._public(state)
        data["player"] = player
        data["revealed"] = revealed
        return data

    def _public(self, state: State) -> dict[str, JSON]:
        to_move = self.to_move(state)
        proving = None
        if state.phase == PROVE:
            n, i = self._next_proof_stone(state)
            proving = self.label(n, i)
        last = None
        if state.last is not None:
            who, action = state.last
            last = {"player": "chance" if who == CHANCE else who, "action": self.action_text(state, action)}
        return {
            "game": self.name,
            "variant": self.variant,
            "players": self.players,
            "teams": [[p for p in range(self.players) if self.team(p) == t] for t in (0, 1)],
            "to_move": "chance" if to_move == CHANCE else to_move,
            "phase": PHASES[state.phase],
            "turn_player": state.turn_player,
            "turn": state.turn,
            "ply": state.ply,
            "lines": [[None if v == 0 else SYMBOLS[v - 1] if v > 0 else "?" for v in line]
                      for line in state.lines],
            "pools": [[s for s in SYMBOLS if s not in {SYMBOLS[abs(v) - 1] for v in line if v}]
                      for line in state.lines],
            "scores": list(state.scores),
            "target": TARGET,
            "catch_up": list(state.catch_up),
            "peek_allowance": 3 if state.bonus else 1,
            "peeks_left": state.peeks_left,
            "peeked": [self.label(n, i) for n, i in state.peeked],
            "challenged": None if state.target is None else self.label(*state.target),
            "boaster": None if state.boaster < 0 else state.boaster,
            "proving": proving,
            "last": last,
            "winner": state.winner,
            "end": ENDS[state.end] or None,
            "result": None if state.winner is None else self.result_text(state),
        }

    def sample_state(self, view: Mapping[str, JSON], rng: random.Random) -> State:
        """A full state consistent with ``view``: face-down stones get a random arrangement of
        the symbols that are neither face up nor in the pool (a revealed stone stays fixed)."""
        return self.sample_state_with(view, rng, None)

    def sample_state_with(self, view: Mapping[str, JSON], rng: random.Random,
                          guess: Mapping[str, str] | None) -> State:
        """Like :meth:`sample_state`, taking the stones of ``guess`` (slot label -> stone name)
        first where they fit; the rest are drawn at random."""
        try:
            data = {k: view[k] for k in ("phase", "turn_player", "turn", "ply", "scores", "catch_up",
                                         "peek_allowance", "peeks_left", "peeked", "challenged",
                                         "boaster", "last", "winner", "end", "to_move")}
            fixed = dict(guess or {})
            revealed = view.get("revealed")
            if revealed:
                fixed[revealed["slot"]] = revealed["stone"]
            lines = []
            for n, line in enumerate(view["lines"]):
                visible = {s for s in line if s not in (None, "?")}
                free = [s for s in SYMBOLS if s not in visible and s not in view["pools"][n]]
                rng.shuffle(free)
                cells: list[str | None] = list(line)
                holes = [i for i, s in enumerate(line) if s == "?"]
                for i in holes:
                    want = fixed.get(self.label(n, i))
                    if want in free:
                        cells[i] = "-" + want
                        free.remove(want)
                for i in holes:
                    if cells[i] == "?":
                        cells[i] = "-" + free.pop()
                lines.append(cells)
        except (KeyError, TypeError, IndexError, AttributeError) as exc:
            raise GameError(f"not a Tellstones view: missing or bad field {exc}") from None
        data["lines"] = lines
        data["actor"] = view["to_move"]
        return self.state_from_json(data)

    # -- JSON ------------------------------------------------------------------------------------

    def state_to_json(self, state: State) -> JSON:
        """Like the public view, with face-down stones written ``-name`` and no viewer fields."""
        data = self._public(state)
        data["lines"] = [[None if v == 0 else SYMBOLS[abs(v) - 1] if v > 0 else "-" + SYMBOLS[-v - 1]
                          for v in line] for line in state.lines]
        data["actor"] = state.actor
        return data

    def state_from_json(self, data: JSON) -> State:
        read = Reader("Tellstones state")
        data = read.mapping(data, "the state")
        n = self.players

        def field(key: str) -> Any:
            return read.field(data, key)

        lines = tuple(self._line_from_json(read, raw)
                      for raw in read.array(field("lines"), "lines", length=self.lines))
        phase = read.choice(field("phase"), "phase", PHASES)
        scores = [read.integer(x, "scores", 0, TARGET) for x in read.array(field("scores"), "scores", length=2)]
        turn_player = read.integer(field("turn_player"), "turn_player", 0, n - 1)
        actor = turn_player if phase in (START, OVER) else read.integer(field("actor"), "actor", 0, n - 1)
        catch_up = tuple(read.flag(x, "catch_up") for x in read.array(field("catch_up"), "catch_up", length=n))
        boaster, winner, end = field("boaster"), field("winner"), field("end")
        challenged = field("challenged")
        state = State(
            lines=lines, scores=(scores[0], scores[1]), phase=phase, actor=actor, turn_player=turn_player,
            turn=read.integer(field("turn"), "turn", 0, self.turn_limit or MAX_COUNT),
            ply=read.integer(field("ply"), "ply", 0, MAX_COUNT),
            catch_up=catch_up,
            bonus=(1, 3)[read.choice(field("peek_allowance"), "peek_allowance", (1, 3))] == 3,
            peeks_left=read.integer(field("peeks_left"), "peeks_left", 0, 2),
            peeked=tuple(self._slot_from_json(read, x, "peeked")
                         for x in read.array(field("peeked"), "peeked", longest=3)),
            target=None if challenged is None else self._slot_from_json(read, challenged, "challenged"),
            boaster=-1 if boaster is None else read.integer(boaster, "boaster", 0, n - 1),
            winner=None if winner is None else read.integer(winner, "winner", 0, 2),
            end=0 if end is None else 1 + read.choice(end, "end", ENDS[1:]),
        )
        self._check_consistent(read, state)
        last = field("last")
        if last is not None:
            state = replace(state, last=self._last_from_json(read, state, last))
        return state

    def _line_from_json(self, read: Reader, raw: Any) -> Line:
        names = {name: s + 1 for s, name in enumerate(SYMBOLS)} | {
            "-" + name: -(s + 1) for s, name in enumerate(SYMBOLS)}
        line = []
        for cell in read.array(raw, "a line", length=SLOTS):
            if cell is not None and (not isinstance(cell, str) or cell not in names):
                raise read.fail(f"slot value {brief(cell, 40)} is not null, a stone or -stone")
            line.append(0 if cell is None else names[cell])
        stones = [abs(v) for v in line if v]
        if len(set(stones)) != len(stones):
            raise read.fail("a stone appears twice in one line")
        occupied = [i for i in range(SLOTS) if line[i]]
        if not occupied or occupied != list(range(occupied[0], occupied[-1] + 1)):
            raise read.fail("the stones of a line must form one unbroken row")
        return tuple(line)

    def _slot_from_json(self, read: Reader, value: Any, name: str) -> tuple[int, int]:
        try:
            return parse_slot(read.text(value, name, 4), self.lines)
        except GameError as exc:
            raise read.fail(f"{name}: {exc}") from None

    def _last_from_json(self, read: Reader, state: State, data: Any) -> tuple[int, Action]:
        """The last decision, which must fit the state: above all a peek, whose stone the looker
        still sees in their view, must point at a face-down stone."""
        data = read.mapping(data, "last")
        who = read.field(data, "player")
        who = CHANCE if who == "chance" else read.integer(who, "last player (a seat or chance)", 0, self.players - 1)
        try:
            action = self.read_action(read.text(read.field(data, "action"), "last action", 40))
        except GameError as exc:
            raise read.fail(f"last action: {exc}") from None
        if state.phase == START:
            raise read.fail("nothing happens before the first player is drawn: last must be null")
        if (who == CHANCE) != (action.kind == FIRST):
            raise read.fail("chance draws the first player (first N) and does nothing else")
        if action.kind == FIRST and (state.turn, state.phase, state.turn_player) != (0, TURN, action.a):
            raise read.fail(f"after 'first {action.a}' player {action.a} begins turn 0")
        if action.kind == PEEK:
            if state.lines[action.line][action.a] >= 0:
                raise read.fail(f"the last action peeks at {self.label(action.line, action.a)}, which holds "
                                "no face-down stone")
            if action.b and not self.teams:
                raise read.fail("only the round-table variant lets a teammate look")
            peeker = {PEEKING: state.turn_player, TURN: (state.turn_player - 1) % self.players,
                      OVER: state.turn_player}.get(state.phase)
            if peeker is None:
                raise read.fail(f"a peek cannot lead to the {PHASES[state.phase]} phase")
            if who != peeker:
                raise read.fail(f"the last peek here is player {peeker}'s (the last turn's), not player {who}'s")
        return who, action

    def _check_consistent(self, read: Reader, state: State) -> None:
        """Refuse a state no game can reach (every rule below holds after every action)."""
        phase, turn_player = state.phase, state.turn_player
        answerer = self._answerer(turn_player)
        down = any(v < 0 for line in state.lines for v in line)
        if phase == START and (self.config["first_player"] != "random" or state != self.initial_state()):
            raise read.fail("the start phase (drawing the first player) comes before anything else, "
                            "and only with first_player random")
        if state.ply < state.turn:
            raise read.fail(f"every turn takes a decision: ply ({state.ply}) is at least turn ({state.turn})")
        if (phase == OVER) != (state.end > 0) or (phase == OVER) != (state.winner is not None):
            raise read.fail("end and winner (0, 1 or 2 for a draw) say how a game ended: set exactly when "
                            "the phase is over")
        if state.winner == 2 and ENDS[state.end] != "turn-limit":
            raise read.fail("only the turn limit ends in a draw (winner 2)")
        if ENDS[state.end] == "turn-limit":
            a, b = state.scores
            if state.turn != self.turn_limit or state.winner != (0 if a > b else 1 if b > a else 2):
                raise read.fail(f"a game ended at the turn limit ({self.turn_limit or 'none'}) goes to the "
                                "higher score")
        if ENDS[state.end] == "score" and state.winner is not None and state.scores[state.winner] != TARGET:
            raise read.fail(f"a game won by scoring has a winner with {TARGET} points")
        if phase != OVER and self.turn_limit and state.turn >= self.turn_limit:
            raise read.fail(f"the turn limit ({self.turn_limit}) is reached: the game is over")
        if phase != OVER and max(state.scores) >= TARGET:
            raise read.fail(f"a side with {TARGET} points has won: the game is over")
        if phase in (TURN, PEEKING) and state.actor != turn_player:
            raise read.fail(f"the actor of a turn is its turn_player ({turn_player})")
        if (phase == ANSWER_CHALLENGE) != (state.target is not None):
            raise read.fail("challenged is set exactly while a challenge is answered")
        if phase == ANSWER_CHALLENGE:
            assert state.target is not None
            if state.lines[state.target[0]][state.target[1]] >= 0:
                raise read.fail("a challenge must point at a face-down stone")
            if state.actor != answerer:
                raise read.fail(f"the next player ({answerer}) must answer the challenge")
        if phase in (ANSWER_BOAST, ANSWER_COUNTER, PROVE) and not down:
            raise read.fail("a boast needs at least one face-down stone")
        if phase == ANSWER_BOAST and (state.boaster, state.actor) != (turn_player, answerer):
            raise read.fail(f"the boaster is the turn player ({turn_player}), answered by the "
                            f"next player ({answerer})")
        if phase == ANSWER_COUNTER and (state.boaster, state.actor) != (answerer, turn_player):
            raise read.fail(f"a counter-boast comes from the next player ({answerer}) and is "
                            f"answered by the boaster ({turn_player})")
        if phase not in (ANSWER_BOAST, ANSWER_COUNTER) and state.boaster >= 0:
            raise read.fail("boaster is set only while a boast or counter-boast is answered")
        if phase == PEEKING:
            if not state.bonus or not state.peeked or state.peeks_left + len(state.peeked) != 3:
                raise read.fail("a series of peeks has peek_allowance 3 and peeks_left + peeked = 3")
            if len(set(state.peeked)) != len(state.peeked) or any(
                    state.lines[n][i] >= 0 for n, i in state.peeked):
                raise read.fail("peeked lists different face-down stones")
        elif state.peeked or state.peeks_left:
            raise read.fail("peeked and peeks_left are empty outside a series of peeks")

    def read_action(self, text: str) -> Action:
        """Parse canonical notation (as in a view's ``last`` field) without a state.

        >>> import qipan
        >>> qipan.load("tellstones", variant="two-lines").read_action("swap a2 a5")
        Action(kind=2, line=0, a=1, b=4, symbol=0)
        """
        words = text.strip().lower().split()
        if not words or (words[0] == "place" and words[-1] in ("left", "right", "l", "r")):
            raise GameError(f"{brief(text)} is not canonical notation")
        return self._parse_words(State((), (0, 0), TURN, 0, 0), words[0], words[1:])


__all__ = ["CHINESE", "TARGET", "Action", "State", "Tellstones"]
