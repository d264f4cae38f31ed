"""Tiny games for testing the agents: tic-tac-toe, a dice bet and a hidden-card guess."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from qipan.core.errors import GameError
from qipan.core.game import CHANCE, Game
from qipan.core.options import Option, Variant

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


class TicTacToe(Game[tuple[int, ...], int]):
    """Tic-tac-toe: state is 9 cells (0 empty, 1 X, 2 O)."""

    name = "tictactoe"
    title = "Tic-tac-toe"
    variants = (Variant("standard", "3x3"),)

    @property
    def num_players(self) -> int:
        return 2

    def initial_state(self) -> tuple[int, ...]:
        return (0,) * 9

    def winner(self, s: tuple[int, ...]) -> int:
        for a, b, c in LINES:
            if s[a] and s[a] == s[b] == s[c]:
                return s[a]
        return 0

    def to_move(self, s: tuple[int, ...]) -> int | None:
        if self.winner(s) or all(s):
            return None
        return 0 if s.count(1) == s.count(2) else 1

    def legal_actions(self, s: tuple[int, ...]) -> Sequence[int]:
        return [] if self.to_move(s) is None else [i for i in range(9) if not s[i]]

    def next_state(self, s: tuple[int, ...], a: int) -> tuple[int, ...]:
        mover = self.to_move(s)
        assert mover is not None
        return (*s[:a], mover + 1, *s[a + 1:])

    def returns(self, s: tuple[int, ...]) -> tuple[float, ...]:
        w = self.winner(s)
        return (1.0, -1.0) if w == 1 else (-1.0, 1.0) if w == 2 else (0.0, 0.0)

    def parse_action(self, s: tuple[int, ...], text: str) -> int:
        return int(text)

    def state_to_json(self, s: tuple[int, ...]) -> Any:
        return list(s)

    def state_from_json(self, data: Any) -> tuple[int, ...]:
        return tuple(int(x) for x in data)

    def view(self, s: tuple[int, ...], player: int | None) -> dict[str, Any]:
        return {"player": player, "to_move": self.to_move(s), "state": list(s)}


def ttt_evaluate(game: Game[Any, Any], s: tuple[int, ...], player: int) -> float:
    """Open lines for ``player`` minus open lines for the opponent."""
    me, them = player + 1, 2 - player
    score = 0.0
    for line in LINES:
        cells = [s[i] for i in line]
        if them not in cells:
            score += cells.count(me)
        if me not in cells:
            score -= cells.count(them)
    return score


class DiceBet(Game[tuple[str, ...], str]):
    """Player 0 bets or passes; a bet is settled by a loaded die (six comes up half the time):
    faces 1..win_faces win, the rest lose. Passing is a draw."""

    name = "dicebet"
    title = "Dice bet"
    variants = (Variant("standard", "d6"),)
    options = (Option("win_faces", 2, "faces that win the bet", minimum=0, maximum=6),)

    @property
    def num_players(self) -> int:
        return 2

    def initial_state(self) -> tuple[str, ...]:
        return ()

    def to_move(self, s: tuple[str, ...]) -> int | None:
        if not s:
            return 0
        if s == ("bet",):
            return CHANCE
        return None

    def legal_actions(self, s: tuple[str, ...]) -> Sequence[str]:
        if not s:
            return ["pass", "bet"]
        if s == ("bet",):
            return [str(face) for face in range(1, 7)]
        return []

    def chance_outcomes(self, s: tuple[str, ...]) -> list[tuple[str, float]] | None:
        # a loaded die: six comes up half the time
        return [(str(face), 0.5 if face == 6 else 0.1) for face in range(1, 7)]

    def next_state(self, s: tuple[str, ...], a: str) -> tuple[str, ...]:
        return (*s, a)

    def returns(self, s: tuple[str, ...]) -> tuple[float, ...]:
        if s == ("pass",):
            return (0.0, 0.0)
        won = int(s[1]) <= self.config["win_faces"]
        return (1.0, -1.0) if won else (-1.0, 1.0)

    def parse_action(self, s: tuple[str, ...], text: str) -> str:
        return text

    def state_to_json(self, s: tuple[str, ...]) -> Any:
        return list(s)

    def state_from_json(self, data: Any) -> tuple[str, ...]:
        return tuple(data)

    def view(self, s: tuple[str, ...], player: int | None) -> dict[str, Any]:
        return {"player": player, "to_move": self.to_move(s), "state": list(s)}


@dataclass(frozen=True)
class Hidden:
    """The card game's state: the secret card (0..2), the guesses so far, and a flag telling
    whether this is the true state (only the test harness holds that one)."""

    secret: int
    guesses: tuple[int, ...] = ()
    real: bool = False


class GuessCard(Game[Hidden, int]):
    """Player 0 names a card; right wins, wrong loses. Player 0 cannot see the card.

    ``sample_state`` is the only door to a full state: it always claims the secret is
    ``believed`` (a deliberately wrong belief in the tests), and every method refuses the true
    state, so an agent that looked past the view would either crash or follow the real card."""

    name = "guesscard"
    title = "Guess the card"
    variants = (Variant("standard", "three cards"),)
    perfect_information = False
    options = (Option("believed", 0, "what sample_state claims", minimum=0, maximum=2),)
    samples = 0

    @property
    def num_players(self) -> int:
        return 2

    def _check(self, s: Hidden) -> None:
        if s.real:
            raise AssertionError("an agent touched the true hidden state")

    def initial_state(self) -> Hidden:
        return Hidden(secret=2, real=True)

    def to_move(self, s: Hidden) -> int | None:
        self._check(s)
        return 0 if not s.guesses else None

    def legal_actions(self, s: Hidden) -> Sequence[int]:
        self._check(s)
        return [0, 1, 2] if not s.guesses else []

    def next_state(self, s: Hidden, a: int) -> Hidden:
        self._check(s)
        return Hidden(s.secret, (*s.guesses, a))

    def returns(self, s: Hidden) -> tuple[float, ...]:
        self._check(s)
        return (1.0, -1.0) if s.guesses[0] == s.secret else (-1.0, 1.0)

    def parse_action(self, s: Hidden, text: str) -> int:
        return int(text)

    def state_to_json(self, s: Hidden) -> Any:
        raise GameError("no")

    def state_from_json(self, data: Any) -> Hidden:
        raise GameError("no")

    def view(self, s: Hidden, player: int | None) -> dict[str, Any]:
        # the harness builds views from the true state; agents never see more than this
        return {"player": player, "to_move": 0 if not s.guesses else None, "guesses": list(s.guesses)}

    def sample_state(self, view: Mapping[str, Any], rng: random.Random) -> Hidden:
        type(self).samples += 1
        return Hidden(self.config["believed"], tuple(view["guesses"]))
