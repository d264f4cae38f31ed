"""The analysis of one decision: :func:`analyse` and the levels it can analyse with."""

from __future__ import annotations

import random
import time as clock
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from qipan.ai.agent import Agent, Blend, agent_levels, make_agent
from qipan.ai.analysis.playouts import _playouts
from qipan.ai.analysis.readable import _ai_module
from qipan.ai.analysis.searched import _expectimax, _multipv
from qipan.ai.analysis.types import MAX_INCLUDE, MAX_LINES, Analysis, Found, Position
from qipan.ai.search import ExpectimaxAgent
from qipan.core.errors import GameError, brief, choices_text
from qipan.core.game import CHANCE, Game


def analysable(agent: Any) -> bool:
    """Whether :func:`analyse` can analyse with ``agent``: a searcher with ``multipv``, expectimax,
    an agent that says so (``analysed = True``: Sheng-Ke's turn search, Tellstones' memory), a
    table player whose fallback is one of those, or a blend whose stronger agent is."""
    if isinstance(agent, Blend):
        return analysable(agent.strong)
    fallback = getattr(agent, "fallback", None)
    if fallback is not None:
        return analysable(fallback)
    return hasattr(agent, "multipv") or isinstance(agent, ExpectimaxAgent) or getattr(agent, "analysed", False)


def analysis_levels(game: Game[Any, Any]) -> list[str]:
    """The levels of ``game``'s configuration that :func:`analyse` can analyse with, weakest first
    (random, greedy and planning levels cannot: they have no view of the moves they do not play)."""
    return [level for level in agent_levels(game) if analysable(make_agent(game, level))]


def strongest_level(game: Game[Any, Any]) -> str:
    """The strongest level of ``game``'s configuration that can analyse (the last one listed)."""
    return analysis_levels(game)[-1]


def analyse(game: Game[Any, Any], view: Mapping[str, Any], *, lines: int = 3, time: float = 1.0,
            level: str | None = None, include: Iterable[str] = (), seed: int | str = 0, depth: int | None = None,
            history: Sequence[Mapping[str, Any]] = ()) -> Analysis:
    """The best moves of the player whose ``view`` this is (that player must be to move).

    ``lines``: how many best moves; ``time``: the budget in seconds (about); ``level``: whose
    search (None: :func:`strongest_level`); ``include``: moves (notation) whose lines are always
    answered, e.g. the move actually played; ``depth``: a searching level searches exactly this
    deep instead (no time limit; for tests); ``history``: the player's own earlier views, oldest
    first (a memory agent learns from them; other games ignore them). GameError (one line) for a
    finished game, chance to move, another player to move, or a bad included move."""
    if isinstance(lines, bool) or not isinstance(lines, int) or not 1 <= lines <= MAX_LINES:
        raise GameError(f"lines must be a whole number from 1 to {MAX_LINES}, not {brief(lines, 20)}")
    if isinstance(time, bool) or not isinstance(time, int | float) or not 0 < time <= 3600:
        raise GameError(f"time must be a positive number of seconds, not {brief(time, 20)}")
    player = view.get("player") if isinstance(view, Mapping) else None
    if isinstance(player, bool) or not isinstance(player, int):
        raise GameError("analyse a player's view (a seat's), not a spectator's")
    rng = random.Random(seed)
    state = game.sample_state(view, rng)
    mover = game.to_move(state)
    if mover is None:
        raise GameError("the game is over: there is no decision to analyse")
    if mover == CHANCE:
        raise GameError("chance is to move here, not a player: there is no decision to analyse")
    if mover != player:
        raise GameError(f"{game.player_name(player)} is not to move; {game.player_name(mover)} is")
    texts = list(include)
    if len(texts) > MAX_INCLUDE:
        raise GameError(f"include at most {MAX_INCLUDE} moves, not {len(texts)}")
    wanted = [_legal(game, state, text) for text in texts]
    levels = analysis_levels(game)
    if level is None:
        level = levels[-1]
    elif level not in levels:
        raise GameError(f"{game.name} cannot be analysed at level {brief(level, 40)}; "
                        f"choose one of {choices_text(levels)}")
    agent = make_agent(game, level)
    position = Position(game, view, state, player, lines, wanted, rng, float(time), depth, history, level)
    start = clock.perf_counter()
    found = _find(position, agent)
    lines_found = tuple(found.lines)
    return Analysis(player, lines_found, lines_found[0].evaluation, found.method, found.depth, found.nodes,
                    clock.perf_counter() - start)


def _legal(game: Game[Any, Any], state: Any, text: Any) -> Any:
    if not isinstance(text, str) or len(text) > 500:
        raise GameError(f"an included move must be a move in notation, not {brief(text, 40)}")
    try:
        action = game.parse_action(state, text)
    except GameError as exc:
        raise GameError(f"cannot include {brief(text, 40)}: {exc}") from None
    if not game.is_legal(state, action):
        raise GameError(f"cannot include {brief(text, 40)}: {game.explain_illegal(state, action)}")
    return action


def _find(position: Position, agent: Agent) -> Found:
    """The game's own analyser (``analysis_lines(position, agent)`` in its ``ai`` module) if it
    has one for this agent, else the one for ``agent``'s kind of search (a blend: its stronger
    agent)."""
    hook = getattr(_ai_module(position.game), "analysis_lines", None)
    found: Found | None = hook(position, agent) if hook is not None else None
    if found is not None:
        return found
    fallback = getattr(agent, "fallback", None)  # an agent that plays from a table where it can
    if fallback is not None:
        return _find(position, fallback)
    if isinstance(agent, Blend):
        return _find(position, agent.strong)
    if hasattr(agent, "multipv"):
        return _multipv(position, agent)
    if isinstance(agent, ExpectimaxAgent):
        return _expectimax(position, agent)
    return _playouts(position, agent)
