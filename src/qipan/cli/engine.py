"""``qipan engine``: the JSON-lines engine protocol (see docs/engine-protocol.md).

One JSON object per line in, one per line out. Every answer has ``ok``; errors answer
``{"ok": false, "error": "..."}`` and change nothing. Every line is untrusted: it is bounded
(:data:`MAX_LINE_BYTES`, nesting, number length), every field is type-checked, and an error
message never quotes more than a short piece of the input.

>>> session = EngineSession()
>>> session.handle('{"cmd": "new", "game": "abalone", "seed": 1}')["to_move"]
0
>>> session.handle('{"cmd": "play", "move": "a1b2"}')
{'ok': True, 'move': 'a1b2', 'to_move': 1}
>>> session.handle('{"cmd": "play", "move": "a1b2"}')["error"]
'illegal move a1b2: there is no white marble on a1'
>>> session.handle('{"cmd": ["new"]}')["error"]
"unknown command ['new']; commands: new, legal, play, state, load, view, ai, analyse, undo, record, games, quit"
"""

from __future__ import annotations

import json
import logging
import math
import sys
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO

from qipan.ai.agent import Agent, make_agent
from qipan.ai.analysis import MAX_INCLUDE, analyse
from qipan.core import jsonsafe
from qipan.core.chance import check_seed, event_rng
from qipan.core.errors import GameError, brief, choices_text
from qipan.core.game import CHANCE
from qipan.core.match import Match
from qipan.core.registry import game_names, load

Answer = dict[str, Any]

MAX_LINE_BYTES = 1 << 20
"""The longest request line (1 MiB, newline excluded): a ``load`` of a real state is at most a
few tens of KiB. A longer line is skipped unread and answered with an error."""

MAX_MOVE_CHARS = 500
"""The longest move text: a Chinese Checkers jump path through every hole of the board fits."""

MAX_NAME_CHARS = 40
"""The longest game, variant or AI level name accepted (the real ones are under 20)."""

MAX_ERROR_CHARS = 300
"""The longest error message answered; a longer one is cut (a game may list many choices)."""

MAX_THINKING = 600.0
"""The longest time per move the ``ai`` command accepts (seconds)."""

MAX_ANALYSIS_TIME = 60.0
"""The longest time the ``analyse`` command accepts (seconds)."""

MAX_AGENTS = 8
"""Agents kept at once (one per level, time and seat); the least recently used is dropped."""

FIELDS: dict[str, tuple[str, ...]] = {
    "new": ("game", "variant", "options", "seed", "chance"),
    "legal": (),
    "play": ("move", "player"),
    "state": (),
    "load": ("state",),
    "view": ("player",),
    "ai": ("level", "time", "seed", "play"),
    "analyse": ("lines", "time", "level", "include", "seed"),
    "undo": (),
    "record": (),
    "games": (),
    "quit": (),
}
"""The fields each command takes, besides ``cmd`` (or ``command``); any other field is refused."""

_log = logging.getLogger(__name__)


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


def _error(message: str) -> Answer:
    if len(message) > MAX_ERROR_CHARS:
        message = message[: MAX_ERROR_CHARS - 1] + "…"
    return {"ok": False, "error": message}


def _name(value: object, field: str) -> str:
    """A short name field (game, variant, level): a string of at most MAX_NAME_CHARS."""
    if not isinstance(value, str) or len(value) > MAX_NAME_CHARS:
        raise GameError(f"{field} must be a name of at most {MAX_NAME_CHARS} characters, not {brief(value, 40)}")
    return value


def _seat(request: Answer) -> int | None:
    player = request.get("player")
    if player is not None and (isinstance(player, bool) or not isinstance(player, int)):
        raise GameError(f"player must be a seat number (or null), not {brief(player, 40)}")
    return player


