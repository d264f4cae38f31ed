"""The PettingZoo AEC environment for any qipan game with an observation encoder.

The environment speaks only the :class:`~qipan.core.game.Game` protocol:

- agents ``player_0 .. player_{n-1}`` are the game's seats; ``agent_selection`` is always
  ``game.to_move(state)`` — the player who decides now, which need not be the player whose turn
  it is (a Kelighine owner placing a pushed piece, a challenged Tellstones player);
- actions are the game's fixed integer ids (``Discrete(game.num_distinct_actions)``);
- an observation is ``{"observation": encoder(game.view(state, player)), "action_mask": int8}``:
  the tensor encodes only that player's view, the mask marks the legal ids (all zero for a
  player who is not deciding); both come from the encoder's direct paths
  (:meth:`~qipan.rl.encoders.Encoder.observe`, :meth:`~qipan.rl.encoders.Encoder.legal_mask`),
  which give the same arrays without building the view or a move object per legal move;
- chance (dice, shuffles, draws) is resolved inside the environment with a ``random.Random``
  seeded by ``reset(seed=...)``; ``reset()`` without a seed continues that generator;
- rewards are 0 until the game ends, then each agent gets ``game.returns(state)[player]``
  (+1 win, −1 loss, 0 draw in two-player games; see docs/rl.md for multi-player games); with
  ``max_steps`` a game still running after that many decisions is truncated with rewards 0.

>>> import qipan.rl
>>> env = qipan.rl.env("abalone")
>>> env.reset(seed=7)
>>> env.agent_selection
'player_0'
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum())
((7, 9, 9), 44)
>>> env.step(env.unwrapped.action_id("a1b2"))
>>> env.agent_selection
'player_1'
"""

from __future__ import annotations

import importlib
import io
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import AECEnv  # type: ignore[import-untyped,unused-ignore]

from qipan.core.errors import GameError
from qipan.core.game import CHANCE, Game
from qipan.rl.encoders import ActionMask, Encoder, make_encoder

RENDER_MODES = ("human", "ansi")


