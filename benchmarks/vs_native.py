"""Play a qipan AI level against an external program that speaks qipan's engine protocol.

The program is any command line that reads and answers JSON lines like ``qipan engine``; this
script uses only ``new``, ``play``, ``ai`` (with ``time`` and ``"play": true``) and ``quit``, so an
adapter in front of a native engine needs no more (docs/engine-protocol.md). The benchmark knows
nothing about the program: qipan's own rules judge every move it answers.

Each game starts the program afresh. Both sides get the same time per move: the qipan level is
built in-process with ``make_agent(game, level, time_per_move=T)`` and the program is asked
``{"cmd": "ai", "time": T, "play": true}``. Colours alternate (qipan takes the first seat in even
games). ``--random-opening K`` plays K random plies first, sent to both. An illegal move, an error
answer, a malformed line, a program that exits, or no answer within ``T + --grace`` seconds counts
as the program's loss and is reported; ``--max-plies`` ends a game as a draw. Interrupted
(Ctrl-C, SIGINT or SIGTERM), it reports the games finished so far.

    python benchmarks/vs_native.py --program "python adapter.py ./engine" --level hard --time 0.3 \\
        --games 20 --jobs 2 --random-opening 2 --option quiet_move_limit=100 --json out.json

It prints qipan's W-D-L with the 95% Wilson interval of its score, how games ended, pieces
pushed out per side (games whose state lists each side's pieces, e.g. Abalone's marbles), average
plies, seconds per move for both, qipan's nodes/s and depth, and what the program reported
in its ``info`` (depth, nodes, nodes/s), if anything.
"""

from __future__ import annotations

import argparse
import json
import queue
import random
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections import Counter, deque
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from qipan.ai import make_agent
from qipan.ai.arena import wilson
from qipan.core.errors import GameError
from qipan.core.game import Game
from qipan.core.match import Match
from qipan.core.options import parse_option_assignments
from qipan.core.registry import load

MAX_ANSWER_BYTES = 1 << 20
"""The longest answer line read from the program; a longer one is malformed."""


class ProgramFailure(Exception):
    """The program broke the protocol; ``kind`` says how (the game's ending in the report)."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class Spec:
    program: tuple[str, ...]
    game: str
    variant: str | None
    options: dict[str, str]
    level: str
    time: float
    random_opening: int
    max_plies: int
    grace: float
    seed: int


@dataclass
class Side:
    """Per-move statistics of one side over a game."""

    moves: int = 0
    seconds: float = 0.0  # wall time, measured here
    max_seconds: float = 0.0
    nodes: int = 0
    search_seconds: float = 0.0  # the side's own time for the moves that report nodes
    depth_sum: float = 0.0
    depth_moves: int = 0

    def add(self, wall: float, nodes: int | None, seconds: float | None, depth: float | None) -> None:
        self.moves += 1
        self.seconds += wall
        self.max_seconds = max(self.max_seconds, wall)
        if nodes:
            self.nodes += nodes
            self.search_seconds += seconds if seconds else wall
        if depth is not None:
            self.depth_sum += depth
            self.depth_moves += 1

    def merge(self, other: Side) -> None:
        for name in ("moves", "seconds", "nodes", "search_seconds", "depth_sum", "depth_moves"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.max_seconds = max(self.max_seconds, other.max_seconds)

    def summary(self) -> dict[str, Any]:
        return {
            "moves": self.moves,
            "seconds_per_move": self.seconds / self.moves if self.moves else None,
            "max_seconds": self.max_seconds,
            "nodes_per_second": self.nodes / self.search_seconds if self.search_seconds else None,
            "depth": self.depth_sum / self.depth_moves if self.depth_moves else None,
        }


@dataclass
class GameResult:
    index: int
    seed: int
    qipan_seat: int
    score: float  # qipan's: 1 win, 0.5 draw, 0 loss
    reason: str  # "qipan won", "program won", "drawn by the rules", "max plies", or how the program
    # failed ("illegal move", "timeout", ...)
    text: str
    plies: int
    moves: list[str]
    pushed_out: list[int] | None  # pieces each seat lost, when the state lists them
    qipan: Side = field(default_factory=Side)
    program: Side = field(default_factory=Side)
    error: str | None = None


class Program:
    """The external program, one JSON line out and one in, with a deadline for every answer."""

    def __init__(self, argv: tuple[str, ...]):
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE)
        except OSError as exc:
            raise ProgramFailure("cannot start", f"cannot start {shlex.join(argv)}: {exc.strerror or exc}") from None
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.stderr: deque[str] = deque(maxlen=3)
        threading.Thread(target=self._read, daemon=True).start()
        self.stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self.stderr_reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        while line := self.proc.stdout.readline(MAX_ANSWER_BYTES + 1):
            self.lines.put(line)
        self.lines.put(None)

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.stderr.append(line.decode("utf-8", "replace").strip()[:200])

    def ask(self, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send one request and return the answer; ProgramFailure if it is not a good one."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write((json.dumps(request) + "\n").encode())
            self.proc.stdin.flush()
        except OSError:
            raise ProgramFailure("program exited", self._gone()) from None
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise ProgramFailure("timeout", f"timeout: no answer to {request['cmd']} within {timeout:g} s") from None
        if line is None:
            raise ProgramFailure("program exited", self._gone())
        try:
            answer = json.loads(line)
        except ValueError:
            raise ProgramFailure("malformed answer", f"malformed answer to {request['cmd']}: {line[:80]!r}") from None
        if not isinstance(answer, dict) or answer.get("ok") is not True:
            error = answer.get("error") if isinstance(answer, dict) else None
            raise ProgramFailure("error answer", f"error answer to {request['cmd']}: {str(error or answer)[:200]}")
        return answer

    def _gone(self) -> str:
        try:
            code = self.proc.wait(1)
        except subprocess.TimeoutExpired:
            code = None
        self.stderr_reader.join(1)
        said = f"; its last words: {' | '.join(self.stderr)}" if self.stderr else ""
        return f"the program exited (code {code}){said}"

    def close(self, polite: bool = True) -> None:
        """Say quit and wait a little (``polite``), else (a program that failed) kill it."""
        try:
            if polite and self.proc.poll() is None and self.proc.stdin is not None:
                self.proc.stdin.write(b'{"cmd": "quit"}\n')
                self.proc.stdin.flush()
                self.proc.wait(2)
        except (OSError, subprocess.TimeoutExpired):
            pass
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def pieces(game: Game[Any, Any], state: Any) -> list[int] | None:
    """Pieces on the board per seat, when the state JSON lists them under the players' names."""
    data = game.state_to_json(state)
    names = [game.player_name(p) for p in range(game.num_players)]
    if not isinstance(data, dict) or not all(isinstance(data.get(n), list) for n in names):
        return None
    return [len(data[n]) for n in names]


