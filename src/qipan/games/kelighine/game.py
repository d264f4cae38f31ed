"""Kelighine: the dice race of the rulebook, versions 1 and 2, with every push rule.

>>> from qipan import Match
>>> import qipan
>>> match = Match(qipan.load("kelighine"), chance="manual")
>>> match.play("roll:2")
>>> match.legal_texts()
['I+2']
>>> match.play("I+2")
>>> [p["cell"] for p in match.game.view(match.state, None)["pieces"]]
['A4', 'H']
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar

from qipan.core.errors import GameError, brief, choices_text
from qipan.core.game import CHANCE, JSON, Game
from qipan.core.options import Option, Variant
from qipan.games.kelighine import board
from qipan.games.kelighine.board import GAP, INDIRECT, STARTS, J, name, step, tier
from qipan.games.kelighine.log import Event, describe_events, explain_push
from qipan.games.kelighine.state import (
    ACT,
    BACK,
    CAUSES,
    CORNER,
    DIRECT,
    DOWN,
    FALLBACK,
    ONES,
    ONES_FOUR,
    ONES_NAMES,
    ONES_REROLL,
    ONES_TWO,
    OVER,
    PASS,
    PERSIST,
    PHASES,
    PUSH,
    RESERVE,
    ROLL,
    RULES,
    START,
    Action,
    Pending,
    Piece,
    State,
)
from qipan.games.kelighine.state import (
    INDIRECT as CAUSE_INDIRECT,
)

_START_ORDER = (board.I, board.H, board.K, board.L)  # player 1 I, 2 H, 3 K, 4 L
_MOVE_RE = re.compile(r"^([A-Z]\d{0,2})([+-])(\d+)$")
_PROMOTE_RE = re.compile(r"^([A-Z]\d{0,2})\^([A-Z]\d{0,2})(?:/(\d+))?$")
_PROMOTE_PAIRS: tuple[tuple[int, int], ...] = tuple(
    (c, t) for c in range(32) for t in board.upper_cells(c)
)
_PAIR_INDEX = {pair: i for i, pair in enumerate(_PROMOTE_PAIRS)}
_ONES_CODES = (ONES_FOUR, ONES_REROLL, ONES_TWO)
_MOVE_BASE = 46
_PROMOTE_BASE = _MOVE_BASE + 40 * 12


def _on_field(c: int) -> bool:
    return c < J


def push_destinations(origin: int, occupied: set[int], start: int) -> tuple[int, tuple[int, ...]]:
    """Where a piece pushed from ``origin`` may go (rules contract, section 4): the rule that
    applies and its destinations, given the occupied cells and the piece's start cell."""
    free = set(range(36)) - occupied
    if tier(origin) >= 2:
        low = tuple(c for c in board.lower_cells(origin) if c in free)
        if low:
            return DOWN, low
    corners = board.nearest_corners(origin, free)
    if corners:
        return (CORNER if tier(origin) == 1 else FALLBACK), corners
    return BACK, (start,)


