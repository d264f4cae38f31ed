"""What the game-agnostic searchers share: the won score, search statistics, the agents' bases,
multi-PV iterations and transposition-table values."""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any

from qipan.core.game import Game

WIN = 1_000_000.0
"""Score of a won terminal position (minus the plies it takes, so faster wins score higher)."""

Ordering = Callable[[Game[Any, Any], Any, list[Any]], list[Any]]
"""Static move ordering: (game, state, actions) -> the same actions, most promising first."""

KeyFunction = Callable[[Any], Hashable]


@dataclass(frozen=True)
class RootLine:
    """One root move of a multi-PV search: its value for the player to move and its principal
    variation (starting with the move itself)."""

    move: Any
    value: float
    pv: tuple[Any, ...]


@dataclass
class SearchStats:
    """What the last ``choose`` did: nodes visited, depth completed (or iterations), seconds."""

    nodes: int = 0
    depth: int = 0
    seconds: float = 0.0
    value: float = 0.0

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


class _Timeout(Exception):
    pass


def _terminal_value(game: Game[Any, Any], state: Any, player: int, ply: int) -> float:
    """A terminal payoff scaled so wins dominate every heuristic and faster wins score higher."""
    r = game.returns(state)[player]
    if r > 0:
        return r * (WIN - ply)
    if r < 0:
        return r * (WIN - ply)
    return 0.0


class _MemorylessAgent:
    """An agent that keeps nothing between moves: it ignores the views it is shown."""

    def observe(self, game: Game[Any, Any], view: Mapping[str, Any]) -> None:
        return None


class _StateSearchAgent(_MemorylessAgent, ABC):
    """Searches a state drawn from the view (the exact state for perfect information)."""

    def choose(self, game: Game[Any, Any], view: Mapping[str, Any], rng: random.Random) -> Any:
        return self.search(game, game.sample_state(view, rng), rng)[0]

    @abstractmethod
    def search(self, game: Game[Any, Any], state: Any, rng: random.Random | None = None) -> tuple[Any, float]:
        """The best action at ``state`` and its value for the player to move."""


def _exact_values(actions: list[Any], lines: int, wanted: set[Any], child: Callable[[Any, float], float],
                  pv: Callable[[Any], tuple[Any, ...]]) -> dict[Any, RootLine]:
    """One multi-PV iteration: ``child(action, floor)`` searches a root move with the window
    (floor, +inf). The moves that reach the best ``lines`` so far, and the ``wanted`` ones
    (searched with no floor), get their exact values and their line ``pv(action)``, read right
    after their search (before other searches overwrite the table); the others are only proven
    no better than the ``lines``-th best (a fail-low) and left out."""
    exact: dict[Any, RootLine] = {}
    top: list[float] = []  # the best exact values so far, best first, at most `lines`
    for action in actions:
        floor = -math.inf if action in wanted or len(top) < lines else top[-1]
        value = child(action, floor)
        if value > floor or action in wanted:
            exact[action] = RootLine(action, value, pv(action))
            top = sorted([*top, value], reverse=True)[:lines]
    return exact


def _deepen_lines(agent: Any, actions: list[Any], lines: int, wanted: set[Any],
                  iterate: Callable[[int], dict[Any, RootLine]]) -> tuple[list[Any], dict[Any, RootLine], int]:
    """Iterative deepening for multi-PV to ``agent.depth`` within its deadline (the first
    iteration always completes), the root moves reordered best first after each: the moves to
    answer (the best ``lines``, then the ``wanted`` others), their lines from the deepest
    iteration completed (an iteration cut short changes none), the depth completed."""
    found: dict[Any, RootLine] = {}
    done = 0
    for depth in range(1, agent.depth + 1):
        try:
            values = iterate(depth)
        except _Timeout:
            if done:
                break
            agent._deadline = math.inf  # one iteration at least, whatever the time limit
            values = iterate(depth)
        found, done = values, depth
        actions.sort(key=lambda a: -found[a].value if a in found else math.inf)  # stable: ties keep their order
        if all(abs(line.value) > WIN / 2 for line in found.values()):
            break  # every line is a forced result
    ranked = [a for a in actions if a in found]
    return ranked[:lines] + [a for a in ranked[lines:] if a in wanted], found, done


def _to_table(value: float, ply: int) -> float:
    # Store wins relative to this node, so a table hit at another ply scores the right distance.
    if value > WIN / 2:
        return value + ply
    if value < -WIN / 2:
        return value - ply
    return value


def _from_table(value: float, ply: int) -> float:
    if value > WIN / 2:
        return value - ply
    if value < -WIN / 2:
        return value + ply
    return value

