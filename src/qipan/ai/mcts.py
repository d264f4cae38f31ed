"""Monte-Carlo tree search: UCT for full states, information-set MCTS for hidden information,
and the greedy playout policy."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from qipan.ai.agent import Evaluation
from qipan.ai.searchbase import WIN, Ordering, SearchStats, _MemorylessAgent
from qipan.core.game import CHANCE, Game

Policy = Callable[[Game[Any, Any], Any, random.Random], Any]
"""A playout policy: (game, full state, rng) -> an action for the player to move."""

def greedy_policy(evaluate: Evaluation, candidates: int = 8) -> Policy:
    """A playout policy: of up to ``candidates`` random legal actions, the one whose result the
    mover evaluates best, game-ending moves by their payoff (ties at random, so uninformative
    steps stay random)."""

    def policy(game: Game[Any, Any], state: Any, rng: random.Random) -> Any:
        actions = list(game.legal_actions(state))
        if len(actions) > candidates:
            actions = rng.sample(actions, candidates)
        else:
            rng.shuffle(actions)
        mover = game.to_move(state)
        assert mover is not None

        def value(action: Any) -> float:
            after = game.next_state(state, action)
            if game.to_move(after) is None:
                return WIN * game.returns(after)[mover]
            return evaluate(game, after, mover)

        return max(actions, key=value)

    return policy



def _squash(value: float, scale: float) -> float:
    """Map a heuristic or terminal score into [-1, 1]."""
    if value >= WIN / 2:
        return 1.0
    if value <= -WIN / 2:
        return -1.0
    return math.tanh(value / scale)


class _Node:
    __slots__ = ("avail", "children", "mover", "untried", "visits", "wins")

    def __init__(self, mover: int | None, n: int):
        self.mover = mover
        self.children: dict[Any, _Node] = {}
        self.untried: list[Any] | None = None
        self.visits = 0
        self.avail = 0
        self.wins = [0.0] * n


class _PlayoutAgent(_MemorylessAgent):
    """What MCTS and information-set MCTS share: a rollout by ``policy`` for ``rollout_depth``
    actions, then the payoffs or the squashed evaluation per player."""

    evaluate: Evaluation | None
    policy: Policy | None
    rollout_depth: int
    scale: float
    _nodes: int

    def _rollout(self, game: Game[Any, Any], state: Any, rng: random.Random) -> list[float]:
        state, plies = _playout(game, state, rng, self.rollout_depth, self.policy)
        self._nodes += plies
        return _score(game, state, self.evaluate, self.scale)


class MCTSAgent(_PlayoutAgent):
    """UCT Monte-Carlo tree search with per-player returns (any number of players).

    Each iteration selects by UCB1 on the mover's own average return, expands one action,
    plays ``rollout_depth`` random plies (or, with ``greedy`` > 0, picks the heuristically best
    of ``greedy`` random candidates each ply) and scores the end position by its payoffs or, if
    not over, by ``tanh(evaluate / scale)`` per player. Chance nodes are sampled: each drawn
    outcome gets its own child. Stops after ``iterations`` or ``time_limit`` seconds, whichever
    comes first, and plays the most visited move.
    """

    def __init__(self, evaluate: Evaluation | None = None, *, iterations: int = 1000,
                 time_limit: float | None = None, exploration: float = 1.0, rollout_depth: int = 10,
                 scale: float = 1.0, greedy: int = 0, name: str = "mcts"):
        self.evaluate = evaluate
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = exploration
        self.rollout_depth = rollout_depth
        self.scale = scale
        self.greedy = greedy
        self.policy: Policy | None = greedy_policy(evaluate, greedy) if greedy > 0 and evaluate is not None else None
        self.name = name
        self.stats = SearchStats()

    def choose(self, game: Game[Any, Any], view: Mapping[str, Any], rng: random.Random) -> Any:
        state = game.sample_state(view, rng)
        start = time.perf_counter()
        deadline = start + self.time_limit if self.time_limit else math.inf
        n = game.num_players
        root = _Node(game.to_move(state), n)
        self._nodes = 0
        done = 0
        while done < self.iterations and (done % 16 or time.perf_counter() < deadline):
            self._iterate(game, state, root, rng)
            done += 1
        best = max(root.children.items(), key=lambda kv: kv[1].visits)
        self.stats = SearchStats(self._nodes, done, time.perf_counter() - start,
                                 best[1].wins[root.mover or 0] / max(1, best[1].visits))
        return best[0]

    def _iterate(self, game: Game[Any, Any], state: Any, root: _Node, rng: random.Random) -> None:
        path = [root]
        node = root
        n = game.num_players
        while True:
            mover = node.mover
            if mover is None:
                break
            if mover == CHANCE:
                action = game.sample_chance(state, rng)
                state = game.next_state(state, action)
                self._nodes += 1
                child = node.children.get(action)
                if child is None:
                    child = node.children[action] = _Node(game.to_move(state), n)
                    path.append(child)
                    node = child
                    break
                path.append(child)
                node = child
                continue
            if node.untried is None:
                node.untried = list(game.legal_actions(state))
                rng.shuffle(node.untried)
            if node.untried:
                action = node.untried.pop()
                state = game.next_state(state, action)
                self._nodes += 1
                child = node.children[action] = _Node(game.to_move(state), n)
                path.append(child)
                node = child
                break
            log_n = math.log(node.visits)
            c = self.exploration
            action, node = max(
                node.children.items(),
                key=lambda kv: kv[1].wins[mover] / kv[1].visits + c * math.sqrt(log_n / kv[1].visits),
            )
            state = game.next_state(state, action)
            self._nodes += 1
            path.append(node)
        _backpropagate(path, self._rollout(game, state, rng))


def _playout(game: Game[Any, Any], state: Any, rng: random.Random, depth: int,
             policy: Policy | None) -> tuple[Any, int]:
    """Play up to ``depth`` plies (chance sampled, decisions by ``policy`` or at random)."""
    plies = 0
    for plies in range(1, depth + 1):
        mover = game.to_move(state)
        if mover is None:
            return state, plies - 1
        if mover == CHANCE:
            action = game.sample_chance(state, rng)
        elif policy is not None:
            action = policy(game, state, rng)
        else:
            action = rng.choice(game.legal_actions(state))
        state = game.next_state(state, action)
    return state, plies


def _backpropagate(path: list[_Node], result: list[float]) -> None:
    for visited in path:
        visited.visits += 1
        wins = visited.wins
        for i, value in enumerate(result):
            wins[i] += value


def _score(game: Game[Any, Any], state: Any, evaluate: Evaluation | None, scale: float) -> list[float]:
    n = game.num_players
    if game.to_move(state) is None:
        return [float(r) for r in game.returns(state)]
    if evaluate is None:
        return [0.0] * n
    return [_squash(evaluate(game, state, p), scale) for p in range(n)]


class ISMCTSAgent(_PlayoutAgent):
    """Single-observer information-set MCTS.

    Every iteration draws a full state consistent with the agent's view
    (``game.sample_state(view, rng)`` — the only way hidden information enters) and walks one
    tree of action sequences with it: UCB1 over the children legal in that sample, counting each
    child's availability. Chance events are sampled along the way without tree nodes (open loop).
    Rollouts play ``rollout_depth`` actions (chance included) by ``policy`` (default: uniformly
    random) and score as :class:`MCTSAgent` does. ``prune`` (game, state, actions) -> actions may
    narrow the root to a game planner's candidates. Plays the most visited legal move.
    """

    def __init__(self, evaluate: Evaluation | None = None, *, iterations: int = 1000,
                 time_limit: float | None = None, exploration: float = 0.7, rollout_depth: int = 10,
                 scale: float = 1.0, policy: Policy | None = None, prune: Ordering | None = None,
                 name: str = "ismcts"):
        self.evaluate = evaluate
        self.policy = policy
        self.prune = prune
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = exploration
        self.rollout_depth = rollout_depth
        self.scale = scale
        self.name = name
        self.stats = SearchStats()

    def choose(self, game: Game[Any, Any], view: Mapping[str, Any], rng: random.Random) -> Any:
        start = time.perf_counter()
        deadline = start + self.time_limit if self.time_limit else math.inf
        n = game.num_players
        me = view["player"]
        root = _Node(me, n)
        first = game.sample_state(view, rng)
        legal_now = list(game.legal_actions(first))
        if len(legal_now) == 1:
            self.stats = SearchStats(0, 0, time.perf_counter() - start, 0.0)
            return legal_now[0]
        if self.prune is not None:
            legal_now = self.prune(game, first, legal_now)
        self._allowed = set(legal_now)
        self._nodes = 0
        done = 0
        while done < self.iterations and (done % 16 or time.perf_counter() < deadline):
            self._iterate(game, game.sample_state(view, rng), root, rng)
            done += 1
        candidates = [(root.children[a].visits, i) for i, a in enumerate(legal_now) if a in root.children]
        if not candidates:
            return rng.choice(legal_now)
        best = legal_now[max(candidates)[1]]
        child = root.children[best]
        self.stats = SearchStats(self._nodes, done, time.perf_counter() - start,
                                 child.wins[me] / max(1, child.visits))
        return best

    def _iterate(self, game: Game[Any, Any], state: Any, root: _Node, rng: random.Random) -> None:
        path = [root]
        node = root
        n = game.num_players
        c = self.exploration
        while True:
            mover = game.to_move(state)
            if mover is None:
                break
            if mover == CHANCE:
                state = game.next_state(state, game.sample_chance(state, rng))
                self._nodes += 1
                continue
            actions: Sequence[Any] = game.legal_actions(state)
            if node is root:
                actions = [a for a in actions if a in self._allowed] or actions
            children = node.children
            untried = [a for a in actions if a not in children]
            for a in actions:
                if a in children:
                    children[a].avail += 1
            if untried:
                action = rng.choice(untried)
                state = game.next_state(state, action)
                self._nodes += 1
                child = children[action] = _Node(mover, n)
                child.avail = 1
                path.append(child)
                break
            action = max(
                actions,
                key=lambda a: children[a].wins[mover] / children[a].visits
                + c * math.sqrt(math.log(children[a].avail) / children[a].visits),
            )
            node = children[action]
            state = game.next_state(state, action)
            self._nodes += 1
            path.append(node)
        _backpropagate(path, self._rollout(game, state, rng))
