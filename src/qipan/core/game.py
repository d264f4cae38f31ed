"""The game protocol every qipan game implements.

A :class:`Game` is a game plus its variant and options. States are immutable, hashable values;
:meth:`Game.apply` returns a new state and never changes its argument. At every state exactly one
of these holds: a player decides (``game.to_move(state)`` is that player's index), chance acts
(``game.to_move(state) == CHANCE``), or the game is over (``game.to_move(state) is None``).

>>> import qipan
>>> game = qipan.load("abalone")
>>> state = game.initial_state()
>>> len(game.legal_actions(state))
44
>>> state = game.play(state, "a1b2")
>>> game.to_move(state)
1
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar, Generic, TypeVar

from qipan.core.errors import GameError, brief, choices_text
from qipan.core.options import Option, Variant, resolve_options

CHANCE = -1
"""The value of ``game.to_move(state)`` when chance acts next (a roll, a shuffle)."""

S = TypeVar("S")
A = TypeVar("A")

JSON = Any


class Game(ABC, Generic[S, A]):
    """A game with its variant and options fixed. Subclasses implement the abstract methods.

    Class attributes describe the game for the registry and the front ends:
    ``name`` (registry id), ``title``, ``variants`` (the first is the default), ``options``,
    ``perfect_information``, ``public_history`` and ``draws``.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    variants: ClassVar[tuple[Variant, ...]]
    options: ClassVar[tuple[Option, ...]] = ()
    perfect_information: ClassVar[bool] = True
    public_history: ClassVar[bool] = True
    """False when remembering the moves is part of the game (Tellstones): the server sends no move
    history while it is played, only the newest move, and the whole record once it is over."""
    draws: ClassVar[bool] = False
    """Whether the rules can end a game drawn; two-player games of such rules allow draw offers
    (docs/server.md, "Takebacks and draws")."""
    seat_options: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    """Options each player brings when taking their seat online, by a seat-free name: the option
    of each seat (Sheng-Ke: ``{"deck": ("deck_0", "deck_1")}``)."""

    def __init__(self, variant: str | None = None, options: Mapping[str, object] | None = None):
        names = [v.name for v in self.variants]
        if variant is None:
            variant = names[0]
        if variant not in names:
            raise GameError(
                f"{self.name} has no variant {brief(variant)}; choose one of {choices_text(names)}"
            )
        self.variant = variant
        spec = self.variants[names.index(variant)]
        values = resolve_options(self.name, self.options, spec, options)
        values = self.check_options(values, explicit=frozenset(options or ()))
        self.config: Mapping[str, Any] = MappingProxyType(values)

    # -- description ---------------------------------------------------------------------------

    def check_options(self, values: dict[str, Any], explicit: frozenset[str]) -> dict[str, Any]:
        """Validate option combinations; may fill in derived defaults. Raise GameError if bad."""
        return values

    @property
    @abstractmethod
    def num_players(self) -> int:
        """How many players this game (with its options) seats."""

    def player_name(self, player: int) -> str:
        """A short human name for a seat ("black", "player 2")."""
        return f"player {player + 1}"

    def time_limit(self) -> float | None:
        """Seconds on each player's clock by the game's own options (None: none); a match with
        no :class:`qipan.core.clock.TimeControl` of its own uses it, with no increment."""
        return None

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.config.items())
        return f"<{type(self).__name__} {self.variant!r} {opts}>"

    def describe(self) -> dict[str, JSON]:
        """The game id, variant and options as JSON."""
        return {"game": self.name, "variant": self.variant, "options": dict(self.config)}

    # -- the protocol --------------------------------------------------------------------------

    @abstractmethod
    def initial_state(self) -> S:
        """The state before the first decision (often a chance node in dice and card games)."""

    @abstractmethod
    def to_move(self, state: S) -> int | None:
        """The player who decides now, :data:`CHANCE`, or None when the game is over."""

    @abstractmethod
    def legal_actions(self, state: S) -> Sequence[A]:
        """Every legal action, in a deterministic order. At chance nodes: the outcomes, when
        they can be listed (a shuffle may be too large to list: then an empty sequence)."""

    @abstractmethod
    def next_state(self, state: S, action: A) -> S:
        """Apply an action known to be legal, without checking it (the fast path for search)."""

    @abstractmethod
    def returns(self, state: S) -> tuple[float, ...]:
        """Each player's payoff at a terminal state (+1 win, -1 loss, 0 draw in two-player games)."""

    @abstractmethod
    def parse_action(self, state: S, text: str) -> A:
        """Parse an action's notation in the context of ``state``; raise GameError if unreadable.

        Parsing does not check legality; :meth:`apply` does."""

    def action_text(self, state: S, action: A) -> str:
        """The canonical notation of ``action`` played at ``state``."""
        return str(action)

    @abstractmethod
    def state_to_json(self, state: S) -> JSON:
        """The whole state as JSON (hidden parts included: for records, debugging, tests)."""

    @abstractmethod
    def state_from_json(self, data: JSON) -> S:
        """Rebuild a state from :meth:`state_to_json`; raise GameError when the data is bad."""

    @abstractmethod
    def view(self, state: S, player: int | None) -> dict[str, JSON]:
        """What ``player`` (None: a spectator) may know of ``state``, as JSON."""

    # -- chance --------------------------------------------------------------------------------

    def chance_outcomes(self, state: S) -> list[tuple[A, float]] | None:
        """Outcomes with probabilities at a chance node, or None when too many to list."""
        actions = self.legal_actions(state)
        if not actions:
            return None
        p = 1.0 / len(actions)
        return [(a, p) for a in actions]

    def sample_chance(self, state: S, rng: random.Random) -> A:
        """Draw a chance outcome with ``rng``. Games with unlistable outcomes override this."""
        outcomes = self.chance_outcomes(state)
        if not outcomes:
            raise GameError("this chance event cannot be listed; the game must sample it")
        actions, weights = zip(*outcomes, strict=True)
        chosen: A = rng.choices(actions, weights=weights)[0]
        return chosen

    # -- checked play --------------------------------------------------------------------------

    def is_terminal(self, state: S) -> bool:
        return self.to_move(state) is None

    def is_legal(self, state: S, action: A) -> bool:
        """Whether ``action`` is legal now. Override when outcomes cannot be listed."""
        return action in self.legal_actions(state)

    def explain_illegal(self, state: S, action: A) -> str:
        """Why ``action`` is illegal at ``state`` (games override this with precise reasons)."""
        return "it is not a legal move here"

    def apply(self, state: S, action: A) -> S:
        """The state after a legal action. Raises GameError, and changes nothing, if illegal."""
        if self.to_move(state) is None:
            raise GameError("the game is over: no more moves")
        if not self.is_legal(state, action):
            text = self.action_text(state, action)
            raise GameError(f"illegal move {text}: {self.explain_illegal(state, action)}")
        return self.next_state(state, action)

    def play(self, state: S, text: str) -> S:
        """Parse ``text`` and apply it (checked)."""
        return self.apply(state, self.parse_action(state, text))

    def public_action_text(self, state: S, action: A, player: int | None) -> str:
        """The notation of ``action`` as ``player`` (None: a spectator) may see it in a move list.

        Hidden-information games hide what the player may not learn: by default an unlistable
        chance outcome (a shuffle) shows as ``"chance"``. Games override this for finer rules."""
        if not self.perfect_information and self.to_move(state) == CHANCE and not self.legal_actions(state):
            return "chance"
        return self.action_text(state, action)

    def legal_texts(self, state: S) -> list[str]:
        return [self.action_text(state, a) for a in self.legal_actions(state)]

    def describe_action(self, state: S, action: A) -> str:
        """A readable sentence about what ``action`` does at ``state`` (for logs)."""
        return self.action_text(state, action)

    def result_text(self, state: S) -> str:
        """A sentence about the result at a terminal state."""
        scores = self.returns(state)
        best = max(scores)
        winners = [i for i, s in enumerate(scores) if s == best]
        if len(winners) == len(scores):
            return "draw"
        return " and ".join(self.player_name(i) for i in winners) + " won"

    # -- integer ids for learning agents ---------------------------------------------------------

    @property
    def num_distinct_actions(self) -> int:
        """Size of the fixed integer action space (decisions only, not chance outcomes)."""
        raise GameError(f"{self.name} has no integer action space")

    def action_id(self, state: S, action: A) -> int:
        raise GameError(f"{self.name} has no integer action space")

    def action_from_id(self, state: S, action_id: int) -> A:
        raise GameError(f"{self.name} has no integer action space")

    def legal_action_ids(self, state: S) -> list[int]:
        return [self.action_id(state, a) for a in self.legal_actions(state)]

    # -- views and sampling ----------------------------------------------------------------------

    def check_player(self, player: int | None) -> None:
        if player is not None and (
            isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.num_players
        ):
            raise GameError(
                f"player must be 0..{self.num_players - 1} or None (spectator), not {brief(player)}"
            )

    def sample_state(self, view: Mapping[str, JSON], rng: random.Random) -> S:
        """A full state consistent with a player's view (for search agents).

        Perfect-information games rebuild the state exactly from ``view["state"]``; hidden
        information games override this and draw the unknown parts with ``rng``."""
        if not self.perfect_information:
            raise GameError(f"{self.name} must implement sample_state")
        return self.state_from_json(view["state"])