class QipanEnv(AECEnv):  # type: ignore[misc,unused-ignore]
    """A PettingZoo AEC environment playing ``game`` (build one with :func:`qipan.rl.env`)."""

    def __init__(self, game: Game[Any, Any], render_mode: str | None = None, max_steps: int | None = None):
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise GameError(f"render_mode must be one of human, ansi or None, not {render_mode!r}")
        if max_steps is not None and max_steps < 1:
            raise GameError(f"max_steps must be a positive number of decisions or None, not {max_steps!r}")
        self.game = game
        self.encoder: Encoder = make_encoder(game)
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.metadata: dict[str, Any] = {
            "render_modes": list(RENDER_MODES),
            "name": f"qipan_{game.name.replace('-', '_')}_v0",
            "is_parallelizable": False,
        }
        self.possible_agents: list[str] = [f"player_{i}" for i in range(game.num_players)]
        self.agent_index: dict[str, int] = {a: i for i, a in enumerate(self.possible_agents)}
        n = game.num_distinct_actions
        # One space object per agent, so that seeding one agent's space leaves the others alone.
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0.0, 1.0, self.encoder.shape, dtype=np.float32),
                "action_mask": spaces.MultiBinary(n),
            })
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.rng = random.Random()
        self.game_state: Any = None
        self.steps = 0
        self.last_action: str | None = None
        self._mask: ActionMask | None = None
        self._legal: list[int] | None = None
        self.agents: list[str] = []

    # -- spaces --------------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the AEC protocol ------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` fixes every chance outcome of this and later episodes."""
        if seed is not None:
            self.rng = random.Random(seed)
        self._begin(self.game.initial_state())

    def _begin(self, state: Any) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self.steps = 0
        self.last_action = None
        self.game_state = self._resolve_chance(state)
        self._forget_legal()
        player = self.game.to_move(self.game_state)
        if player is None:
            raise GameError("the game is over: an episode needs a position where a player still decides")
        self.agent_selection = self.possible_agents[player]

    def observe(self, agent: str) -> dict[str, NDArray[Any]]:
        player = self.agent_index[agent]
        if self.game.to_move(self.game_state) == player:
            mask = self._legal_mask().copy()
        else:
            mask = np.zeros(self.game.num_distinct_actions, dtype=np.int8)
        return {"observation": self.encoder.observe(self.game_state, player), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise GameError(f"{agent} must act: give one of its legal action ids, not None")
        action_id = int(action)
        mask = self._legal_mask()
        if not (0 <= action_id < len(mask) and mask[action_id]):
            raise GameError(
                f"illegal action id {action_id} for {agent}: the legal ids are those set in its action_mask "
                f"({int(mask.sum())} of 0..{len(mask) - 1})"
            )
        state = self.game_state
        move = self.game.action_from_id(state, action_id)
        self.last_action = self.game.public_action_text(state, move, None)
        self.game_state = self._resolve_chance(self.game.next_state(state, move))
        self._forget_legal()
        self.steps += 1
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        player = self.game.to_move(self.game_state)
        if player is None:
            returns = self.game.returns(self.game_state)
            for a in self.agents:
                self.rewards[a] = float(returns[self.agent_index[a]])
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[player]
            if self.max_steps is not None and self.steps >= self.max_steps:
                for a in self.agents:
                    self.truncations[a] = True
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The board as a spectator sees it, as text (printed in ``human`` mode)."""
        text = self.render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        return None

    # -- helpers for agents and tests --------------------------------------------------------------

    def legal_action_ids(self) -> list[int]:
        """The legal ids of the agent now deciding (empty when the game is over)."""
        if self._legal is None:
            self._legal = np.flatnonzero(self._legal_mask()).tolist()
        return self._legal

    def _legal_mask(self) -> ActionMask:
        """The legal ids of the agent now deciding as a mask (computed once per state; not to be
        handed out, observe copies it)."""
        if self._mask is None:
            if self.game.to_move(self.game_state) is None:
                self._mask = np.zeros(self.game.num_distinct_actions, dtype=np.int8)
            else:
                self._mask = self.encoder.legal_mask(self.game_state)
        return self._mask

    def _forget_legal(self) -> None:
        self._mask = None
        self._legal = None

    def action_id(self, text: str) -> int:
        """The id of the move written ``text`` in the game's notation (in the current state)."""
        return self.game.action_id(self.game_state, self.game.parse_action(self.game_state, text))

    def action_text(self, action_id: int) -> str:
        """The notation of action ``action_id`` in the current state."""
        return self.game.action_text(self.game_state, self.game.action_from_id(self.game_state, action_id))

    def set_state(self, state: Any) -> None:
        """Continue from ``state`` (chance resolved first), e.g. a position loaded with
        ``game.state_from_json``. Rewards, terminations and the step count restart."""
        self._begin(state)

    def render_text(self) -> str:
        view = self.game.view(self.game_state, None)
        try:
            board = importlib.import_module(f"qipan.cli.boards.{type(self.game).__module__.split('.')[2]}")
        except ModuleNotFoundError:
            board = None
        if board is not None:
            from rich.console import Console

            console = Console(file=io.StringIO(), width=100, record=True, color_system=None)
            console.print(board.render(self.game, view, self.last_action))
            text = console.export_text()
        else:
            lines = [f"{self.game.title} ({self.game.variant})"]
            if self.last_action is not None:
                lines.append(f"last move: {self.last_action}")
            lines += [f"{key}: {value}" for key, value in view.items() if key not in ("state", "game")]
            text = "\n".join(lines) + "\n"
        player = self.game.to_move(self.game_state)
        if player is None:
            text += f"result: {self.game.result_text(self.game_state)}\n"
        else:
            text += f"to move: {self.game.player_name(player)} ({self.possible_agents[player]})\n"
        return text

    def _resolve_chance(self, state: Any) -> Any:
        while self.game.to_move(state) == CHANCE:
            state = self.game.next_state(state, self.game.sample_chance(state, self.rng))
        return state
