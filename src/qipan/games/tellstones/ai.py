"""Tellstones AI: a memory model plus a policy built on it.

A perfect memory always knows every stone (everything is public at some moment), so the levels
differ in *memory*, not in search: see :class:`~qipan.games.tellstones.memory.MemoryParams`.
:class:`MemoryAgent` remembers the stones with :class:`~qipan.games.tellstones.memory.Memory`,
estimates what the other side remembers (:class:`Rival`), and decides from both with a simple
model of the score race (:func:`win_chance`).

>>> import qipan, random
>>> game = qipan.load("tellstones")
>>> agent = LEVELS["perfect"](game)
>>> state = game.initial_state()
>>> for move in ["place crown 3", "hide 3", "challenge 3"]:
...     state = game.play(state, move)
...     agent.observe(game, game.view(state, 1))
>>> game.action_text(state, agent.choose(game, game.view(state, 1), random.Random(0)))
'name crown'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from qipan.ai.agent import Agent
from qipan.core.game import Game
from qipan.games.tellstones.game import TARGET, State, Tellstones
from qipan.games.tellstones.memory import Memory, MemoryParams, Slot, candidates, face_down
from qipan.games.tellstones.stones import (
    BELIEVE,
    BOAST,
    CHALLENGE,
    COUNTER,
    DOUBT,
    HIDE,
    NAME,
    PEEK,
    PLACE,
    STOP,
    SWAP,
    SYMBOLS,
    Action,
)

PARAMS: dict[str, MemoryParams] = {
    "easy": MemoryParams(forget=0.08, confuse=0.35, capacity=3),
    "medium": MemoryParams(forget=0.04, confuse=0.18, capacity=4),
    "hard": MemoryParams(forget=0.015, confuse=0.06, capacity=6),
    "perfect": MemoryParams.perfect(),
}
"""The memory of each level: per-action forgetting, swap confusion, capacity."""


@cache
def win_chance(mine: int, theirs: int) -> float:
    """The chance to reach :data:`TARGET` first if every further point were a coin flip.

    >>> win_chance(0, 0), win_chance(2, 0)
    (0.5, 0.875)
    """
    if mine >= TARGET:
        return 1.0
    if theirs >= TARGET:
        return 0.0
    return 0.5 * (win_chance(mine + 1, theirs) + win_chance(mine, theirs + 1))


def evaluate(game: Game[Any, Any], state: State, player: int) -> float:
    """Score race only, in [-1, 1]: what a state is worth to ``player`` before memory counts."""
    assert isinstance(game, Tellstones)
    if game.to_move(state) is None:
        return game.returns(state)[player]
    team = game.team(player)
    return 2.0 * win_chance(state.scores[team], state.scores[1 - team]) - 1.0


class Rival:
    """An estimate of what the other team remembers: per face-down stone the chance they know
    it, fading with time and with swaps at rates that adapt to how well they name stones."""

    def __init__(self, params: MemoryParams):
        self.forget = max(params.forget, 0.01)
        self.confuse = max(params.confuse, 0.05)
        self.know: dict[Slot, float] = {}

    def reset(self, view: Mapping[str, Any]) -> None:
        self.know = dict.fromkeys(face_down(view), 0.5)

    def watch(self, game: Tellstones, team: int, before: Mapping[str, Any] | None,
              view: Mapping[str, Any], who: int | str, action: Action) -> None:
        keep = 1.0 - self.forget
        know = {k: v * keep for k, v in self.know.items()}
        slot = (action.line, action.a)
        if action.kind == HIDE:
            know[slot] = 1.0
        elif action.kind == SWAP:
            other = (action.line, action.b)
            a, b = know.pop(slot, None), know.pop(other, None)
            if a is not None:
                know[other] = a * (1.0 - self.confuse)
            if b is not None:
                know[slot] = b * (1.0 - self.confuse)
        elif action.kind == PEEK and isinstance(who, int):
            looker = game.partner(who) if action.b else who
            if game.team(looker) != team:
                know[slot] = 1.0
        elif action.kind == NAME and isinstance(who, int) and game.team(who) != team and before:
            label = before.get("challenged") or before.get("proving")
            if label:
                named = game.read_action(f"hide {label}")
                right = view["lines"][named.line][named.a] == SYMBOLS[action.symbol]
                factor = 0.8 if right else 1.25
                self.forget = min(max(self.forget * factor, 0.002), 0.3)
                self.confuse = min(max(self.confuse * factor, 0.01), 0.6)
        self.know = {k: know.get(k, 0.5) for k in face_down(view)}

    def chance_right(self, view: Mapping[str, Any], slot: Slot, choices: int = 0) -> float:
        """The chance they name the stone on ``slot`` right (``choices``: its candidates)."""
        k = max(choices or len(candidates(view, slot[0])), 1)
        p = self.know.get(slot, 0.5)
        return p + (1.0 - p) / k

    def chance_all(self, view: Mapping[str, Any]) -> float:
        """The chance they name every face-down stone right."""
        counts = [len(candidates(view, n)) for n in range(len(view["lines"]))]
        result = 1.0
        for slot in face_down(view):
            result *= self.chance_right(view, slot, counts[slot[0]])
        return result


class MemoryAgent:
    """Plays Tellstones from a fallible memory (see the module docstring).

    Call :meth:`observe` with this agent's view after every action; without it the agent
    rebuilds what it can from each view it is asked to move in (which is not much)."""

    analysed = True
    """:func:`qipan.ai.analysis.analyse` can analyse with it (playouts by these agents)."""

    PEEK_BELOW = 0.8
    """Peek at the least sure face-down stone when that stone is known with less confidence."""

    STALL = 10
    """Turns of peeking in a row after which the agent takes its best challenge or boast even
    when it does not look better than waiting: with every stone face down and a memory that holds
    fewer stones than the line (hard: 6 of 7), one stone is always unsure, so two such agents
    peeked for ever (8 of 40 hard self-play games reached the arena's 1,000-move limit)."""

    def __init__(self, params: MemoryParams, name: str = "memory", seed: int = 0,
                 rival: MemoryParams | None = None):
        """``rival``: the first estimate of the other side's memory (default: like ours)."""
        self.name = name
        self.params = params
        self.memory = Memory(params, random.Random(seed))
        self.rival = Rival(rival or params)  # until shown otherwise, they remember as we do
        self.before: Mapping[str, Any] | None = None
        self.peeking = 0  # own turns in a row spent peeking

    def observe(self, game: Game[Any, Any], view: Mapping[str, Any]) -> None:
        assert isinstance(game, Tellstones)
        if view["ply"] == self.memory.ply:
            return
        watched = self.memory.observe(game, view)
        if watched is None:
            self.rival.reset(view)
            self.peeking = 0
        else:
            self.rival.watch(game, game.team(view["player"]), self.before, view, *watched)
        self.before = view

    def choose(self, game: Game[Any, Any], view: Mapping[str, Any], rng: random.Random) -> Any:
        assert isinstance(game, Tellstones)
        self.observe(game, view)
        phase = view["phase"]
        team = game.team(view["player"])
        mine, theirs = view["scores"][team], view["scores"][1 - team]
        if phase in ("answer-challenge", "prove"):
            label = view["challenged"] if phase == "answer-challenge" else view["proving"]
            slot = game.read_action(f"hide {label}")
            guess = self.memory.assignment(view).get((slot.line, slot.a), (0, 0.0))[0]
            return Action(NAME, symbol=guess)
        if phase == "answer-boast":
            their_proof = self._their_proof(view, 0.5)
            values = {
                BELIEVE: win_chance(mine, theirs + 1),
                DOUBT: 1.0 - their_proof,
                COUNTER: min(win_chance(mine + 1, theirs), self._my_proof(view)),
            }
            return Action(max(values, key=lambda k: values[k]))
        if phase == "answer-counter":
            believe = win_chance(mine, theirs + 1)
            return Action(BELIEVE if believe >= 1.0 - self._their_proof(view, 0.3) else DOUBT)
        legal = game.legal_actions(game.sample_state(view, rng))
        if phase == "peeking":
            return self._peek(view, legal, 0.95) or Action(STOP)
        return self._turn(view, legal, mine, theirs, rng)

    def _my_proof(self, view: Mapping[str, Any]) -> float:
        result = 1.0
        for _, p in self.memory.assignment(view).values():
            result *= p
        return result

    def _their_proof(self, view: Mapping[str, Any], doubt: float) -> float:
        # Someone who boasts (or, more so, counter-boasts) usually knows more than our estimate
        # says: keep only a ``doubt`` share of the estimated chance that they fail.
        return 1.0 - doubt * (1.0 - self.rival.chance_all(view))

    def _peek(self, view: Mapping[str, Any], legal: Sequence[Action], below: float) -> Action | None:
        peeks = [a for a in legal if a.kind == PEEK and not a.b]
        if not peeks:
            return None
        assignment = self.memory.assignment(view)
        best = min(peeks, key=lambda a: assignment.get((a.line, a.a), (0, 0.0))[1])
        return best if assignment.get((best.line, best.a), (0, 0.0))[1] < below else None

    def _turn(self, view: Mapping[str, Any], legal: Sequence[Action], mine: int, theirs: int,
              rng: random.Random) -> Action:
        base = win_chance(mine, theirs)
        options: list[tuple[float, Action]] = []
        if face_down(view):
            boast = min(win_chance(mine + 1, theirs), self._my_proof(view),
                        max(win_chance(mine, theirs + 1), 1.0 - self.rival.chance_all(view)))
            options.append((boast, Action(BOAST)))
            challenges = [a for a in legal if a.kind == CHALLENGE]
            target = min(challenges, key=lambda a: self.rival.chance_right(view, (a.line, a.a)))
            r = self.rival.chance_right(view, (target.line, target.a))
            options.append((r * win_chance(mine, theirs + 1) + (1 - r) * win_chance(mine + 1, theirs),
                            target))
        value, best = max(options, key=lambda o: o[0], default=(0.0, Action(STOP)))
        if value > base + 0.03 or (options and self.peeking >= self.STALL):
            self.peeking = 0
            return best
        peek = self._peek(view, legal, self.PEEK_BELOW)
        if peek is not None:
            self.peeking += 1
            return peek
        self.peeking = 0
        down = len(face_down(view))
        weights = {PLACE: 2.0, HIDE: 4.0 if down < 3 else 1.5, SWAP: 2.0 if down >= 2 else 0.0}
        kinds = [k for k in weights if weights[k] and any(a.kind == k for a in legal)]
        if not kinds:
            kinds = [SWAP]
        kind = rng.choices(kinds, weights=[weights[k] for k in kinds])[0]
        moves = [a for a in legal if a.kind == kind]
        if kind == SWAP and down >= 2:
            moves = [a for a in moves
                     if view["lines"][a.line][a.a] == "?" and view["lines"][a.line][a.b] == "?"] or moves
        return rng.choice(moves)


def _level(name: str) -> Callable[[Game[Any, Any]], Agent]:
    def make(game: Game[Any, Any]) -> Agent:
        return MemoryAgent(PARAMS[name], name=name)
    return make


LEVELS: dict[str, Callable[[Game[Any, Any]], Agent]] = {name: _level(name) for name in PARAMS}
"""Named levels: easy, medium, hard (human-like memories) and perfect (the ceiling, for tests)."""


def analysis_sample(game: Game[Any, Any], agent: Agent, view: Mapping[str, Any], rng: random.Random) -> State:
    """For :mod:`qipan.ai.analysis`: a state drawn from ``view`` as ``agent`` believes it (each
    face-down stone it remembers is put where it remembers it with the chance it is right, the
    others at random); a state drawn uniformly if ``agent`` has no memory."""
    assert isinstance(game, Tellstones)
    if not isinstance(agent, MemoryAgent):
        return game.sample_state(view, rng)
    guess = {game.label(*slot): SYMBOLS[s] for slot, (s, p) in agent.memory.assignment(view).items()
             if rng.random() < p}
    return game.sample_state_with(view, rng, guess)


def analysis_agents(game: Game[Any, Any], level: str, player: int, views: Sequence[Mapping[str, Any]]) -> list[Agent]:
    """For :mod:`qipan.ai.analysis`: the ``level``'s agents of every seat for playouts, each having
    watched the game so far: ``player`` its own ``views`` (oldest first), the others the public
    part of them (what every seat saw: not ``player``'s peeks)."""
    agents: list[Agent] = []
    for seat in range(game.num_players):
        agent = LEVELS[level](game)
        for view in views:
            agent.observe(game, view if seat == player else {**view, "player": seat, "revealed": None})
        agents.append(agent)
    return agents