def new_request(spec: Spec) -> dict[str, Any]:
    request: dict[str, Any] = {"cmd": "new", "game": spec.game, "options": spec.options}
    if spec.variant:
        request["variant"] = spec.variant
    return request


class Unsupported(Exception):
    """The game has chance events, which the program would draw for itself."""


def play(match: Match, move: str) -> None:
    """Play ``move``; GameError if it is illegal, Unsupported if chance followed it."""
    before = len(match.moves)
    match.play(move)
    if len(match.moves) != before + 1:
        raise Unsupported(f"{match.game.name} has chance events; vs_native plays games without chance")


def play_game(spec: Spec, index: int) -> GameResult:
    """One game: qipan takes seat ``index % 2``; the program is started for this game only."""
    seed = spec.seed + index
    game = load(spec.game, spec.variant, spec.options)
    match = Match(game, seed=seed)
    if match.moves:
        raise Unsupported(f"{game.name} starts with chance; vs_native plays games without chance")
    qipan_seat = index % 2
    agent = make_agent(game, spec.level, spec.time)
    rng = random.Random(seed)
    start = pieces(game, match.state)
    result = GameResult(index, seed, qipan_seat, 0.5, "", "", 0, [], None)
    program: Program | None = None
    failed = False
    try:
        program = Program(spec.program)
        program.ask(new_request(spec), spec.grace + 10)
        for _ in range(spec.random_opening):
            if match.over:
                break
            text = game.action_text(match.state, rng.choice(game.legal_actions(match.state)))
            play(match, text)
            program.ask({"cmd": "play", "move": text}, spec.grace + 10)
        agent.observe(game, game.view(match.state, qipan_seat))
        while not match.over and len(match.moves) < spec.max_plies:
            if match.to_move == qipan_seat:
                began = time.perf_counter()
                view = game.view(match.state, qipan_seat)
                action = agent.choose(game, view, random.Random(f"{seed}:{len(match.moves)}"))
                wall = time.perf_counter() - began
                stats = getattr(agent, "stats", None)
                result.qipan.add(wall, getattr(stats, "nodes", None), getattr(stats, "seconds", None),
                                 getattr(stats, "depth", None) if getattr(stats, "nodes", 0) else None)
                text = game.action_text(match.state, action)
                play(match, text)
                program.ask({"cmd": "play", "move": text}, spec.grace + 10)
            else:
                began = time.perf_counter()
                answer = program.ask({"cmd": "ai", "time": spec.time, "play": True}, spec.time + spec.grace)
                wall = time.perf_counter() - began
                move = answer.get("move")
                if not isinstance(move, str):
                    raise ProgramFailure("malformed answer", f"answer to ai without a move: {str(answer)[:200]}")
                try:
                    play(match, move)
                except GameError as exc:
                    raise ProgramFailure("illegal move", f"illegal move {move[:40]!r}: {exc}") from None
                info = answer.get("info")
                if not isinstance(info, dict):
                    info = {}
                nodes, depth, seconds = info.get("nodes"), info.get("depth"), info.get("seconds")
                result.program.add(wall, nodes if isinstance(nodes, int) else None,
                                   seconds if isinstance(seconds, int | float) else None,
                                   depth if isinstance(depth, int | float) else None)
            agent.observe(game, game.view(match.state, qipan_seat))
        if match.over:
            outcome = match.result() or {}
            returns = outcome.get("returns", [0, 0])
            mine, theirs = returns[qipan_seat], returns[1 - qipan_seat]
            result.score = 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5
            result.reason = {1.0: "qipan won", 0.5: "drawn by the rules", 0.0: "program won"}[result.score]
            result.text = str(outcome.get("text", ""))
        else:
            result.reason, result.text = "max plies", f"draw: {spec.max_plies} plies played"
    except ProgramFailure as exc:
        failed = True
        message = str(exc)
        result.score = 1.0
        result.reason = exc.kind
        result.error = message
        result.text = f"the program loses: {message}"
    finally:
        if program is not None:
            program.close(polite=not failed)
    result.moves = [m.text for m in match.moves]
    result.plies = len(match.moves)
    end = pieces(game, match.state)
    if start is not None and end is not None:
        result.pushed_out = [a - b for a, b in zip(start, end, strict=True)]
    return result