class EngineSession:
    """The state of one engine connection: a current match, answering one command at a time."""

    def __init__(self) -> None:
        self.match: Match | None = None
        # One agent per (level, time per move, seat), kept for the whole game so that agents with
        # memory (Tellstones) see every view, as they would in the arena or on the server.
        self.agents: dict[tuple[str, float | None, int], Agent] = {}
        self.views: dict[int, list[tuple[Any, Any]]] = {}
        """Per seat, (state, that seat's view of it) of the positions analysed so far: an analysis
        gives the seat its earlier views, built once each instead of at every analysis."""
        self.commands: dict[str, Callable[[Answer], Answer]] = {
            "new": self.new,
            "legal": self.legal,
            "play": self.play,
            "state": self.state,
            "load": self.load,
            "view": self.view,
            "ai": self.ai,
            "analyse": self.analyse,
            "undo": self.undo,
            "record": self.record,
            "games": self.games,
            "quit": self.quit,
        }
        self.finished = False

    def handle(self, line: str | bytes) -> Answer:
        """Answer one line of input. Never raises; an error answer leaves the session as it was."""
        try:
            request = jsonsafe.loads(line, max_chars=MAX_LINE_BYTES)
        except GameError as exc:
            return _error(f"malformed JSON: {exc}")
        if not isinstance(request, dict):
            return _error('each line must be a JSON object such as {"cmd": "legal"}')
        if "cmd" in request and "command" in request:
            return _error('name the command with "cmd" or "command", not both')
        name = request.get("cmd", request.get("command"))
        if not isinstance(name, str) or name not in self.commands:
            return _error(f"unknown command {brief(name, 40)}; commands: {choices_text(self.commands)}")
        unknown = sorted(set(request) - {"cmd", "command", *FIELDS[name]})
        if unknown:
            takes = ", ".join(FIELDS[name]) or "no other field"
            return _error(f"{name} takes {takes}; not {brief(unknown[0], 40)}")
        saved = self._save()
        try:
            return self.commands[name](request)
        except GameError as exc:
            return _error(str(exc))
        except Exception:  # a bug: answer without internals, and put the session back as it was
            _log.debug("internal error in %s", name, exc_info=True)
            self._restore(saved)
            return _error(f"internal error in {name}")

    def _save(self) -> tuple[Any, ...]:
        match = self.match
        if match is None:
            return (None,)
        return (match, list(match.states), list(match.moves), match.chance_events, match.forfeit_result)

    def _restore(self, saved: tuple[Any, ...]) -> None:
        self.match = saved[0]
        if self.match is not None:
            _, states, moves, self.match.chance_events, self.match.forfeit_result = saved
            self.match.states[:] = states
            self.match.moves[:] = moves
        self.agents.clear()  # an agent interrupted half-way may hold a half-updated memory

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

    def new(self, request: Answer) -> Answer:
        game_name = _name(request.get("game", ""), "game")
        variant = request.get("variant")
        if variant is not None:
            variant = _name(variant, "variant")
        options = request.get("options", {})
        if options is None:
            options = {}
        if not isinstance(options, dict) or not all(
                isinstance(v, str | int | float | bool) for v in options.values()):
            raise GameError('options must be a JSON object of names to strings, numbers or booleans, '
                            'e.g. {"players": 3}')
        seed = request.get("seed")
        if seed is not None:
            seed = check_seed(seed)
        chance = request.get("chance", "auto")
        if chance not in ("auto", "manual"):
            raise GameError(f'chance must be "auto" or "manual", not {brief(chance, 40)}')
        game = load(game_name, variant, options)
        match = Match(game, seed=seed, chance=chance)
        self.match = match
        self.agents.clear()
        self.views.clear()
        answer = self._status()
        answer.update(game.describe())
        answer["players"] = match.players
        answer["seed"] = match.seed
        return answer

    def legal(self, request: Answer) -> Answer:
        match = self._match()
        answer = self._status()
        answer["moves"] = match.legal_texts()
        if match.to_move == CHANCE:
            outcomes = match.game.chance_outcomes(match.state)
            if outcomes:
                answer["probabilities"] = [p for _, p in outcomes]
        return answer

    def play(self, request: Answer) -> Answer:
        match = self._match()
        move = request.get("move")
        if not isinstance(move, str):
            raise GameError('play needs "move": a move in notation, e.g. {"cmd": "play", "move": "a1b2"}')
        if len(move) > MAX_MOVE_CHARS:
            raise GameError(f"a move is at most {MAX_MOVE_CHARS} characters, not {len(move)}")
        player = _seat(request)
        match.game.check_player(player)
        before = len(match.moves)
        match.play(move, player=player)
        self._observe()
        answer = {"ok": True, "move": match.moves[before].text}
        answer.update(self._status())
        chance = [m.text for m in match.moves[before + 1 :]]
        if chance:
            answer["chance"] = chance
        return answer

    def state(self, request: Answer) -> Answer:
        match = self._match()
        answer = self._status()
        answer["state"] = match.game.state_to_json(match.state)
        return answer

    def load(self, request: Answer) -> Answer:
        match = self._match()
        if "state" not in request:
            raise GameError('load needs "state": a state as returned by {"cmd": "state"}')
        state = match.game.state_from_json(request["state"])
        match.restart_from(state)
        self.agents.clear()
        self.views.clear()
        answer = self._status()
        if match.moves:  # automatic chance resolved a chance node at once
            answer["chance"] = [m.text for m in match.moves]
        return answer

    def view(self, request: Answer) -> Answer:
        match = self._match()
        player = _seat(request)
        match.game.check_player(player)
        answer = self._status()
        answer["view"] = match.game.view(match.state, player)
        return answer

    def ai(self, request: Answer) -> Answer:
        match = self._match()
        level = _name(request.get("level", "easy"), "level")
        seconds = request.get("time")
        if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, int | float)
                                    or not 0 < seconds <= MAX_THINKING):
            raise GameError(f"time must be a number of seconds above 0 and at most {MAX_THINKING:g}, "
                            f"not {brief(seconds, 40)}")
        seed = request.get("seed")
        if seed is not None:
            seed = check_seed(seed)
        play = request.get("play", False)
        if not isinstance(play, bool):
            raise GameError(f"play must be true or false, not {brief(play, 40)}")
        mover = match.to_move
        if mover is None or mover == CHANCE:
            raise GameError("the AI moves only when a player is to move")
        key = (level, seconds, mover)
        agent = self.agents.pop(key, None)
        if agent is None:
            agent = make_agent(match.game, level, seconds)
            agent.observe(match.game, match.game.view(match.state, mover))
        self.agents[key] = agent  # the most recently used last
        while len(self.agents) > MAX_AGENTS:
            del self.agents[next(iter(self.agents))]
        rng = event_rng(match.seed if seed is None else seed, "ai", len(match.moves))
        action = agent.choose(match.game, match.game.view(match.state, mover), rng)
        text = match.game.action_text(match.state, action)
        info = _search_info(agent)
        answer = self.play({"move": text}) if play else {"ok": True, "move": text, "to_move": mover}
        if info:
            answer["info"] = info
        return answer

    def analyse(self, request: Answer) -> Answer:
        """The best moves of the player to move, from that player's view (see docs/analysis.md)."""
        match = self._match()
        lines = request.get("lines", 3)  # analyse() checks it
        seconds = request.get("time", 1.0)
        if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not 0 < seconds <= MAX_ANALYSIS_TIME:
            raise GameError(f"time must be a number of seconds above 0 and at most {MAX_ANALYSIS_TIME:g}, "
                            f"not {brief(seconds, 40)}")
        level = request.get("level")
        if level is not None:
            level = _name(level, "level")
        include = request.get("include", [])
        if not isinstance(include, list) or len(include) > MAX_INCLUDE or not all(
                isinstance(m, str) and len(m) <= MAX_MOVE_CHARS for m in include):
            raise GameError(f"include must be a list of at most {MAX_INCLUDE} moves in notation")
        seed = request.get("seed")
        seed = 0 if seed is None else check_seed(seed)
        mover = match.to_move
        if mover is None or mover == CHANCE:
            raise GameError("analyse needs a player to move (the game is over or chance is to move)")
        game = match.game
        history = self._history(match, mover)
        result = analyse(game, game.view(match.state, mover), lines=lines, time=seconds, level=level,
                         include=include, seed=seed, history=history)
        return {"ok": True, "to_move": mover, **result.to_json()}

    def _history(self, match: Match, seat: int) -> list[Any]:
        """``seat``'s views of the positions before the current one: those built for an earlier
        analysis while the positions are the same objects (the game went on, or back by undo),
        the others built now."""
        states = match.states[:-1]
        known = self.views.get(seat, [])
        same = 0
        while same < min(len(known), len(states)) and known[same][0] is states[same]:
            same += 1
        known = known[:same] + [(s, match.game.view(s, seat)) for s in states[same:]]
        self.views[seat] = known
        return [view for _, view in known]

    def _observe(self) -> None:
        match = self._match()
        for (_, _, seat), agent in self.agents.items():
            agent.observe(match.game, match.game.view(match.state, seat))

    def undo(self, request: Answer) -> Answer:
        self._match().undo()
        self.agents.clear()  # an agent's memory cannot be taken back
        return self._status()

    def record(self, request: Answer) -> Answer:
        return {"ok": True, "record": self._match().record().to_json()}

    def games(self, request: Answer) -> Answer:
        return {"ok": True, "games": game_names()}

    def quit(self, request: Answer) -> Answer:
        self.finished = True
        return {"ok": True, "bye": True}


