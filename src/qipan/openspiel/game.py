"""A qipan game as an OpenSpiel Python game: :class:`QipanGame` and :class:`QipanState`.

The bridge speaks only the :class:`~qipan.core.game.Game` protocol:

- player actions are the game's fixed integer ids (``game.action_id``, docs/rl.md), legal ones
  from ``game.legal_action_ids``, named by the game's notation;
- chance outcomes are integers with probabilities (:mod:`qipan.openspiel.chance`);
- observations are the player's view, information states the view and the player's recall of
  their earlier views (:mod:`qipan.openspiel.observer`);
- returns are ``game.returns`` at the end, 0 before; a game longer than ``max_game_length``
  actions ends level.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

import pyspiel  # type: ignore[import-not-found,unused-ignore]

from qipan.core.errors import GameError
from qipan.core.game import CHANCE, Game
from qipan.core.registry import game_class
from qipan.games.tellstones.game import Tellstones
from qipan.games.tellstones.memory import Memory, MemoryParams
from qipan.games.tellstones.stones import SYMBOLS
from qipan.openspiel.chance import ChanceEvents, Pending, max_outcomes
from qipan.openspiel.observer import NO_RECALL, ViewObserver, remember, view_string
from qipan.openspiel.params import canonical, read_parameters, specification
from qipan.rl.encoders import make_encoder

PREFIX = "qipan_"


def short_name(game_id: str) -> str:
    """OpenSpiel's name of a qipan game: ``qipan_chinese_checkers`` for ``chinese-checkers``."""
    return PREFIX + game_id.replace("-", "_")


def game_type(game_id: str, players: int | None = None, chance: bool | None = None) -> Any:
    """The ``pyspiel.GameType`` of a qipan game; ``players`` and ``chance`` (whether it has chance
    events) make it that of one instance: its utility and chance mode."""
    cls = game_class(game_id)
    T = pyspiel.GameType
    if chance is None:
        chance = cls.name not in ("abalone", "chinese-checkers")
    low, high = {"chinese-checkers": (1, 6), "kelighine": (2, 4), "tellstones": (2, 4)}.get(cls.name, (2, 2))
    return T(
        short_name=short_name(cls.name),
        long_name=f"qipan {cls.title}",
        dynamics=T.Dynamics.SEQUENTIAL,
        chance_mode=T.ChanceMode.EXPLICIT_STOCHASTIC if chance else T.ChanceMode.DETERMINISTIC,
        information=T.Information.PERFECT_INFORMATION if cls.perfect_information
        else T.Information.IMPERFECT_INFORMATION,
        utility=T.Utility.GENERAL_SUM if players == 1 else T.Utility.ZERO_SUM,
        reward_model=T.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=specification(cls),
    )


class Held:
    """A qipan state in a bridge state's attributes. OpenSpiel clones a Python state by deep-copying
    every attribute; qipan states are immutable, so a copy shares this one instead."""

    __slots__ = ("value",)

    def __init__(self, value: Any):
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> Held:
        return self