def check_program(spec: Spec) -> None:
    """Start the program once and open a game: a clear one-line error if it cannot."""
    program = Program(spec.program)
    try:
        program.ask(new_request(spec), spec.grace + 10)
    finally:
        program.close()


def _fmt(x: float | None, pattern: str = "{:,.0f}") -> str:
    return "-" if x is None else pattern.format(x)


def summarise(spec: Spec, results: list[GameResult]) -> dict[str, Any]:
    wins = sum(r.score == 1.0 for r in results)
    draws = sum(r.score == 0.5 for r in results)
    losses = len(results) - wins - draws
    score = (wins + 0.5 * draws) / len(results) if results else 0.0
    low, high = wilson(wins + 0.5 * draws, len(results))
    qipan, program = Side(), Side()
    pushed_by_qipan = pushed_by_program = 0
    counted = 0
    for r in results:
        qipan.merge(r.qipan)
        program.merge(r.program)
        if r.pushed_out is not None:
            counted += 1
            pushed_by_qipan += r.pushed_out[1 - r.qipan_seat]
            pushed_by_program += r.pushed_out[r.qipan_seat]
    return {
        "program": shlex.join(spec.program), "level": spec.level, "time": spec.time, "game": spec.game,
        "variant": spec.variant, "options": spec.options, "random_opening": spec.random_opening,
        "max_plies": spec.max_plies, "seed": spec.seed, "games": len(results),
        "wins": wins, "draws": draws, "losses": losses, "score": score, "interval": [low, high],
        "endings": dict(Counter(r.reason for r in results)),
        "pushed_out": {"by_qipan": pushed_by_qipan, "by_program": pushed_by_program} if counted else None,
        "average_plies": sum(r.plies for r in results) / len(results) if results else 0.0,
        "qipan": qipan.summary(), "program_stats": program.summary(),
        "failures": [{"game": r.index, "error": r.error} for r in results if r.error],
    }


