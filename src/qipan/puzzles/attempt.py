"""Playing a puzzle: one attempt, move by move, with its judge (used by ``qipan puzzle play``).

>>> from qipan.puzzles.catalogue import find
>>> attempt = start(find("shiqi"))
>>> attempt.play("i3-i5")
'i3-i5 captures i4'
>>> attempt.moves, attempt.done
(1, False)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from qipan.core.errors import GameError, brief
from qipan.core.game import Game
from qipan.games.abalone.game import Abalone
from qipan.puzzles import capture, eject
from qipan.puzzles.catalogue import Entry
from qipan.puzzles.data import load
from qipan.puzzles.solitaire import Solitaire

MAX_MOVE_TEXT = 100
"""Longer move text is refused before any parsing."""

HINT_NODES = 100_000
"""The 食棋 hint's search budget: about 1 s of one core. From 60 positions after 1-50 random
moves the solver found a finish for every one within 75,067 positions, for 54 within 20,000
(``benchmarks/puzzle_solvers.py --only hint``); 50,000 missed two."""

PROOF_NODES = 200_000
"""Most positions the Abalone prover may reach to judge one try after the first move."""


class IllegalMove(GameError):
    """A move the engine reads but refuses; ``engine_text`` is the refusal in the engine's own
    words (``illegal move d1-d4: ...``), which :func:`qipan.tutorials.reasons.in_chinese` translates."""

    def __init__(self, message: str, engine_text: str) -> None:
        super().__init__(message)
        self.engine_text = engine_text


def _reason(exc: GameError) -> str:
    return exc.engine_text if isinstance(exc, IllegalMove) else str(exc)


@dataclass(frozen=True)
class Judged:
    """A try judged: ``played`` (applied), ``wrong`` (legal, but not the winning move of an Abalone
    puzzle: nothing changed) or ``illegal`` (``reason``: the engine's, nothing changed)."""

    kind: Literal["played", "wrong", "illegal"]
    move: str | None
    reason: str | None = None
    outcome: str | None = None


class Attempt(ABC):
    """An attempt at ``entry``: ``game`` and ``state`` are the engine's; ``play`` takes move text."""

    def __init__(self, entry: Entry, game: Game[Any, Any], state: Any) -> None:
        self.entry = entry
        self.game = game
        self.state = state
        self.moves = 0
        self.done = False
        self.solved = False
        self.last: str | None = None

    @property
    def player(self) -> int:
        return 0

    def view(self) -> dict[str, Any]:
        return self.game.view(self.state, self.player)

    def _move(self, text: str) -> Any:
        if self.done:
            raise GameError("the puzzle is over")
        if not isinstance(text, str) or len(text) > MAX_MOVE_TEXT:
            raise GameError(f"a move is at most {MAX_MOVE_TEXT} characters")
        move = self.game.parse_action(self.state, text)
        if not self.game.is_legal(self.state, move):
            reason = self.game.explain_illegal(self.state, move)
            written = self.game.action_text(self.state, move)
            raise IllegalMove(f"{brief(text, 40)}: {reason}", f"illegal move {written}: {reason}")
        self.last = self.game.action_text(self.state, move)
        return move

    def judge(self, text: str) -> Judged:
        """Play ``text`` if it is a legal move (and, in Abalone, a winning one)."""
        try:
            outcome = self.play(text)
        except GameError as exc:
            return Judged("illegal", None, _reason(exc))
        return Judged("played", self.last, outcome=outcome)

    @abstractmethod
    def play(self, text: str) -> str:
        """Play the move written ``text``; return what happened. GameError (nothing changed) if
        the text is no legal move."""

    @abstractmethod
    def hint(self) -> str:
        """A next move that keeps the puzzle solvable, in words."""

    @abstractmethod
    def status(self) -> str:
        """How far the attempt has come, in words."""


class Crossing(Attempt):
    def __init__(self, entry: Entry) -> None:
        self.puzzle = Solitaire(jump=entry.jump)
        super().__init__(entry, self.puzzle.game, self.puzzle.state(self.puzzle.start))

    def play(self, text: str) -> str:
        move = self._move(text)
        described = self.game.describe_action(self.state, move).removeprefix("red: ")
        self.state = self.game.next_state(self.state, move)._replace(turn=0)
        self.moves += 1
        if self.puzzle.is_solved(h for h, v in enumerate(self.state.board) if v):
            self.done = self.solved = True
            return f"{described}: crossed in {self.moves} moves, {self._verdict()}"
        return described

    def _verdict(self) -> str:
        """How far from the optimum, or from the best known when the optimum is unknown."""
        par, gap = self.entry.par, self.moves - self.entry.par
        if gap > 0:
            return f"{gap} more than the best known ({par})"
        if load("crossings.json")[self.entry.jump]["optimal"]:
            return "the optimum"
        if gap == 0:
            return f"as few as the best known ({par}; the optimum is unknown)"
        return f"{-gap} fewer than the best known ({par}): a new record"

    def hint(self) -> str:
        return f"no hints here; a {self.entry.par}-move crossing: qipan puzzle solution {self.entry.id}"

    def status(self) -> str:
        inside = sum(1 for h in self.puzzle.target if self.state.board[h])
        return f"{self.moves} moves so far, {inside} of 10 pieces in the target; best known: {self.entry.par}"


class Shiqi(Attempt):
    def __init__(self, entry: Entry) -> None:
        self.rules = capture.game()
        super().__init__(entry, self.rules, self.rules.initial_state())

    def play(self, text: str) -> str:
        move = self._move(text)
        described = self.game.describe_action(self.state, move).removeprefix("red: ")
        self.state = self.game.next_state(self.state, move)
        self.moves += 1
        if self.state.turn is None:
            self.done = True
            self.solved = self.rules.pieces_left(self.state) == 1
            return f"{described}: {self.game.result_text(self.state)}"
        return described

    def search(self, max_nodes: int = HINT_NODES) -> capture.Finish:
        """A one-piece finish from here, searched in at most ``max_nodes`` positions."""
        return capture.solve(self.state, max_nodes=max_nodes)

    def hint(self) -> str:
        result = self.search()
        if result.found and result.moves:
            return f"try {result.moves[0]} (a one-piece finish is still possible after it)"
        if result.complete:
            return "no one-piece finish is possible from here any more"
        return "no finish found within the search budget"

    def status(self) -> str:
        return f"{self.rules.pieces_left(self.state)} pieces left, {self.moves} moves played"


class Eject(Attempt):
    """You attack; after each of your moves the defender plays a reply that escapes if one does."""

    def __init__(self, entry: Entry) -> None:
        game = Abalone()
        self.puzzle = next(p for p in eject.shipped() if p.id == entry.id)
        super().__init__(entry, game, self.puzzle.position(game))
        self.attacker = self.state.turn
        self.reply: str | None = None
        """The defender's answer to the last move."""
        self.replies: list[str | None] = []
        """The defender's answer to each move (None after the last)."""

    @property
    def player(self) -> int:
        return int(self.attacker)

    def play(self, text: str) -> str:
        if self.state.turn != self.attacker:
            raise GameError("it is not your move")
        move = self._move(text)
        before = self._opponent_marbles()
        self.state = self.game.next_state(self.state, move)
        self.moves += 1
        played = self.last or ""
        self.reply = None
        self.replies.append(None)
        if self._opponent_marbles() < before:
            self.done = self.solved = True
            return f"{played} pushes a marble off: solved in {self.moves} of {self.entry.par}"
        if self.moves >= self.entry.par or self.game.to_move(self.state) is None:
            self.done = True
            return f"{played}: no marble pushed off in {self.entry.par} moves; the answer was {self.puzzle.solution}"
        reply = _defence(self.state, self.entry.par - self.moves)
        answer = self.reply = self.replies[-1] = self.game.action_text(self.state, reply)
        self.state = self.game.next_state(self.state, reply)
        if self.game.to_move(self.state) is None:
            self.done = True
            return f"{played}, reply {answer}: {self.game.result_text(self.state)}"
        return f"{played}, reply {answer}"

    def _opponent_marbles(self) -> int:
        board: int = self.state.white if self.attacker == 0 else self.state.black
        return board.bit_count()

    def judge(self, text: str) -> Judged:
        """A legal move that does not force a push-off in the moves left is ``wrong`` and not
        played (the first move is compared with the puzzle's answer, proved the only one)."""
        try:
            if self.state.turn != self.attacker:
                raise GameError("it is not your move")
            move = self._move(text)
        except GameError as exc:
            return Judged("illegal", None, _reason(exc))
        played = self.last
        if not self.wins(move):
            return Judged("wrong", played, "not the winning move")
        return Judged("played", played, outcome=self.play(text))

    def wins(self, move: Any) -> bool:
        """Whether the legal ``move`` forces a push-off within the moves left (a prover that
        reaches more than :data:`PROOF_NODES` positions counts as no)."""
        if self.moves == 0:
            return self.game.action_text(self.state, move) == self.puzzle.solution
        own, opp = eject.sides(self.state)
        try:
            return eject.Prover(PROOF_NODES).move_forces(own, opp, move, self.entry.par - self.moves)
        except eject.OutOfNodes:
            return False

    def winning(self) -> str | None:
        """A move that still forces the push-off (the puzzle's answer at the start), or None."""
        if self.moves == 0:
            return self.puzzle.solution
        moves = eject.winning_moves(self.state, self.entry.par - self.moves, eject.Prover(PROOF_NODES))
        return self.game.action_text(self.state, moves[0]) if moves else None

    def hint(self) -> str:
        try:
            move = self.winning()
        except eject.OutOfNodes:
            return "no winning move found within the search budget"
        return f"try {move}" if move else "no forced ejection is left from here"

    def status(self) -> str:
        side = "black" if self.attacker == 0 else "white"
        return f"{side} to push a marble off: move {self.moves + 1} of {self.entry.par}"


@lru_cache(maxsize=512)
def _defence(state: Any, left: int) -> Any:
    """The defender's reply in ``state`` with the attacker ``left`` moves to go: one after which no
    ejection is forced any more, if there is one; otherwise the reply that leaves the attacker the
    most moves to find (not one that allows a push-off at once). Cached: the browser replays the
    line from the start with every request, and only winning lines are replayed."""
    game = Abalone()
    prover = eject.Prover()
    best, longest = None, 0
    for reply in game.legal_actions(state):
        after = game.next_state(state, reply)
        if game.to_move(after) is None:
            return reply
        own, opp = eject.sides(after)
        needed = next((n for n in range(1, left + 1) if prover.forces(own, opp, n)), left + 1)
        if needed > left:
            return reply
        if needed > longest:
            best, longest = reply, needed
    return best


def start(entry: Entry) -> Attempt:
    """A fresh attempt at ``entry``."""
    kinds: dict[str, Callable[[Entry], Attempt]] = {"crossing": Crossing, "shiqi": Shiqi, "eject": Eject}
    return kinds[entry.kind](entry)


def replay(entry: Entry, moves: Iterable[str]) -> Attempt:
    """An attempt at ``entry`` after ``moves`` (the player's own; in Abalone the defender's
    replies are played in between). GameError naming the first move that is not legal or, in
    Abalone, not winning."""
    attempt = start(entry)
    for number, text in enumerate(moves, 1):
        judged = attempt.judge(text)
        if judged.kind != "played":
            raise GameError(f"move {number}: {judged.reason}")
    return attempt


def solution(entry: Entry) -> list[str]:
    """The whole known answer: the shipped crossing, a 食棋 finish found now, or for Abalone the
    winning line against the resisting defence, the defender's replies in between."""
    if entry.kind == "crossing":
        return [str(text) for text in load("crossings.json")[entry.jump]["moves"]]
    if entry.kind == "shiqi":
        return [str(m) for m in capture.solve(capture.game().initial_state()).moves]
    attempt = start(entry)
    assert isinstance(attempt, Eject)
    line: list[str] = []
    while not attempt.done:
        move = eject.winning_moves(attempt.state, entry.par - attempt.moves)[0]
        attempt.play(attempt.game.action_text(attempt.state, move))
        line.append(attempt.last or "")
        if not attempt.done and attempt.reply:
            line.append(attempt.reply)
    return line
