"""``qipan engine``: the JSON-lines engine protocol (see docs/engine-protocol.md).

One JSON object per line in, one per line out. Every answer has ``ok``; errors answer
``{"ok": false, "error": "..."}`` and change nothing.

>>> session = EngineSession()
>>> session.handle('{"cmd": "new", "game": "abalone", "seed": 1}')["to_move"]
0
>>> session.handle('{"cmd": "play", "move": "a1b2"}')
{'ok': True, 'move': 'a1b2', 'to_move': 1}
>>> session.handle('{"cmd": "play", "move": "a1b2"}')["error"]
'illegal move a1b2: there is no white marble on a1'
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable
from typing import Any

from qipan.ai.agent import Agent, make_agent
from qipan.core.chance import check_seed, event_rng
from qipan.core.errors import GameError, choices_text
from qipan.core.game import CHANCE
from qipan.core.match import Match
from qipan.core.registry import game_names, load

Answer = dict[str, Any]

MAX_THINKING = 600.0
"""The longest time per move the ``ai`` command accepts (seconds)."""


def _search_info(agent: Agent) -> Answer:
    """What the agent's last search did (depth or iterations, nodes, seconds, value), if it
    searched: the engine's equivalent of UCI's ``info`` line."""
    stats = getattr(agent, "stats", None)
    if stats is None or not getattr(stats, "nodes", 0):
        return {}
    info: Answer = {"depth": stats.depth, "nodes": stats.nodes, "seconds": round(stats.seconds, 4)}
    if math.isfinite(stats.value):
        info["value"] = round(stats.value, 4)
    return info


def _to_move_json(to_move: int | None) -> int | str | None:
    return "chance" if to_move == CHANCE else to_move


class EngineSession:
    """The state of one engine connection: a current match, answering one command at a time."""

    def __init__(self) -> None:
        self.match: Match | None = None
        # One agent per (level, time per move, seat), kept for the whole game so that agents with
        # memory (Tellstones) see every view, as they would in the arena or on the server.
        self.agents: dict[tuple[str, float | None, int], Agent] = {}
        self.commands: dict[str, Callable[[dict[str, Any]], Answer]] = {
            "new": self.new,
            "legal": self.legal,
            "play": self.play,
            "state": self.state,
            "load": self.load,
            "view": self.view,
            "ai": self.ai,
            "undo": self.undo,
            "record": self.record,
            "games": self.games,
            "quit": self.quit,
        }
        self.finished = False

    def handle(self, line: str) -> Answer:
        """Answer one line of input."""
        try:
            request = json.loads(line)
        except json.JSONDecodeError as exc:
            return {"ok": False, "error": f"malformed JSON: {exc.msg} at column {exc.colno}"}
        if not isinstance(request, dict):
            return {"ok": False, "error": 'each line must be a JSON object such as {"cmd": "legal"}'}
        name = request.get("cmd", request.get("command"))
        if name not in self.commands:
            return {"ok": False, "error": f"unknown command {name!r}; commands: {choices_text(self.commands)}"}
        try:
            return self.commands[name](request)
        except GameError as exc:
            return {"ok": False, "error": str(exc)}

    def _match(self) -> Match:
        if self.match is None:
            raise GameError('no game yet: start one with {"cmd": "new", "game": "abalone"}')
        return self.match

    def _status(self) -> Answer:
        match = self._match()
        answer: Answer = {"ok": True, "to_move": _to_move_json(match.to_move)}
        if match.over:
            answer["result"] = match.result()
        return answer

    # -- commands --------------------------------------------------------------------------------

    def new(self, request: dict[str, Any]) -> Answer:
        options = request.get("options") or {}
        if not isinstance(options, dict):
            raise GameError("options must be a JSON object, e.g. {\"players\": 3}")
        seed = request.get("seed")
        if seed is not None and not isinstance(seed, int):
            raise GameError(f"seed must be an integer, not {seed!r}")
        game = load(str(request.get("game", "")), request.get("variant"), options)
        self.match = Match(game, seed=seed, chance=str(request.get("chance", "auto")))
        self.agents.clear()
        answer = self._status()
        answer.update(game.describe())
        answer["players"] = self.match.players
        answer["seed"] = self.match.seed
        return answer

    def legal(self, request: dict[str, Any]) -> Answer:
        match = self._match()
        answer = self._status()
        answer["moves"] = match.legal_texts()
        if match.to_move == CHANCE:
            outcomes = match.game.chance_outcomes(match.state)
            if outcomes:
                answer["probabilities"] = [p for _, p in outcomes]
        return answer

    def play(self, request: dict[str, Any]) -> Answer:
        match = self._match()
        move = request.get("move")
        if not isinstance(move, str):
            raise GameError('play needs "move": a move in notation, e.g. {"cmd": "play", "move": "a1b2"}')
        player = request.get("player")
        if player is not None and not isinstance(player, int):
            raise GameError(f"player must be a seat number, not {player!r}")
        before = len(match.moves)
        match.play(move, player=player)
        self._observe()
        answer = {"ok": True, "move": match.moves[before].text}
        answer.update(self._status())
        chance = [m.text for m in match.moves[before + 1 :]]
        if chance:
            answer["chance"] = chance
        return answer

    def state(self, request: dict[str, Any]) -> Answer:
        match = self._match()
        answer = self._status()
        answer["state"] = match.game.state_to_json(match.state)
        return answer

    def load(self, request: dict[str, Any]) -> Answer:
        match = self._match()
        if "state" not in request:
            raise GameError('load needs "state": a state as returned by {"cmd": "state"}')
        state = match.game.state_from_json(request["state"])
        match.states[:] = [state]
        match.moves.clear()
        self.agents.clear()
        match.forfeit_result = None
        return self._status()

    def view(self, request: dict[str, Any]) -> Answer:
        match = self._match()
        player = request.get("player")
        if player is not None and not isinstance(player, int):
            raise GameError(f"player must be a seat number or null, not {player!r}")
        answer = self._status()
        answer["view"] = match.game.view(match.state, player)
        return answer

    def ai(self, request: dict[str, Any]) -> Answer:
        match = self._match()
        mover = match.to_move
        if mover is None or mover == CHANCE:
            raise GameError("the AI moves only when a player is to move")
        level = str(request.get("level", "easy"))
        seconds = request.get("time")
        if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                                    or not 0 < seconds <= MAX_THINKING):
            raise GameError(f"time must be a number of seconds above 0 and at most {MAX_THINKING:g}, "
                            f"not {seconds!r}")
        key = (level, seconds, mover)
        if key not in self.agents:
            agent = make_agent(match.game, level, seconds)
            agent.observe(match.game, match.game.view(match.state, mover))
            self.agents[key] = agent
        agent = self.agents[key]
        seed = request.get("seed")
        rng = event_rng(match.seed if seed is None else check_seed(seed), "ai", len(match.moves))
        action = agent.choose(match.game, match.game.view(match.state, mover), rng)
        text = match.game.action_text(match.state, action)
        info = _search_info(agent)
        answer = self.play({"move": text}) if request.get("play", False) else {"ok": True, "move": text,
                                                                              "to_move": mover}
        if info:
            answer["info"] = info
        return answer

    def _observe(self) -> None:
        match = self._match()
        for (_, _, seat), agent in self.agents.items():
            agent.observe(match.game, match.game.view(match.state, seat))

    def undo(self, request: dict[str, Any]) -> Answer:
        self._match().undo()
        self.agents.clear()  # an agent's memory cannot be taken back
        return self._status()

    def record(self, request: dict[str, Any]) -> Answer:
        return {"ok": True, "record": self._match().record().to_json()}

    def games(self, request: dict[str, Any]) -> Answer:
        return {"ok": True, "games": game_names()}

    def quit(self, request: dict[str, Any]) -> Answer:
        self.finished = True
        return {"ok": True, "bye": True}


def engine_command() -> None:
    """Speak the JSON-lines engine protocol on stdin/stdout (see docs/engine-protocol.md)."""
    session = EngineSession()
    for line in sys.stdin:
        if not line.strip():
            continue
        answer = session.handle(line)
        sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
        sys.stdout.flush()
        if session.finished:
            break