def report(summary: dict[str, Any]) -> str:
    q, p = summary["qipan"], summary["program_stats"]
    lines = [
        f"qipan {summary['level']} vs {summary['program']}",
        f"{summary['game']} {summary['variant'] or 'standard'}, options {summary['options']}, "
        f"{summary['time']:g} s a move, random opening {summary['random_opening']}, "
        f"cap {summary['max_plies']} plies, seed {summary['seed']}",
        f"qipan W-D-L {summary['wins']}-{summary['draws']}-{summary['losses']} in {summary['games']} games: "
        f"score {summary['score']:.0%} (95% {summary['interval'][0]:.0%}–{summary['interval'][1]:.0%})",
        "endings: " + ", ".join(f"{k} {v}" for k, v in sorted(summary["endings"].items())),
    ]
    if summary["pushed_out"]:
        lines.append(f"pieces pushed out: by qipan {summary['pushed_out']['by_qipan']}, "
                     f"by the program {summary['pushed_out']['by_program']}")
    lines.append(f"average plies {summary['average_plies']:.1f}")
    lines.append(f"qipan:   {_fmt(q['seconds_per_move'], '{:.3f}')} s/move (max {q['max_seconds']:.2f}), "
                 f"{_fmt(q['nodes_per_second'])} nodes/s, depth {_fmt(q['depth'], '{:.2f}')}")
    lines.append(f"program: {_fmt(p['seconds_per_move'], '{:.3f}')} s/move (max {p['max_seconds']:.2f}), "
                 f"{_fmt(p['nodes_per_second'])} nodes/s, depth {_fmt(p['depth'], '{:.2f}')} (as it reports)")
    for failure in summary["failures"]:
        lines.append(f"program failure in game {failure['game']}: {failure['error']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--program", required=True, help="the command line of the external program")
    parser.add_argument("--level", default="hard", help="qipan's level (default hard)")
    parser.add_argument("--time", type=float, default=0.3, help="seconds per move for both (default 0.3)")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--game", default="abalone")
    parser.add_argument("--variant")
    parser.add_argument("--option", action="append", default=[], help="game option KEY=VALUE")
    parser.add_argument("--random-opening", type=int, default=0, metavar="K", help="random plies first")
    parser.add_argument("--max-plies", type=int, default=400, help="a draw after this many plies (default 400)")
    parser.add_argument("--grace", type=float, default=2.0,
                        help="seconds the program may take beyond --time before it loses (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", metavar="FILE", help="write the summary and every game here")
    args = parser.parse_args(argv)

    def fail(message: str) -> int:
        print(f"vs_native: {message}", file=sys.stderr)
        return 2

    try:
        program = tuple(shlex.split(args.program))
        options = parse_option_assignments(args.option)
        game = load(args.game, args.variant, options)
        make_agent(game, args.level, args.time)
    except (ValueError, GameError) as exc:
        return fail(str(exc))
    if not program:
        return fail("--program is empty")
    if game.num_players != 2 or not game.perfect_information:
        return fail(f"{args.game} is not a two-player game of perfect information")
    if not 0 < args.time <= 600 or args.games < 1 or args.jobs < 1 or args.max_plies < 1 or args.grace < 0 \
            or args.random_opening < 0:
        return fail("--time must be in (0, 600]; --games, --jobs and --max-plies at least 1; "
                    "--grace and --random-opening at least 0")
    spec = Spec(program, args.game, args.variant, options, args.level, args.time, args.random_opening,
                args.max_plies, args.grace, args.seed)
    try:
        check_program(spec)
    except ProgramFailure as exc:
        return fail(str(exc))

    results: list[GameResult] = []

    def done(r: GameResult) -> None:
        results.append(r)
        side = game.player_name(r.qipan_seat)
        outcome = {1.0: "wins", 0.5: "draws", 0.0: "loses"}[r.score]
        out = f", pushed out {r.pushed_out}" if r.pushed_out else ""
        print(f"game {r.index}: qipan ({side}) {outcome} in {r.plies} plies ({r.text}){out}", file=sys.stderr)

    # a run started in the background ignores SIGINT unless told otherwise; SIGTERM stops it alike
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    try:
        if pool is None:
            for i in range(args.games):
                done(play_game(spec, i))
        else:
            for r in pool.map(play_game, [spec] * args.games, range(args.games)):
                done(r)
    except Unsupported as exc:
        return fail(str(exc))
    except KeyboardInterrupt:  # Ctrl-C (SIGINT): the games finished so far are the result
        print(f"vs_native: interrupted after {len(results)} games", file=sys.stderr)
        if not results:
            return 130
    finally:
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
    results.sort(key=lambda r: r.index)
    summary = summarise(spec, results)
    print(report(summary))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"summary": summary, "games": [asdict(r) for r in results]}, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