class _Work:
    """A mutable scratch copy of a state while one action is carried out."""

    def __init__(self, game: Kelighine, s: State):
        self.game = game
        self.pieces = [list(ps) for ps in s.pieces]
        self.turn = s.turn
        self.phase = s.phase
        self.rolled = s.rolled
        self.dice = s.dice
        self.one_die = s.one_die
        self.last = s.last
        self.indirect = INDIRECT[s.last] if s.last >= 0 else frozenset()
        self.moved = s.moved
        self.pending = s.pending
        self.after = s.after
        self.log: list[Event] = list(s.log)
        self.prev_log = s.prev_log
        self.number = s.number
        self.winner = s.winner

    def freeze(self) -> State:
        return State(
            tuple(tuple(sorted(ps)) for ps in self.pieces),
            self.turn,
            self.phase,
            self.rolled,
            self.dice,
            self.one_die,
            self.last,
            self.moved,
            self.pending,
            self.after,
            tuple(self.log),
            self.prev_log,
            self.number,
            self.winner,
        )

    # -- pieces ------------------------------------------------------------------------------

    def take(self, player: int, c: int) -> Piece:
        ps = self.pieces[player]
        for i, p in enumerate(ps):
            if p.cell == c:
                return ps.pop(i)
        raise GameError(f"player {player + 1} has no piece on {name(c)}")

    def occupant(self, c: int) -> int | None:
        for owner, ps in enumerate(self.pieces):
            for p in ps:
                if p.cell == c:
                    return owner
        return None

    def occupied(self) -> set[int]:
        return {p.cell for ps in self.pieces for p in ps if p.cell < 36}

    def put(self, player: int, piece: Piece) -> None:
        self.pieces[player].append(piece)
        if player == self.turn:
            self.moved = piece.cell

    # -- pushing -----------------------------------------------------------------------------

    def destinations(self, owner: int, origin: int) -> tuple[int, tuple[int, ...]]:
        return push_destinations(origin, self.occupied(), self.game.start_of(owner))

    def push(self, owner: int, piece: Piece, origin: int, cause: int, pusher: int) -> bool:
        """Push ``piece`` (already lifted) from ``origin``, again while it lands on an indirect
        cell. False when its owner must choose a destination (``self.pending`` is then set)."""
        while True:
            rule, options = self.destinations(owner, origin)
            if len(options) > 1:
                self.pending = Pending(owner, piece, origin, cause, rule, options, pusher)
                return False
            dest = options[0]
            if not self.land(owner, piece, origin, dest, cause, rule, False, pusher):
                return True
            piece = self.take(owner, dest)
            origin, cause = dest, PERSIST

    def land(
        self, owner: int, piece: Piece, origin: int, dest: int, cause: int, rule: int, chosen: bool, pusher: int
    ) -> bool:
        """Place a pushed piece; True when it landed on an indirect cell (to be pushed again)."""
        if rule == BACK:
            new = Piece(dest, GAP[dest], 0, -1)
        elif dest in board.CORNERS and piece.done == 0:
            # keep the A-lap position: the corner's half-step value nearest the current one
            delta = (GAP[dest] - piece.a) % 32
            if delta > 16:
                delta -= 32
            new = Piece(dest, piece.a + delta, 0, -1)
        else:
            new = Piece(dest, piece.a, piece.done, -1)
        self.put(owner, new)
        self.log.append(("push", owner, origin, dest, cause, rule, self.last, int(chosen), pusher))
        return dest in self.indirect

    def finish_pushes(self) -> None:
        """After a direct-push chain: the mover's own indirect push, then the turn's next step."""
        if self.pending is None and self.after >= 0:
            x, self.after = self.after, -1
            owner = self.occupant(x)
            assert owner is not None
            self.push(owner, self.take(owner, x), x, CAUSE_INDIRECT, -1)
        self.settle()

    def settle(self) -> None:
        if self.winner >= 0:
            self.phase = OVER
        elif self.pending is not None:
            self.phase = PUSH
        elif not self.dice:
            self.end_turn()
        else:
            self.phase = ACT

    # -- moves ------------------------------------------------------------------------------

    def move(self, c: int, steps: int) -> None:
        player = self.turn
        piece = self.take(player, c)
        a, done, entry = piece.a, piece.done, piece.entry
        t = tier(c)
        if t == 0:
            low, high = board.gap_neighbours(c)
            x = step(high, steps - 1) if steps > 0 else step(low, steps + 1)
            if done == 0:
                a += 2 * steps - 1
        else:
            x = step(c, steps)
            if done == 0:
                a += 2 * steps
        tx = tier(x)
        lap = 0
        if tx == 1 and done == 0 and a >= self.game.lap_goal(player):
            done, a, lap = 1, 0, 1
        elif tx >= 2 and done == tx - 1 and steps > 0:
            before = (board.number(c) - board.number(entry)) % 8
            if before + steps >= 8:
                done, entry, lap = tx, -1, tx
        victim = self.occupant(x)
        lifted = self.take(victim, x) if victim is not None else None
        self.put(player, Piece(x, a, done, entry))
        self.log.append(("move", player, c, x, steps))
        if lap:
            self.log.append(("lap", player, x, lap))
        self.after = x if x in self.indirect else -1
        if lifted is not None and victim is not None:
            self.push(victim, lifted, x, DIRECT, player)
        self.finish_pushes()

    def promote(self, c: int, target: int) -> None:
        player = self.turn
        piece = self.take(player, c)
        if target == J:
            self.put(player, Piece(J, 0, 3, -1))
            self.log.append(("promote", player, c, J, 0))
            if all(p.cell == J for p in self.pieces[player]):
                self.winner = player
                self.log.append(("win", player))
            self.settle()
            return
        coin = piece.done < tier(target)
        self.put(player, Piece(target, 0, piece.done, target if coin else -1))
        self.log.append(("promote", player, c, target, int(coin)))
        self.after = target if target in self.indirect else -1
        self.finish_pushes()

    def choose_push(self, dest: int) -> None:
        pend = self.pending
        assert pend is not None
        self.pending = None
        if self.land(pend.owner, pend.piece, pend.origin, dest, pend.cause, pend.rule, True, pend.pusher):
            self.push(pend.owner, self.take(pend.owner, dest), dest, PERSIST, pend.pusher)
        self.finish_pushes()

    # -- turns ------------------------------------------------------------------------------

    def use_dice(self, dice: tuple[int, ...]) -> None:
        """The roll is settled: doubles entry, the one-die rule, then the player acts."""
        player = self.turn
        if len(dice) >= 2 and dice[0] == dice[-1]:
            self.enter(player)
        self.dice = dice
        self.one_die = self.game.version == 2 and (
            sum(p.cell == J for p in self.pieces[player]) == self.game.pieces_per_player - 1
        )
        self.phase = ACT

    def enter(self, player: int) -> None:
        for i, p in enumerate(self.pieces[player]):
            if p.cell == RESERVE:
                start = self.game.start_of(player)
                self.pieces[player].pop(i)
                self.put(player, Piece(start, GAP[start], 0, -1))
                self.log.append(("enter", player, start))
                return

    def end_turn(self) -> None:
        self.last = self.moved
        self.indirect = INDIRECT[self.last] if self.last >= 0 else frozenset()
        self.turn = (self.turn + 1) % self.game.num_players
        self.prev_log = tuple(self.log)
        self.log = []
        self.number += 1
        self.moved = -1
        self.rolled = ()
        self.dice = ()
        self.one_die = False
        self.phase = ROLL
        if self.game.version == 2 and not any(_on_field(p.cell) for p in self.pieces[self.turn]):
            self.enter(self.turn)