def read_lines(stream: BinaryIO, limit: int = MAX_LINE_BYTES) -> Iterator[bytes | None]:
    """The lines of ``stream``, each at most ``limit`` bytes (newline excluded); None stands for a
    longer line, which is skipped in pieces so that it never sits in memory whole."""
    while line := stream.readline(limit + 2):
        if len(line) <= limit or (len(line) == limit + 1 and line.endswith(b"\n")):
            yield line
            continue
        while line and not line.endswith(b"\n"):
            line = stream.readline(limit)
        yield None


def _dump(answer: Answer) -> bytes:
    text = json.dumps(answer, ensure_ascii=False)
    try:
        return (text + "\n").encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate (a "\ud800" escape) quoted from the input
        return (json.dumps(answer) + "\n").encode("ascii")


def engine_command() -> None:
    """Speak the JSON-lines engine protocol on stdin/stdout (see docs/engine-protocol.md)."""
    session = EngineSession()
    out = sys.stdout.buffer
    try:
        for line in read_lines(sys.stdin.buffer):
            if line is None:
                answer = _error(f"malformed JSON: the line is longer than {MAX_LINE_BYTES} bytes")
            elif not line.strip():
                continue
            else:
                answer = session.handle(line)
            out.write(_dump(answer))
            out.flush()
            if session.finished:
                break
    except (BrokenPipeError, KeyboardInterrupt):
        pass  # the other side went away, or the user pressed Ctrl-C: nothing more to say
