"""Saving a bridge state as plain JSON, and reading it back without ``pickle``.

``pyspiel.serialize_game_and_state`` stores a Python game's state as a pickled ``__dict__``, and
``pyspiel.deserialize_game_and_state`` unpickles it: that runs whatever the text says, and no
Python game can change it (OpenSpiel's C++ does it). :func:`dumps` writes the game string and
the actions instead; :func:`loads` checks them and replays the actions through qipan's rules, so
text from anyone can be read.

>>> import pyspiel
>>> game = pyspiel.load_game("qipan_tellstones(turn_limit=4)")
>>> state = game.new_initial_state()
>>> state.apply_action(state.legal_actions()[0])
>>> text = dumps(state)
>>> text[-15:]
'"history": [2]}'
>>> loads(text)[1].history()
[2]
"""

from __future__ import annotations

import json
from typing import Any

import pyspiel  # type: ignore[import-not-found,unused-ignore]

from qipan.core.errors import brief
from qipan.core.registry import game_names
from qipan.openspiel.game import QipanGame, QipanState, short_name
from qipan.rl.encoders import encoded_games

MAX_TEXT = 2_000_000
"""The longest text :func:`loads` reads (a 2000-action game is about 10 000 characters)."""
FILE_OPTIONS = ("deck_0", "deck_1")
"""Options naming a file: text from elsewhere may not make :func:`loads` read files."""


def dumps(state: QipanState) -> str:
    """``state`` as JSON: its game's string and every action so far (chance outcomes included)."""
    return json.dumps({"game": str(state.get_game()), "history": state.history()}, ensure_ascii=False)


def loads(text: str, game: QipanGame | None = None) -> tuple[QipanGame, QipanState]:
    """The game and state that :func:`dumps` wrote, every action checked by qipan's rules.

    Given ``game``, the text must name that game (the way to read a game with a deck file);
    otherwise the text's game string is loaded, a qipan game without a deck file. Raises
    ValueError with a one-line message for anything else."""
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise ValueError(f"a saved state is text of at most {MAX_TEXT} characters")
    try:
        data = json.loads(text)
    except ValueError:
        raise ValueError("a saved state is JSON: {\"game\": ..., \"history\": [...]}") from None
    if not isinstance(data, dict) or set(data) != {"game", "history"}:
        raise ValueError("a saved state is JSON with exactly the keys game and history")
    name, history = data["game"], data["history"]
    if not isinstance(name, str) or not isinstance(history, list) or not all(
            isinstance(a, int) and not isinstance(a, bool) for a in history):
        raise ValueError("a saved state's game is a game string and its history a list of whole numbers")
    if game is None:
        game = _load_game(name)
    elif name != str(game):
        raise ValueError(f"the saved state is of {brief(name, 80)}, not of {brief(str(game), 80)}")
    if len(history) > game.max_game_length():
        raise ValueError(f"the saved history has {len(history)} actions, more than the game's {game.max_game_length()}")
    state = game.new_initial_state()
    for number, action in enumerate(history, 1):
        if state.is_terminal():
            raise ValueError(f"action {number} of the saved history comes after the end of the game")
        if action not in state.legal_actions():
            raise ValueError(f"action {number} of the saved history ({brief(action, 20)}) is not legal there")
        state.apply_action(action)
    return game, state


def _load_game(name: str) -> QipanGame:
    short = name.split("(", 1)[0]
    names = [short_name(game_id) for game_id in game_names() if game_id in encoded_games()]
    if short not in names:
        raise ValueError(f"a saved state names a qipan game ({', '.join(names)}), not {brief(short, 40)}")
    try:
        params = pyspiel.game_parameters_from_string(name)
    except pyspiel.SpielError:
        raise ValueError(f"cannot read the game string {brief(name, 80)}") from None
    named = [option for option in FILE_OPTIONS if params.get(option, "default") != "default"]
    if named:
        raise ValueError(f"the saved game names a deck file ({', '.join(named)}): load the game yourself and pass it")
    try:
        game: Any = pyspiel.load_game(name)
    except (ValueError, pyspiel.SpielError) as exc:
        raise ValueError(str(exc).splitlines()[0][:200]) from None
    if not isinstance(game, QipanGame):
        raise ValueError(f"{brief(short, 40)} is not a qipan game")
    return game
