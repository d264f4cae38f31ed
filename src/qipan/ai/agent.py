"""The agent interface, the random and greedy agents, and the per-game level registry.

Each game lists its named levels in ``qipan.games.<game>.ai.LEVELS``: a mapping from a level
name ("easy", "medium", ...) to a factory ``(game) -> Agent``; a game whose levels depend on its
options also defines ``offered_levels(game)``, the names that configuration offers. ``random``
exists for every game.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from qipan.core.errors import GameError, choices_text
from qipan.core.game import CHANCE, Game

if TYPE_CHECKING:
    from qipan.core.match import Match

Evaluation = Callable[[Game[Any, Any], Any, int], float]
"""A heuristic: (game, state, player) -> how good ``state`` is for ``player`` (higher is better)."""


class Agent(Protocol):
    """Chooses actions from views. Stateful agents (memory models) also observe every view."""

    name: str

    def choose(self, game: Game[Any, Any], view: Mapping[str, Any], rng: random.Random) -> Any:
        """A legal action for the player whose view this is (that player is to move)."""
        ...

    def observe(self, game: Game[Any, Any], view: Mapping[str, Any]) -> None:
        """Called with this agent's view after every action of the game (optional use)."""
        ...


class RandomAgent:
    """Uniformly random legal moves."""

    name = "random"

    def choose(self, game: Game[Any, Any], view: Mapping[str, Any], rng: random.Random) -> Any:
        state = game.sample_state(view, rng)
        return rng.choice(list(game.legal_actions(state)))

    def observe(self, game: Game[Any, Any], view: Mapping[str, Any]) -> None:
        return None


class GreedyAgent:
    """One ply: the move whose resulting state evaluates best (ties broken at random).

    With ``samples > 1`` on hidden-information games, each move is scored on several states
    drawn from the view and the scores are averaged."""

    def __init__(self, evaluate: Evaluation, name: str = "greedy", samples: int = 1):
        self.evaluate = evaluate
        self.name = name
        self.samples = samples

    def choose(self, game: Game[Any, Any], view: Mapping[str, Any], rng: random.Random) -> Any:
        player = view["player"]
        states = [game.sample_state(view, rng) for _ in range(self.samples)]
        actions = list(game.legal_actions(states[0]))
        best: list[Any] = []
        best_score = float("-inf")
        for action in actions:
            score = 0.0
            for state in states:
                if self.samples > 1 and not game.is_legal(state, action):
                    continue
                score += self.evaluate(game, game.next_state(state, action), player)
            if score > best_score + 1e-9:
                best, best_score = [action], score
            elif abs(score - best_score) <= 1e-9:
                best.append(action)
        return rng.choice(best)

    def observe(self, game: Game[Any, Any], view: Mapping[str, Any]) -> None:
        return None


class Blend:
    """Each decision, ``strong``'s choice with probability ``share``, else ``weak``'s: a level
    between two others, which plays like the stronger one but slips now and then.

    Both agents observe every view; ``stats`` are those of the agent that chose last.

    >>> import qipan
    >>> game = qipan.load("abalone")
    >>> agent = Blend(GreedyAgent(lambda g, s, p: 0.0), RandomAgent(), 0.5)
    >>> agent.choose(game, game.view(game.initial_state(), 0), random.Random(0)) in game.legal_actions(
    ...     game.initial_state())
    True
    """

    def __init__(self, strong: Agent, weak: Agent, share: float, name: str = "blend"):
        if not 0.0 <= share <= 1.0:
            raise ValueError(f"share must be between 0 and 1, not {share}")
        self.strong = strong
        self.weak = weak
        self.share = share
        self.name = name
        self.last: Agent = strong

    def choose(self, game: Game[Any, Any], view: Mapping[str, Any], rng: random.Random) -> Any:
        self.last = self.strong if rng.random() < self.share else self.weak
        return self.last.choose(game, view, rng)

    def observe(self, game: Game[Any, Any], view: Mapping[str, Any]) -> None:
        self.strong.observe(game, view)
        self.weak.observe(game, view)

    @property
    def stats(self) -> Any:
        return getattr(self.last, "stats", None)


def _game_levels(game: Game[Any, Any]) -> Mapping[str, Callable[[Game[Any, Any]], Agent]]:
    """The game module's ``LEVELS``, narrowed by its ``offered_levels(game)`` if it has one (a
    level that only some configurations of the game offer)."""
    module_name = type(game).__module__.rsplit(".", 1)[0] + ".ai"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError:
        return {}
    levels: Mapping[str, Callable[[Game[Any, Any]], Agent]] = getattr(module, "LEVELS", {})
    offered = getattr(module, "offered_levels", None)
    if offered is not None:
        return {name: levels[name] for name in offered(game)}
    return levels


def agent_levels(game: Game[Any, Any]) -> list[str]:
    """The agent names available for ``game``: ``random`` and the game's own levels."""
    return ["random", *[name for name in _game_levels(game) if name != "random"]]


