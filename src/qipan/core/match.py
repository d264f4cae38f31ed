"""A game in progress: state history, the record, automatic or manual chance, clocks, forfeits.

The engine protocol, terminal play, the arena and the server all drive games through
:class:`Match`, so undo, chance handling, clocks (:mod:`qipan.core.clock`), time-outs and records
behave the same everywhere.

>>> import qipan
>>> match = Match(qipan.load("abalone"), seed=1)
>>> match.play("a1b2")
>>> match.to_move
1
>>> match.record().moves[0].text
'a1b2'
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from qipan.core.chance import check_seed, event_rng, new_secret
from qipan.core.clock import Action, Clocks, Reset, TimeControl, count
from qipan.core.errors import GameError
from qipan.core.game import CHANCE, Game
from qipan.core.record import Move, Record


class Match:
    """A game being played. ``chance="auto"`` samples chance outcomes, ``"manual"`` waits for
    them to be played like moves.

    ``seed`` is the game's secret: the ``n``-th chance event is drawn from a generator keyed by
    the seed and ``n`` (:mod:`qipan.core.chance`), so a given seed replays the same outcomes and
    no outcome predicts another. Left out, it is 256 fresh bits from the OS CSPRNG."""

    def __init__(
        self,
        game: Game[Any, Any],
        seed: int | str | None = None,
        chance: str = "auto",
        players: list[str] | None = None,
        clock: Callable[[], float] = time.time,
        started: float | None = None,
        time_control: TimeControl | None = None,
    ):
        if chance not in ("auto", "manual"):
            raise GameError(f"chance must be 'auto' or 'manual', not {chance!r}")
        self.game = game
        self.seed: int | str = new_secret() if seed is None else check_seed(seed)
        self.chance = chance
        self.players = players or [game.player_name(p) for p in range(game.num_players)]
        self.clock = clock
        self.started = started if started is not None else clock()
        self.states: list[Any] = [game.initial_state()]
        self.moves: list[Move] = []
        self.chance_events = 0
        """Chance outcomes so far: the index of the next chance event's generator."""
        self.forfeit_result: dict[str, Any] | None = None
        limit = game.time_limit()
        self.time_control = time_control if time_control is not None or not limit else TimeControl(limit)
        """The clock (None: untimed); by default the game's own ``time_limit()`` with no increment."""
        self.clock_reset: Reset | None = None
        """The clocks as the last takeback left them (timed games)."""
        self._clock_cache: tuple[int, Move | None, Reset | None, Clocks] | None = None
        self._advance_chance()

    # -- reading ---------------------------------------------------------------------------------

    @property
    def state(self) -> Any:
        return self.states[-1]

    @property
    def to_move(self) -> int | None:
        """The player to decide, CHANCE, or None when the game is over (forfeits included)."""
        if self.forfeit_result is not None:
            return None
        return self.game.to_move(self.state)

    @property
    def over(self) -> bool:
        return self.to_move is None

    def legal_texts(self) -> list[str]:
        return [] if self.over else self.game.legal_texts(self.state)

    def result(self) -> dict[str, Any] | None:
        """``{"returns": [...], "text": ..., "reason": ...}`` once over, else None."""
        if self.forfeit_result is not None:
            return self.forfeit_result
        if self.game.to_move(self.state) is not None:
            return None
        return {
            "returns": list(self.game.returns(self.state)),
            "text": self.game.result_text(self.state),
            "reason": "rules",
        }

    # -- clocks ----------------------------------------------------------------------------------

    def _clock_state(self) -> Clocks | None:
        """The clocks after the recorded moves (:mod:`qipan.core.clock`), or None if untimed.

        Carried forward from the previous call when moves were only appended since (the cost of
        a move does not grow with the game); recounted when moves were taken back."""
        control = self.time_control
        if control is None:
            return None
        moves = self.moves
        cached = self._clock_cache
        if cached is not None and cached[0] <= len(moves) and cached[2] is self.clock_reset and (
                not cached[0] or moves[cached[0] - 1] is cached[1]):
            done, kept = cached[0], cached[3]
            clocks = Clocks(list(kept.left), list(kept.running), kept.since)
            for ply in range(done, len(moves)):
                clocks.after(self._clock_action(ply), control)
        else:
            actions = [self._clock_action(ply) for ply in range(len(moves))]
            clocks = count(control, self.game.num_players, self.started, actions, self.clock_reset)
        self._clock_cache = (len(moves), moves[-1] if moves else None, self.clock_reset,
                             Clocks(list(clocks.left), list(clocks.running), clocks.since))
        return clocks

    def _clock_action(self, ply: int) -> Action:
        move = self.moves[ply]
        player = move.player if isinstance(move.player, int) else None
        return Action(player, move.time, player is not None and self.game.to_move(self.states[ply + 1]) != player)

    def clocks(self, now: float | None = None) -> list[float] | None:
        """Seconds left on each player's clock (derived from move times), or None if untimed.

        Once the game is over the clocks stop: at the forfeit's moment, or at the last move."""
        clocks = self._clock_state()
        if clocks is None:
            return None
        mover = self.game.to_move(self.state)
        if self.forfeit_result is not None:
            now = self.forfeit_result.get("time", clocks.since)
        elif now is None:
            now = self.clock()
        return clocks.now(mover, now)

    def clock_running(self) -> list[bool]:
        """Whether each player's clock runs: they have made their first move (timed games)."""
        clocks = self._clock_state()
        return [False] * self.game.num_players if clocks is None else list(clocks.running)

    def turn_started(self) -> float:
        """When the current turn began: the last recorded action, or a takeback, or the start."""
        clocks = self._clock_state()
        if clocks is not None:
            return clocks.since
        stamps = [m.time for m in self.moves if m.time is not None]
        return max([self.started, *stamps[-1:]])

    def moved(self) -> set[int]:
        """The players who have made a decision in the recorded moves."""
        return {m.player for m in self.moves if isinstance(m.player, int)}

    def check_time(self) -> bool:
        """End the game if the player to move has run out of time. True if it ended."""
        clocks = self._clock_state()
        mover = self.to_move
        if clocks is None or mover is None or mover < 0 or not clocks.running[mover]:
            return False
        left = clocks.now(mover, self.clock())[mover]
        if left > 0:
            return False
        self.forfeit(mover, "time", at=self.clock() + left)  # the moment the flag fell
        return True

    # -- acting ----------------------------------------------------------------------------------

    def play(self, move: str | Any, player: int | None = None) -> None:
        """Play an action (notation or action value). With ``player`` given, it must be theirs.

        Raises GameError and changes nothing when the move is bad or out of turn."""
        mover = self.to_move
        if mover is None:
            raise GameError("the game is over: no more moves")
        if player is not None and player != mover:
            who = "chance" if mover == CHANCE else self.players[mover]
            raise GameError(f"it is not your turn: {who} is to move")
        if self.check_time():
            raise GameError(f"{self.players[mover]} ran out of time; the game is over")
        state = self.state
        action = self.game.parse_action(state, move) if isinstance(move, str) else move
        new_state = self.game.apply(state, action)
        self._push(state, action, new_state, mover)
        self._advance_chance()

    def _push(self, state: Any, action: Any, new_state: Any, mover: int) -> None:
        text = self.game.action_text(state, action)
        self.moves.append(Move("chance" if mover == CHANCE else mover, text, self.clock()))
        self.states.append(new_state)
        self.chance_events += mover == CHANCE

    def _advance_chance(self) -> None:
        if self.chance != "auto":
            return
        while self.to_move == CHANCE:
            state = self.state
            rng = event_rng(self.seed, "chance", self.chance_events)
            action = self.game.sample_chance(state, rng)
            self._push(state, action, self.game.next_state(state, action), CHANCE)

    def forfeit(self, player: int, reason: str, at: float | None = None) -> None:
        """End the game with ``player`` losing (resignation, time-out, abandonment) now, or at
        ``at`` (a time-out found late: the clocks stop when the flag fell)."""
        if self.over:
            raise GameError("the game is over already")
        self.game.check_player(player)
        n = self.game.num_players
        returns = [1.0 / (n - 1) if n > 1 else 0.0] * n
        returns[player] = -1.0
        self.forfeit_result = {
            "returns": returns,
            "text": f"{self.players[player]} lost ({reason})",
            "reason": reason,
            "loser": player,
            "time": self.clock() if at is None else at,
        }

    def stop(self, reason: str, text: str) -> None:
        """End the game with nobody winning or losing (an abort, a move limit): every return 0.

        >>> import qipan
        >>> match = Match(qipan.load("abalone"), seed=1)
        >>> match.stop("move limit", "draw: the move limit was reached")
        >>> match.over, match.result()["returns"]
        (True, [0.0, 0.0])
        """
        if self.over:
            raise GameError("the game is over already")
        self.forfeit_result = {"returns": [0.0] * self.game.num_players, "text": text, "reason": reason,
                               "time": self.clock()}

    def undo(self) -> None:
        """Take back the last decision (and the chance outcomes that followed it)."""
        if self.forfeit_result is not None:
            raise GameError("the game ended by forfeit; it cannot be undone")
        if all(move.player == "chance" for move in self.moves):
            raise GameError("nothing to undo")  # and the opening chance outcomes stay
        keep = len(self.moves) - 1
        while self.moves[keep].player == "chance":
            keep -= 1
        self.take_back(keep)

    def take_back(self, ply: int) -> None:
        """Forget every move after the first ``ply`` (a takeback). In a timed game the time spent
        stays spent: the clocks keep what they show now, less the increments the moves taken back
        earned (else each takeback would bank one), and the player to move starts their turn now
        (:class:`qipan.core.clock.Reset`)."""
        if not 0 <= ply <= len(self.moves):
            raise GameError(f"cannot take back to move {ply}: the game has {len(self.moves)}")
        left = self.clocks()
        now = self.clock()
        if left is not None and self.time_control is not None:
            for undone in range(ply, len(self.moves)):
                action = self._clock_action(undone)
                charged = any(move.player == action.player for move in self.moves[:undone])
                if action.player is not None and action.ends_turn and charged:
                    left[action.player] -= self.time_control.increment
        while len(self.moves) > ply:
            self._pop()
        if left is not None:
            self.clock_reset = Reset(ply, now, tuple(left))

    def takeback_ply(self, player: int) -> int:
        """Where a takeback asked by ``player`` returns to: before their last decision (everything
        after it is taken back too). GameError saying why when it is not allowed: takebacks are for
        two-player games of perfect information, and never undo a chance outcome (a roll, a deal).

        >>> import qipan
        >>> match = Match(qipan.load("abalone"), seed=1)
        >>> match.play("a1b2"); match.play("i5h5")
        >>> match.takeback_ply(0), match.takeback_ply(1)
        (0, 1)
        """
        game = self.game
        if game.num_players != 2:
            raise GameError("takebacks are for two-player games only")
        if not game.perfect_information:
            raise GameError(f"{game.title} has hidden information: a takeback would undo what was seen")
        if self.over:
            raise GameError("the game is over")
        last = next((ply for ply in range(len(self.moves) - 1, -1, -1) if self.moves[ply].player == player), None)
        if last is None:
            raise GameError("you have made no move to take back")
        if any(move.player == "chance" for move in self.moves[last:]):
            raise GameError("a takeback here would undo a roll of the dice or a deal")
        return last

    def draw_allowed(self) -> bool:
        """Whether the players may agree a draw: a two-player game whose rules can end drawn."""
        return self.game.num_players == 2 and self.game.draws and not self.over

    def _pop(self) -> None:
        self.chance_events -= self.moves.pop().player == "chance"
        self.states.pop()

    def truncate(self, moves: int) -> None:
        """Forget every move after the first ``moves`` (a server whose write failed takes back
        what it could not save). A forfeit is forgotten too."""
        while len(self.moves) > moves:
            self._pop()
        self.forfeit_result = None
        if self.clock_reset is not None and self.clock_reset.ply > moves:
            self.clock_reset = None

    def snapshot(self) -> tuple[Any, ...]:
        """What :meth:`restore` needs to put the match back as it is now (moves, result, clocks)."""
        return list(self.moves), list(self.states), self.chance_events, self.forfeit_result, self.clock_reset

    def restore(self, snapshot: tuple[Any, ...]) -> None:
        """Put the match back as it was at :meth:`snapshot` (a change that could not be saved)."""
        moves, states, self.chance_events, self.forfeit_result, self.clock_reset = snapshot
        self.moves[:], self.states[:] = moves, states

    def restart_from(self, state: Any) -> None:
        """Continue from ``state`` with no history (the engine's ``load``). In automatic-chance
        mode a chance node is resolved at once, as after any move."""
        self.states = [state]
        self.moves = []
        self.chance_events = 0
        self.forfeit_result = None
        self.clock_reset = None
        self._clock_cache = None
        self._advance_chance()

    # -- records ---------------------------------------------------------------------------------

    def record(self) -> Record:
        return Record(
            game=self.game.name,
            variant=self.game.variant,
            options=dict(self.game.config),
            seed=self.seed,
            players=list(self.players),
            moves=list(self.moves),
            result=self.result(),
            started=self.started,
            clock=self.time_control,
            clock_reset=self.clock_reset,
        )

    @classmethod
    def from_record(cls, record: Record, chance: str = "auto", clock: Callable[[], float] = time.time) -> Match:
        """Resume a recorded game exactly (moves, times and result)."""
        match = cls(record.make_game(), seed=record.seed, chance="manual", players=record.players or None,
                    clock=clock, started=record.started, time_control=record.clock)
        for number, move in enumerate(record.moves, 1):
            try:
                mover = match.to_move
                player = None if move.player == "chance" else move.player
                if player is not None and player != mover:
                    raise GameError(f"it is {mover!r}'s turn")
                state = match.state
                action = match.game.parse_action(state, move.text)
                new_state = match.game.apply(state, action)
            except GameError as exc:
                raise GameError(f"record move {number} ({move.text}): {exc}") from None
            match.moves.append(Move(move.player, move.text, move.time))
            match.states.append(new_state)
            match.chance_events += move.player == "chance"
        result = record.result
        if result is not None and result.get("reason") not in (None, "rules"):
            match.forfeit_result = dict(result)
        if record.clock_reset is not None:
            if match.time_control is None or record.clock_reset.ply > len(match.moves) or \
                    len(record.clock_reset.left) != match.game.num_players:
                raise GameError("the record's clock reset does not fit its clock and moves")
            match.clock_reset = record.clock_reset
        match.chance = chance
        match._advance_chance()
        return match