class Past(list[Any]):
    """Earlier qipan positions (immutable): a copy is a new list of the same positions."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Past:
        return Past(self)


class QipanGame(pyspiel.Game):  # type: ignore[misc]
    """One qipan game with its variant and options; subclasses (one per game) set ``game_id``."""

    game_id: str

    def __init__(self, params: Mapping[str, Any] | None = None):
        cls = game_class(self.game_id)
        given = {**specification(cls), **(params or {})}
        try:
            variant, options, self.max_length = read_parameters(cls, given)
            self.qipan: Game[Any, Any] = cls(variant=variant, options=options)
        except GameError as exc:
            raise ValueError(f"{short_name(self.game_id)}: {exc}") from None
        self.encoder = make_encoder(self.qipan)
        self.chance = ChanceEvents(self.qipan)
        players = self.qipan.num_players
        info = pyspiel.GameInfo(
            num_distinct_actions=self.qipan.num_distinct_actions,
            max_chance_outcomes=max_outcomes(self.qipan),
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None if players == 1 else 0.0,
            max_game_length=self.max_length,
        )
        chance = info.max_chance_outcomes > 0
        super().__init__(game_type(self.game_id, players, chance), info, canonical(cls, given))

    def new_initial_state(self) -> QipanState:
        return QipanState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ViewObserver:
        return ViewObserver(self.qipan, self.encoder, iig_obs_type or pyspiel.IIGObservationType(), params)


class QipanState(pyspiel.State):  # type: ignore[misc]
    """A position of a :class:`QipanGame`: the qipan state, a split chance event under way, the
    number of actions so far and each player's recall of their
    earlier views. OpenSpiel copies and serialises it through its ``__dict__``; copies share the
    (immutable) qipan states, so a clone costs the same early and late in a game."""

    def __init__(self, game: QipanGame):
        super().__init__(game)
        self.qipan_state = game.qipan.initial_state()
        self.pending: Pending = ()
        self.length = 0
        # Each player's recall folds in their views of the earlier positions only when asked for
        # (searches that never ask pay nothing): ``past`` holds the positions not yet folded in
        # by every player, ``folded[p]`` how many of them player p has.
        self.recall: list[str] = [NO_RECALL] * game.num_players()
        self.folded: list[int] = [0] * game.num_players()
        self.past = Past()

    @property
    def qipan_state(self) -> Any:
        """The qipan state."""
        return self._held.value

    @qipan_state.setter
    def qipan_state(self, value: Any) -> None:
        self._held = Held(value)

    @property
    def bridge(self) -> QipanGame:
        game: QipanGame = self.get_game()
        return game

    def current_player(self) -> int:
        game = self.bridge
        mover = game.qipan.to_move(self.qipan_state)
        if mover is None or self.length >= game.max_length:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(pyspiel.PlayerId.CHANCE) if mover == CHANCE else mover

    def is_terminal(self) -> bool:
        return self.current_player() == int(pyspiel.PlayerId.TERMINAL)

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        return sorted(self.bridge.qipan.legal_action_ids(self.qipan_state))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.bridge.chance.outcomes(self.qipan_state, self.pending)

    def _apply_action(self, action: int) -> None:
        game = self.bridge
        before = self.qipan_state
        if self.is_chance_node():
            self.qipan_state, self.pending = game.chance.apply(self.qipan_state, self.pending, action)
        else:
            state = self.qipan_state
            try:
                move = game.qipan.action_from_id(state, action)
            except GameError as exc:
                raise ValueError(f"illegal action {action}: {exc}") from None
            if not game.qipan.is_legal(state, move):
                text = game.qipan.action_text(state, move)
                raise ValueError(f"illegal action {action} ({text}): {game.qipan.explain_illegal(state, move)}")
            self.qipan_state = game.qipan.next_state(state, move)
        self.length += 1
        self.past.append(before)

    def recall_of(self, player: int) -> str:
        """SHA-256 chained over ``player``'s views of every earlier position (docs/openspiel.md)."""
        game = self.bridge.qipan
        recall = self.recall[player]
        for position in self.past[self.folded[player]:]:
            recall = remember(recall, view_string(game, position, player))
        self.recall[player] = recall
        self.folded[player] = len(self.past)
        done = min(self.folded)
        if done:
            del self.past[:done]
            self.folded = [f - done for f in self.folded]
        return recall

    def _action_to_string(self, player: int, action: int) -> str:
        game = self.bridge
        if player == pyspiel.PlayerId.CHANCE:
            return game.chance.text(self.qipan_state, self.pending, action)
        try:
            return str(game.qipan.action_text(self.qipan_state, game.qipan.action_from_id(self.qipan_state, action)))
        except GameError:
            return f"action {action}"

    def returns(self) -> list[float]:
        game = self.bridge.qipan
        if game.to_move(self.qipan_state) is None:
            return [float(r) for r in game.returns(self.qipan_state)]
        return [0.0] * game.num_players

    def resample_from_infostate(self, player: int, sampler: Any) -> QipanState:
        """A state ``player`` cannot tell from this one, drawn by ``game.sample_state`` from
        their view (``sampler()`` gives uniform numbers in [0, 1), as OpenSpiel's samplers do).
        In Tellstones, whose views do not carry the past, the player's information state has
        perfect recall: the stones they remember (all of them) are kept, not drawn.
        Every recall is kept: the player's is theirs, and the others' are only names for their
        pasts, which the sample does not redraw."""
        game = self.bridge.qipan
        rng = random.Random(int(sampler() * 2**53))
        view = game.view(self.qipan_state, player)
        clone: QipanState = self.clone()
        if isinstance(game, Tellstones):
            clone.qipan_state = game.sample_state_with(view, rng, self._remembered_stones(game, player))
        else:
            clone.qipan_state = game.sample_state(view, rng)
        return clone

    def _remembered_stones(self, game: Tellstones, player: int) -> dict[str, str]:
        """Slot label -> stone of every face-down Tellstones stone that ``player`` knows from
        their views of this game so far (a perfect memory of them, replayed from the history)."""
        chance = self.bridge.chance
        memory = Memory(MemoryParams.perfect())
        state: Any = game.initial_state()
        pending: Pending = ()
        for item in self.full_history():
            memory.observe(game, game.view(state, player))
            if item.player == pyspiel.PlayerId.CHANCE:
                state, pending = chance.apply(state, pending, item.action)
            else:
                state = game.next_state(state, game.action_from_id(state, item.action))
        view = game.view(state, player)
        memory.observe(game, view)
        return {game.label(*slot): SYMBOLS[symbol] for slot, (symbol, sure) in memory.traces.items() if sure == 1.0}

    def __str__(self) -> str:
        """The whole state (hidden parts included: for debugging), as JSON."""
        data = {"state": self.bridge.qipan.state_to_json(self.qipan_state)}
        if self.pending:
            data["pending_chance"] = list(self.pending)
        return json.dumps(data, sort_keys=True, ensure_ascii=False)