def make_agent(game: Game[Any, Any], level: str, time_per_move: float | None = None) -> Agent:
    """Build the agent called ``level`` for ``game``; raise GameError naming the choices.

    With ``time_per_move`` (seconds), a search agent thinks that long per move instead of its own
    depth or iteration budget (see :func:`budget`)."""
    if level == "random":
        return RandomAgent()
    levels = _game_levels(game)
    if level not in levels:
        raise GameError(
            f"{game.name} has no AI level {level!r}; choose one of {choices_text(agent_levels(game))}"
        )
    if time_per_move is not None and (isinstance(time_per_move, bool) or not isinstance(time_per_move, (int, float))
                                      or not time_per_move > 0):
        raise GameError(f"the time per move must be a positive number of seconds, not {time_per_move!r}")
    return budget(levels[level](game), time_per_move)


def budget(agent: Agent, seconds: float | None) -> Agent:
    """Give a search agent ``seconds`` per move instead of its own depth or iteration budget (a
    :class:`Blend`: both of its agents); other agents, and ``seconds=None``, are left as they are."""
    if isinstance(agent, Blend):
        budget(agent.strong, seconds)
        budget(agent.weak, seconds)
        return agent
    if seconds is None or not hasattr(agent, "time_limit"):
        return agent
    agent.time_limit = seconds
    if hasattr(agent, "iterations"):
        agent.iterations = 10**9
    if hasattr(agent, "depth"):
        agent.depth = max(agent.depth, 64)
    return agent


def choose_within(agent: Agent, seconds: float | None, game: Game[Any, Any], view: Mapping[str, Any],
                  rng: random.Random) -> Any:
    """``agent.choose(game, view, rng)`` thinking at most about ``seconds`` (None: its own budget),
    e.g. to stay within a clock. A search agent with a time limit gets the smaller of the two; one
    that searches to a depth or a number of iterations gets ``seconds`` as a time limit for this
    decision (so it stops early, never later). Other agents (greedy, memory, Sheng-Ke's turn search,
    whose time limit would mean *more* deals) are left as they are: they are quick."""
    changed: list[tuple[Any, float | None]] = []
    if seconds is not None:
        _cap(agent, max(seconds, 0.01), changed)
    try:
        return agent.choose(game, view, rng)
    finally:
        for searcher, limit in changed:
            searcher.time_limit = limit


def _cap(agent: Any, seconds: float, changed: list[tuple[Any, float | None]]) -> None:
    if isinstance(agent, Blend):
        _cap(agent.strong, seconds, changed)
        _cap(agent.weak, seconds, changed)
        return
    if not hasattr(agent, "time_limit"):
        return
    limit = agent.time_limit
    if limit is None and not (hasattr(agent, "depth") or hasattr(agent, "iterations")):
        return
    changed.append((agent, limit))
    agent.time_limit = seconds if not limit else min(limit, seconds)


def play_out(game: Game[Any, Any], agents: Sequence[Agent], rng: random.Random, state: Any = None) -> Any:
    """Play to the end with ``agents[p]`` deciding for seat ``p`` from its view only, every
    agent observing its view after every action; chance is drawn with ``rng``. The final state.

    >>> import qipan
    >>> game = qipan.load("abalone", quiet_move_limit=10)
    >>> end = play_out(game, [RandomAgent(), RandomAgent()], random.Random(1))
    >>> game.to_move(end) is None
    True
    """
    state = game.initial_state() if state is None else state
    while (mover := game.to_move(state)) is not None:
        if mover == CHANCE:
            action = game.sample_chance(state, rng)
        else:
            action = agents[mover].choose(game, game.view(state, mover), rng)
        state = game.next_state(state, action)
        for seat, agent in enumerate(agents):
            agent.observe(game, game.view(state, seat))
    return state


def movers(match: Match, agents: Sequence[Agent]) -> Iterator[int]:
    """The seat to move at each decision of ``match`` (chance drawn by the match), each time
    after every agent has observed its view of the position: the start, and after every action
    (the end too). The caller plays that seat's action before asking for the next decision.

    This is how the arena and ``qipan simulate`` drive their agents, so that both play with the
    same information (an agent with a memory, Tellstones', learns from every position).

    >>> import qipan
    >>> from qipan.core import Match
    >>> match = Match(qipan.load("abalone", quiet_move_limit=4), seed=1)
    >>> agents = [RandomAgent(), RandomAgent()]
    >>> for seat in movers(match, agents):
    ...     match.play(agents[seat].choose(match.game, match.game.view(match.state, seat), random.Random(1)))
    >>> match.over
    True
    """
    game = match.game
    while True:
        for seat, agent in enumerate(agents):
            agent.observe(game, game.view(match.state, seat))
        if match.over:
            return
        mover = match.to_move
        if mover is None or mover == CHANCE:
            raise GameError("agents play a match whose chance is drawn by the match (chance='auto')")
        yield mover

