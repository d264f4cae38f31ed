"""A game in progress: state history, the record, automatic or manual chance, clocks, forfeits.

The engine protocol, terminal play, the arena and the server all drive games through
:class:`Match`, so undo, chance handling, time-outs and records behave the same everywhere.

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
        self._clock_cache: tuple[int, Move | None, list[float], float] | None = None
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

    def clocks(self, now: float | None = None) -> list[float] | None:
        """Seconds left on each player's clock (derived from move times), or None if untimed."""
        limit = self.game.time_limit()
        if limit is None:
            return None
        left, turn_start = self._clock_totals(float(limit))
        mover = self.game.to_move(self.state)
        if now is None:
            now = self.clock()
        if self.forfeit_result is not None:
            now = self.forfeit_result.get("time", turn_start)  # clocks stop when the game ends
        if mover is not None and mover >= 0:
            left[mover] -= now - turn_start
        return left

    def _clock_totals(self, limit: float) -> tuple[list[float], float]:
        """Time left on each clock after the recorded moves, and when the current turn began.

        Carried forward from the previous call when moves were only appended since (the cost of
        a move does not grow with the game); recounted when moves were taken back."""
        cached = self._clock_cache
        moves = self.moves
        if cached is None or cached[0] > len(moves) or (cached[0] and moves[cached[0] - 1] is not cached[1]):
            cached = (0, None, [limit] * self.game.num_players, self.started)
        done, _, totals, turn_start = cached
        left = list(totals)
        for move in moves[done:]:
            stamp = move.time if move.time is not None else turn_start
            if isinstance(move.player, int):
                left[move.player] -= stamp - turn_start
            turn_start = stamp
        self._clock_cache = (len(moves), moves[-1] if moves else None, left, turn_start)
        return list(left), turn_start

    def check_time(self) -> bool:
        """End the game if the player to move has run out of time. True if it ended."""
        clocks = self.clocks()
        mover = self.to_move
        if clocks is None or mover is None or mover < 0 or clocks[mover] > 0:
            return False
        self.forfeit(mover, "time")
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

    def forfeit(self, player: int, reason: str) -> None:
        """End the game with ``player`` losing (resignation, time-out, abandonment)."""
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
            "time": self.clock(),
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
        while self.moves[-1].player == "chance":
            self._pop()
        self._pop()

    def _pop(self) -> None:
        self.chance_events -= self.moves.pop().player == "chance"
        self.states.pop()

    def truncate(self, moves: int) -> None:
        """Forget every move after the first ``moves`` (a server whose write failed takes back
        what it could not save). A forfeit is forgotten too."""
        while len(self.moves) > moves:
            self._pop()
        self.forfeit_result = None

    def restart_from(self, state: Any) -> None:
        """Continue from ``state`` with no history (the engine's ``load``). In automatic-chance
        mode a chance node is resolved at once, as after any move."""
        self.states = [state]
        self.moves = []
        self.chance_events = 0
        self.forfeit_result = None
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
        )

    @classmethod
    def from_record(cls, record: Record, chance: str = "auto", clock: Callable[[], float] = time.time) -> Match:
        """Resume a recorded game exactly (moves, times and result)."""
        match = cls(record.make_game(), seed=record.seed, chance="manual", players=record.players or None,
                    clock=clock, started=record.started)
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
        match.chance = chance
        match._advance_chance()
        return match