class Kelighine(Game[State, Action]):
    """Kelighine (version 2.1 of the rulebook by 陳捷), with the decisions of the rules contract."""

    name: ClassVar[str] = "kelighine"
    title: ClassVar[str] = "Kelighine"
    variants: ClassVar[tuple[Variant, ...]] = (
        Variant("standard", "the rulebook's game; choose version 1 or 2 with the version option"),
    )
    options: ClassVar[tuple[Option, ...]] = (
        Option("version", 1, "rules version: 1 (one piece each, one die) or 2 (three pieces, two d4)",
               choices=(1, 2)),
        Option("players", 2, "number of players (2-4 in version 1; version 2 is for 2)", minimum=2, maximum=4),
        Option("die", 6, "faces of the die in version 1 (version 2 always rolls two d4)", choices=(6, 4)),
    )

    def check_options(self, values: dict[str, Any], explicit: frozenset[str]) -> dict[str, Any]:
        if values["version"] == 2:
            if values["players"] != 2:
                raise GameError(
                    f"kelighine version 2 is for exactly 2 players, not {values['players']}; "
                    "use --players 2, or --version 1 for 3 or 4 players"
                )
            if "die" in explicit and values["die"] != 4:
                raise GameError("kelighine version 2 always rolls two d4; the die option is for version 1")
            values["die"] = 4
        return values

    def __init__(self, variant: str | None = None, options: Mapping[str, object] | None = None):
        super().__init__(variant, options)
        self.version: int = self.config["version"]
        self.die: int = self.config["die"]
        self._players: int = self.config["players"]
        self.pieces_per_player = 3 if self.version == 2 else 1
        self._starts = _START_ORDER[: self._players]

    @property
    def num_players(self) -> int:
        return self._players

    def start_of(self, player: int) -> int:
        """The start cell of ``player`` (player 1 I, 2 H, 3 K, 4 L)."""
        return self._starts[player]

    def lap_goal(self, player: int) -> int:
        """The A-lap position at which the lap is complete (reference cell + 32 half-steps)."""
        return GAP[self._starts[player]] + 33

    # -- the protocol --------------------------------------------------------------------------

    def initial_state(self) -> State:
        pieces = []
        for p in range(self._players):
            start = self.start_of(p)
            on = Piece(start, GAP[start], 0, -1)
            rest = [Piece(RESERVE, GAP[start], 0, -1)] * (self.pieces_per_player - 1)
            pieces.append(tuple(sorted([on, *rest])))
        return State(tuple(pieces), 0, ROLL, (), (), False, -1, -1, None, -1, (), (), 1, -1)

    def to_move(self, state: State) -> int | None:
        phase = state.phase
        if phase == ROLL:
            return CHANCE
        if phase == PUSH:
            assert state.pending is not None
            return state.pending.owner
        if phase == OVER:
            return None
        return state.turn

    def legal_actions(self, state: State) -> list[Action]:
        phase = state.phase
        if phase == ROLL:
            return [a for a, _ in self._outcomes()]
        if phase == ONES:
            return [Action("ones", value=v) for v in _ONES_CODES]
        if phase == PUSH:
            assert state.pending is not None
            return [Action("push", target=c) for c in state.pending.options]
        if phase == ACT:
            return self._act_actions(state)
        return []

    def _outcomes(self) -> list[tuple[Action, float]]:
        if self.version == 1:
            return [(Action("roll", value=n), 1.0 / self.die) for n in range(1, self.die + 1)]
        return [
            (Action("roll", value=a, target=b), (1.0 if a == b else 2.0) / 16.0)
            for a in range(1, 5)
            for b in range(a, 5)
        ]

    def chance_outcomes(self, state: State) -> list[tuple[Action, float]] | None:
        return self._outcomes() if state.phase == ROLL else None

    def _act_actions(self, state: State) -> list[Action]:
        player = state.turn
        values = sorted(set(state.dice))
        suffixes = values if len(values) > 1 and not state.one_die else [0]
        occupied = {p.cell for ps in state.pieces for p in ps}
        coins = {tier(p.entry) for p in state.pieces[player] if p.entry >= 0}
        actions: list[Action] = []
        seen: set[int] = set()
        for piece in state.pieces[player]:
            c = piece.cell
            if not _on_field(c) or c in seen:
                continue
            seen.add(c)
            t = tier(c) or 1
            backwards = self.version == 2 and piece.done >= t
            for v in values:
                actions.append(Action("move", c, v))
                if backwards:
                    actions.append(Action("move", c, -v))
            if tier(c) and piece.done >= tier(c):
                for target in board.upper_cells(c):
                    if target != J and target in occupied:
                        continue
                    if target != J and piece.done < tier(target) and tier(target) in coins:
                        continue
                    actions.extend(Action("promote", c, s, target) for s in suffixes)
        return actions or [PASS]

    def next_state(self, state: State, action: Action) -> State:
        w = _Work(self, state)
        kind = action.kind
        if kind == "roll":
            if self.version == 1:
                w.log.append(("roll", w.turn, action.value, 0))
                w.rolled = (action.value,)
                w.use_dice((action.value,))
            else:
                a, b = action.value, action.target
                w.log.append(("roll", w.turn, a, b))
                w.rolled = (a, b)
                if a == b == 1:
                    w.phase = ONES
                else:
                    w.use_dice((a, b))
        elif kind == "ones":
            w.log.append(("ones", w.turn, action.value))
            if action.value == ONES_REROLL:
                w.phase, w.rolled = ROLL, ()
            else:
                w.use_dice((1,) * action.value)
        elif kind == "push":
            w.choose_push(action.target)
        else:
            dice = list(state.dice)
            if kind == "pass" or state.one_die:
                dice = []
            elif kind == "move":
                dice.remove(abs(action.value))
            else:
                dice.remove(action.value or dice[0])
            w.dice = tuple(dice)
            if kind == "move":
                w.move(action.cell, action.value)
            elif kind == "promote":
                w.promote(action.cell, action.target)
            else:
                w.log.append(("pass", w.turn))
                w.settle()
        return w.freeze()

    def returns(self, state: State) -> tuple[float, ...]:
        if state.winner < 0:
            return (0.0,) * self._players
        lose = -1.0 / (self._players - 1)
        return tuple(1.0 if p == state.winner else lose for p in range(self._players))

    def result_text(self, state: State) -> str:
        if state.winner < 0:
            return "the game is not over"
        return f"{self.player_name(state.winner)} won"

    # -- checked play --------------------------------------------------------------------------

    def explain_illegal(self, state: State, action: Action) -> str:
        phase, kind = state.phase, action.kind
        legal = choices_text(self.legal_texts(state))
        if phase == OVER:
            return "the game is over"
        if phase == ROLL:
            if kind != "roll":
                return f"the dice must be rolled first; outcomes: {legal}"
            return f"that is not a possible roll; outcomes: {legal}"
        if kind == "roll":
            return f"the dice are already rolled; the moves now are: {legal}"
        if phase == ONES:
            return f"player {state.turn + 1} rolled a double 1 and must choose first: {legal}"
        if phase == PUSH:
            assert state.pending is not None
            pend = state.pending
            where = ", ".join(name(c) for c in pend.options)
            return (
                f"player {pend.owner + 1}'s piece pushed from {name(pend.origin)} must first be "
                f"placed: choose one of {where} (push:<cell>)"
            )
        if kind == "push":
            return f"no piece is waiting to be placed after a push; the moves now are: {legal}"
        if kind == "ones":
            return f"there is no double-1 choice to make now; the moves now are: {legal}"
        if kind == "pass":
            return f"pass is only allowed when no die can be used; the moves now are: {legal}"
        return self._explain_act(state, action, legal)

    def _explain_act(self, state: State, action: Action, legal: str) -> str:
        player = state.turn
        c = action.cell
        mine = [p for p in state.pieces[player] if p.cell == c]
        if not mine:
            owner = next((o for o, ps in enumerate(state.pieces) if any(p.cell == c for p in ps)), None)
            if owner is None:
                return f"there is no piece on {name(c)}; the moves now are: {legal}"
            return f"the piece on {name(c)} belongs to player {owner + 1}; the moves now are: {legal}"
        piece = mine[0]
        dice = ", ".join(map(str, state.dice))
        if action.kind == "move":
            n = abs(action.value)
            if n not in state.dice:
                return f"no unused die shows {n} (unused dice: {dice})"
            if action.value < 0:
                if self.version == 1:
                    return "pieces move counter-clockwise only in version 1 (write +n)"
                return f"the piece on {name(c)} may move clockwise only after completing its lap of this tier"
            return f"it is not a legal move here; the moves now are: {legal}"
        t = tier(c)
        if t == 0:
            return f"a piece on a corner or start cell ({name(c)}) cannot promote; it enters A with a die"
        if piece.done < t:
            return f"the piece on {name(c)} has not completed its lap of tier {'ABC'[t - 1]}, so it cannot promote"
        if action.target not in board.upper_cells(c):
            targets = ", ".join(name(x) for x in board.upper_cells(c))
            return f"{name(c)} can only promote to {targets}"
        if any(p.cell == action.target for ps in state.pieces for p in ps) and action.target != J:
            return f"{name(action.target)} is occupied, and a promotion can never push"
        if piece.done < tier(action.target):
            return (
                f"player {player + 1} already has a piece in the middle of a lap of tier "
                f"{'ABC'[tier(action.target) - 1]} (one coin per tier)"
            )
        if action.value and action.value not in state.dice:
            return f"no unused die shows {action.value} (unused dice: {dice})"
        return f"it is not a legal move here; the moves now are: {legal}"

    # -- notation ------------------------------------------------------------------------------

    def parse_action(self, state: State, text: str) -> Action:
        raw = text
        text = text.strip().replace(" ", "").upper()
        if text == "PASS":
            return PASS
        head, sep, rest = text.partition(":")
        if sep:
            return self._parse_prefixed(state, head, rest, raw)
        m = _MOVE_RE.match(text)
        if m:
            c = board.cell(m.group(1))
            n = int(m.group(3))
            if not 1 <= n <= 6:
                raise GameError(f"cannot read {brief(raw)}: a move is 1 to {self.die} steps")
            if tier(c) == 0 and c not in (*board.CORNERS, *STARTS):
                raise GameError(f"cannot read {brief(raw)}: nothing moves from {name(c)}")
            return Action("move", c, n if m.group(2) == "+" else -n)
        m = _PROMOTE_RE.match(text)
        if m:
            c, target = board.cell(m.group(1)), board.cell(m.group(2))
            if (c, target) not in _PAIR_INDEX:
                raise GameError(
                    f"cannot read {brief(raw)}: a promotion goes from a tier cell to a touching cell of "
                    "the next tier (A4^B2, B2^C1, C3^J)"
                )
            return Action("promote", c, self._forgone(state, m.group(3), raw), target)
        raise GameError(
            f"cannot read move {brief(raw)}; write e.g. roll:4, A3+4, E+2, B5-1, A4^B2, push:B1, "
            "ones:four or pass"
        )

    def _forgone(self, state: State, suffix: str | None, raw: str) -> int:
        values = sorted(set(state.dice)) if state.phase == ACT else []
        needed = len(values) > 1 and not state.one_die
        if suffix is None:
            if needed:
                alt = " or ".join(f"{raw.strip()}/{v}" for v in values)
                raise GameError(f"two different dice are unused ({values[0]} and {values[1]}): "
                                f"write which one the promotion forgoes: {alt}")
            return 0
        v = int(suffix)
        if not needed:
            if values and v not in values:
                raise GameError(f"no unused die shows {v}; unused dice: {', '.join(map(str, state.dice))}")
            return 0
        return v

    def _parse_prefixed(self, state: State, head: str, rest: str, raw: str) -> Action:
        if head == "ROLL":
            try:
                nums = sorted(int(x) for x in rest.split(","))
            except ValueError:
                raise GameError(f"cannot read roll {brief(raw)}: write roll:4 or roll:1,3") from None
            count = 1 if self.version == 1 else 2
            if len(nums) != count:
                example = "roll:4" if count == 1 else "roll:1,3"
                raise GameError(f"version {self.version} rolls {count} dice: write {example}, not {brief(raw)}")
            if count == 1:
                return Action("roll", value=nums[0])
            return Action("roll", value=nums[0], target=nums[1])
        if head == "ONES":
            for code, word in ONES_NAMES.items():
                if rest == word.upper():
                    return Action("ones", value=code)
            raise GameError(f"cannot read {brief(raw)}: the double-1 choice is ones:four, ones:reroll or ones:two")
        if head == "PUSH":
            if rest == "START":
                return Action("push", target=START)
            return Action("push", target=board.cell(rest))
        raise GameError(f"cannot read move {brief(raw)}; prefixes are roll:, ones: and push:")

    # -- JSON ------------------------------------------------------------------------------------

    def state_to_json(self, state: State) -> JSON:
        def piece_json(p: Piece) -> dict[str, Any]:
            cell = "reserve" if p.cell == RESERVE else name(p.cell)
            return {"cell": cell, "a": p.a, "done": p.done, "entry": name(p.entry) if p.entry >= 0 else None}

        pend = state.pending
        return {
            "turn": state.turn,
            "phase": PHASES[state.phase],
            "rolled": list(state.rolled),
            "dice": list(state.dice),
            "one_die": state.one_die,
            "last": name(state.last) if state.last >= 0 else None,
            "moved": name(state.moved) if state.moved >= 0 else None,
            "pieces": [[piece_json(p) for p in ps] for ps in state.pieces],
            "pending": None if pend is None else {
                "owner": pend.owner,
                "piece": piece_json(pend.piece),
                "from": name(pend.origin),
                "cause": CAUSES[pend.cause],
                "rule": RULES[pend.rule],
                "options": [name(c) for c in pend.options],
                "pusher": pend.pusher,
            },
            "after": name(state.after) if state.after >= 0 else None,
            "log": [list(e) for e in state.log],
            "prev_log": [list(e) for e in state.prev_log],
            "number": state.number,
            "winner": state.winner if state.winner >= 0 else None,
        }

    def state_from_json(self, data: JSON) -> State:
        from qipan.games.kelighine.codec import decode_state

        return decode_state(self, data)

    # -- views -----------------------------------------------------------------------------------

    def view(self, state: State, player: int | None) -> dict[str, JSON]:
        self.check_player(player)
        mover = self.to_move(state)
        pieces = [
            self._piece_view(owner, p) for owner, ps in enumerate(state.pieces) for p in ps if p.cell != RESERVE
        ]
        pend = state.pending
        return {
            "player": player,
            "to_move": "chance" if mover == CHANCE else mover,
            "game": self.name,
            "version": self.version,
            "players": self._players,
            "turn": state.turn,
            "turn_number": state.number,
            "phase": PHASES[state.phase],
            "rolled": list(state.rolled),
            "dice": list(state.dice),
            "one_die": state.one_die,
            "starts": [name(self.start_of(p)) for p in range(self._players)],
            "pieces": pieces,
            "reserve": [sum(p.cell == RESERVE for p in ps) for ps in state.pieces],
            "finished": [sum(p.cell == J for p in ps) for ps in state.pieces],
            "coins": [
                {"player": o, "cell": name(p.entry)}
                for o, ps in enumerate(state.pieces) for p in ps if p.entry >= 0
            ],
            "last_piece": name(state.last) if state.last >= 0 else None,
            "indirect": [name(c) for c in sorted(INDIRECT[state.last])] if state.last >= 0 else [],
            "pending_push": None if pend is None else {
                "player": pend.owner,
                "from": name(pend.origin),
                "cause": CAUSES[pend.cause],
                "options": [name(c) for c in pend.options],
                "piece": self._piece_view(pend.owner, pend.piece._replace(cell=pend.origin, entry=-1)),
            },
            "log": describe_events(state.log),
            "previous_log": describe_events(state.prev_log),
            "winner": state.winner if state.winner >= 0 else None,
            "state": self.state_to_json(state),
        }

    def _piece_view(self, owner: int, p: Piece) -> dict[str, JSON]:
        return {
            "player": owner,
            "cell": name(p.cell),
            "face": p.face,
            "laps": {"A": p.done >= 1, "B": p.done >= 2, "C": p.done >= 3},
            "coin": name(p.entry) if p.entry >= 0 else None,
            "lap_progress": self.lap_progress(owner, p),
        }

    def lap_progress(self, owner: int, p: Piece) -> dict[str, int] | None:
        """Cells travelled in the lap under way (``{"tier": 1, "steps": 5, "of": 16}``), or None."""
        if p.cell >= J:
            return None
        if p.done == 0:
            reference = GAP[self.start_of(owner)] + 1
            return {"tier": 1, "steps": max(0, (p.a - reference) // 2), "of": 16}
        if p.entry >= 0:
            return {"tier": tier(p.entry), "steps": (board.number(p.cell) - board.number(p.entry)) % 8, "of": 8}
        return None

    # -- logs --------------------------------------------------------------------------------------

    def events(self, state: State, after: State) -> list[Event]:
        """The log events an action added between ``state`` and the next state ``after``."""
        if after.number == state.number:
            return list(after.log[len(state.log):])
        return list(after.prev_log[len(state.log):]) + list(after.log)

    def describe_action(self, state: State, action: Action) -> str:
        after = self.next_state(state, action)
        lines = describe_events(self.events(state, after))
        return "; ".join(lines) if lines else str(action)

    def explain_pushes(self, state: State, action: Action) -> list[str]:
        """Why each piece moved by a push during ``action``:
        ``["B3 → pushed to A5 (indirect, last piece on A7)"]``."""
        after = self.next_state(state, action)
        return [explain_push(e) for e in self.events(state, after) if e[0] == "push"]

    # -- integer action ids ----------------------------------------------------------------------

    @property
    def num_distinct_actions(self) -> int:
        return _PROMOTE_BASE + len(_PROMOTE_PAIRS) * 7

    def action_id(self, state: State, action: Action) -> int:
        kind = action.kind
        if kind == "ones":
            return _ONES_CODES.index(action.value)
        if kind == "pass":
            return 3
        if kind == "push":
            return 45 if action.target == START else 4 + action.target
        if kind == "move":
            n = action.value
            return _MOVE_BASE + action.cell * 12 + (n - 1 if n > 0 else 5 - n)
        if kind == "promote":
            return _PROMOTE_BASE + _PAIR_INDEX[(action.cell, action.target)] * 7 + action.value
        raise GameError("dice rolls are chance outcomes and have no action id")

    def action_from_id(self, state: State, action_id: int) -> Action:
        if not 0 <= action_id < self.num_distinct_actions:
            raise GameError(f"action id must be 0..{self.num_distinct_actions - 1}, not {action_id}")
        if action_id < 3:
            return Action("ones", value=_ONES_CODES[action_id])
        if action_id == 3:
            return PASS
        if action_id < _MOVE_BASE:
            return Action("push", target=START if action_id == 45 else action_id - 4)
        if action_id < _PROMOTE_BASE:
            c, k = divmod(action_id - _MOVE_BASE, 12)
            return Action("move", c, k + 1 if k < 6 else 5 - k)
        pair, forgo = divmod(action_id - _PROMOTE_BASE, 7)
        c, target = _PROMOTE_PAIRS[pair]
        return Action("promote", c, forgo, target)
