"""qipan's Chinese Checkers levels against OpenSpiel's ``chinese_checkers`` bots.

OpenSpiel's rules are qipan's with ``jump=adjacent`` (hops over a neighbouring piece),
``chain=true``, ``other_corners=allowed``, ``blocked_target=false`` (all ten target holes must
hold your own pieces), ``play_on=false``, ``pieces=10`` and ``max_moves=1000`` (a draw at the
cap). The boards are numbered alike (hole i of qipan, rows a..q left to right, is OpenSpiel's
position i: its board is qipan's mirrored top to bottom), and so are the seats (OpenSpiel's
triangle k is qipan's point k + 1). An OpenSpiel turn is one action per step or hop
(``position * 6 + direction``) and, when the chain could go on, 726 to end it; a qipan move is
its start and end. Every position played is cross-checked: the moves OpenSpiel allows (every
chain followed to its end) must be qipan's legal moves; a disagreement is printed and counted.

    pip install 'qipan[openspiel]'        # or: pip install open_spiel
    python benchmarks/vs_openspiel.py --players 2 --level hard --opponent mcts --simulations 1000 --games 4
    python benchmarks/vs_openspiel.py --players 2 --level hard --opponent mcts --mcts python --simulations 100 --games 1
    python benchmarks/vs_openspiel.py --players 3 --level hard --opponent random --games 10
    python benchmarks/vs_openspiel.py --players 6 --level hard --opponent mcts --no-solve --games 1 --seed 601

Seats alternate as in ``qipan arena`` (qipan holds every other seat; a game is qipan's win when
one of its seats finishes first). Prints W-D-L with a 95% Wilson interval and seconds per move
(of wall time); interrupted (Ctrl-C or SIGTERM), it reports the games finished so far.
"""

from __future__ import annotations

import argparse
import itertools
import random
import signal
import sys
import time
from collections.abc import Sequence
from typing import Any

import qipan
from qipan.ai import make_agent
from qipan.ai.arena import outcome_for_a, seating, wilson
from qipan.games.chinese_checkers.board import NAMES, NUM_HOLES, ROW_LENGTHS, ROW_OF, hole_index
from qipan.games.chinese_checkers.game import ChineseCheckers, ChineseCheckersState
from qipan.games.chinese_checkers.moves import PASS, Move

OPENSPIEL_OPTIONS: dict[str, Any] = {
    "jump": "adjacent", "chain": True, "other_corners": "allowed", "blocked_target": False,
    "play_on": False, "pieces": 10, "max_moves": 1000,
}
"""qipan's options for OpenSpiel's rules."""

PASS_ACTION = NUM_HOLES * 6
"""OpenSpiel's pass: it ends a hop chain (or passes a turn with no move at all)."""

DIRECTIONS = ((-1, -1), (-1, 1), (0, -2), (0, 2), (1, -1), (1, 1))
"""OpenSpiel's six directions as (row, doubled column) offsets: UL, UR, L, R, DL, DR."""

_FIRST = [sum(ROW_LENGTHS[:r]) for r in range(len(ROW_LENGTHS))]
COORDS: tuple[tuple[int, int], ...] = tuple(
    (ROW_OF[h], 12 - (ROW_LENGTHS[ROW_OF[h]] - 1) + 2 * (h - _FIRST[ROW_OF[h]])) for h in range(NUM_HOLES)
)
"""Every hole's OpenSpiel (row, doubled column)."""
_AT = {c: h for h, c in enumerate(COORDS)}


def neighbour(hole: int, direction: int, distance: int = 1) -> int | None:
    """The hole ``distance`` holes away in an OpenSpiel direction, None off the board."""
    dr, dc = DIRECTIONS[direction]
    r, c = COORDS[hole]
    return _AT.get((r + distance * dr, c + distance * dc))


def _direction(a: int, b: int) -> tuple[int, int]:
    """The direction and distance (1 step, 2 hop) from ``a`` to ``b``."""
    for d in range(6):
        for k in (1, 2):
            if neighbour(a, d, k) == b:
                return d, k
    raise ValueError(f"{NAMES[a]}-{NAMES[b]} is neither a step nor a hop")


def _can_continue(cells: Sequence[int], hole: int, visited: set[int]) -> bool:
    """OpenSpiel's HasContinuationHops: a hop over a piece to an empty, unvisited hole."""
    for d in range(6):
        over, land = neighbour(hole, d), neighbour(hole, d, 2)
        if over is not None and land is not None and cells[over] and not cells[land] and land not in visited:
            return True
    return False


def to_actions(game: ChineseCheckers, state: ChineseCheckersState, move: Move) -> list[int]:
    """OpenSpiel's actions for a legal qipan move: one per step or hop (the shortest chain),
    then 726 when the chain could go on (OpenSpiel ends a chain by itself when it cannot)."""
    if move == PASS:
        return [PASS_ACTION]
    path = [hole_index(name) for name in game.move_path(state, move)]
    actions = []
    for a, b in itertools.pairwise(path):
        d, k = _direction(a, b)
        if k == 1 and len(path) > 2:
            raise ValueError(f"{move}: a step inside a chain")
        actions.append(a * 6 + d)
    if _direction(path[0], path[1])[1] == 2:
        cells = list(state.board)
        cells[move.start], cells[move.end] = 0, cells[move.start]
        if _can_continue(cells, move.end, set(path)):
            actions.append(PASS_ACTION)
    return actions


def to_move(board: Sequence[int], actions: Sequence[int]) -> Move:
    """The qipan move of one OpenSpiel turn (its actions in order) from ``board`` (qipan's cells)."""
    if not actions or actions[0] == PASS_ACTION:
        return PASS
    start = hole = actions[0] // 6
    for action in actions:
        if action == PASS_ACTION:
            break
        source, d = divmod(action, 6)
        if source != hole:
            raise ValueError(f"action {action} does not continue from {NAMES[hole]}")
        step = neighbour(hole, d)
        if step is None:
            raise ValueError(f"action {action} leaves the board")
        if board[step] == 0 and hole == start and len(actions) == 1:
            return Move(start, step)
        landing = neighbour(hole, d, 2)
        if landing is None:
            raise ValueError(f"action {action} hops off the board")
        hole = landing
    return Move(start, hole)


def openspiel_moves(state: Any, limit: int = 200_000) -> tuple[set[tuple[int, int]], bool]:
    """Every (start, end) OpenSpiel allows from a turn's first action (each chain followed to its
    end or a pass), and whether the enumeration stopped at ``limit`` nodes."""
    player = state.current_player()
    found: set[tuple[int, int]] = set()
    count = 0
    stack = [(state, -1)]
    while stack:
        node, start = stack.pop()
        for action in node.legal_actions():
            count += 1
            if count > limit:
                return found, True
            if action == PASS_ACTION:
                if start >= 0:
                    found.add((start, _chain_end(node)))
                else:
                    found.add((-1, -1))
                continue
            child = node.clone()
            child.apply_action(action)
            origin = action // 6 if start < 0 else start
            if child.is_terminal() or child.current_player() != player:
                found.add((origin, _last_landing(node, action)))
            else:
                stack.append((child, origin))
    return found, False


def _chain_end(node: Any) -> int:
    text = str(node)
    return int(text.rsplit("hopping from ", 1)[1].rstrip(")"))


def _last_landing(node: Any, action: int) -> int:
    source, d = divmod(action, 6)
    step = neighbour(source, d)
    text = node.action_to_string(node.current_player(), action)
    if "->" in text:
        assert step is not None
        return step
    landing = neighbour(source, d, 2)
    assert landing is not None
    return landing


def _import_openspiel() -> Any:
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        sys.exit("OpenSpiel is not installed: pip install 'qipan[openspiel]' (or pip install open_spiel)")
    return pyspiel


def make_bot(pyspiel: Any, game: Any, player: int, kind: str, simulations: int, seed: int,
             implementation: str = "cpp", solve: bool = True) -> Any:
    """OpenSpiel's MCTS with random rollouts (UCT c = 2, as its examples, its solver on unless
    ``solve`` is false), in C++
    (``pyspiel.MCTSBot``, the default) or Python (``open_spiel.python.algorithms.mcts``, some
    15 times slower here), or its uniform random player (per action, as OpenSpiel's own random
    bot: each hop of a chain drawn anew)."""
    if kind == "random":
        return pyspiel.make_uniform_random_bot(player, seed)
    if implementation == "cpp":
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        return pyspiel.MCTSBot(game, evaluator, 2.0, simulations, 1000, solve, seed, False)
    import numpy as np
    from open_spiel.python.algorithms import mcts  # type: ignore[import-untyped,unused-ignore]

    rng = np.random.RandomState(seed)
    python_evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    return mcts.MCTSBot(game, 2.0, simulations, python_evaluator, solve=solve, random_state=rng)


def play(args: argparse.Namespace, index: int, stats: dict[str, Any]) -> float:
    """Play one game; A's outcome (1 win, 0.5 draw, 0 loss)."""
    pyspiel = _import_openspiel()
    n = args.players
    game = qipan.load("chinese-checkers", players=n, **OPENSPIEL_OPTIONS)
    assert isinstance(game, ChineseCheckers)
    os_game = pyspiel.load_game("chinese_checkers", {"players": n, "max_moves": 1000})
    seats = seating(index, n)
    seed = args.seed + index
    ours = {p: make_agent(game, args.level) for p in range(n) if seats[p] == "a"}
    bots = {p: make_bot(pyspiel, os_game, p, args.opponent, args.simulations, seed * 10 + p,
                            args.mcts, not args.no_solve)
            for p in range(n) if seats[p] == "b"}
    rngs = [random.Random(f"{seed}:{p}") for p in range(n)]
    state, os_state = game.initial_state(), os_game.new_initial_state()
    while state.turn is not None and not os_state.is_terminal():
        player = state.turn
        assert os_state.current_player() == player, "the engines disagree on who moves"
        legal = {(m.start, m.end) for m in game.legal_actions(state)}
        theirs, capped = openspiel_moves(os_state)
        stats["positions"] += 1
        stats["capped"] += capped
        if not capped and theirs != legal:
            stats["disagreements"] += 1
            print(f"  disagreement at ply {state.ply}: qipan only "
                  f"{sorted(map(str, (Move(*m) for m in legal - theirs)))}, OpenSpiel only "
                  f"{sorted(map(str, (Move(*m) for m in theirs - legal)))}", flush=True)
        t0 = time.perf_counter()
        if player in ours:
            move = ours[player].choose(game, game.view(state, player), rngs[player])
            for action in to_actions(game, state, move):
                os_state.apply_action(action)
            stats["a_time"] += time.perf_counter() - t0
            stats["a_moves"] += 1
        else:
            actions = []
            while not os_state.is_terminal() and os_state.current_player() == player:
                action = bots[player].step(os_state)
                actions.append(action)
                os_state.apply_action(action)
            move = to_move(state.board, actions)
            stats["b_time"] += time.perf_counter() - t0
            stats["b_moves"] += 1
        state = game.next_state(state, move)
        if args.verbose and state.ply % 20 == 0:
            print(f"  move {state.ply}: A {stats['a_time'] / max(stats['a_moves'], 1):.3f} s/move, "
                  f"B {stats['b_time'] / max(stats['b_moves'], 1):.3f} s/move"
                  + (f"; {targets(game, state, seats)}" if state.ply % 100 == 0 else ""), flush=True)
    returns = list(os_state.returns()) if os_state.is_terminal() else [0.0] * n
    if (state.turn is None) != os_state.is_terminal():
        stats["disagreements"] += 1
        print(f"  disagreement: game over in qipan {state.turn is None}, in OpenSpiel {os_state.is_terminal()}")
    if state.turn is None and game.returns(state) != tuple(1.0 if r > 0 else -1 / (n - 1) for r in returns) \
            and any(returns):
        stats["disagreements"] += 1
        print(f"  disagreement on the result: qipan {game.returns(state)}, OpenSpiel {returns}")
    result = outcome_for_a(seats, returns)
    report = draw_report(game, state, seats)
    if report:
        print(f"  drawn: {report}", flush=True)
    print(f"game {index + 1}: seats {''.join(seats)}, {game.result_text(state)} after {state.ply} moves, "
          f"A scores {result}", flush=True)
    return result


def targets(game: ChineseCheckers, state: ChineseCheckersState, seats: Sequence[str]) -> str:
    """Each seat's target: how many holes hold its own pieces and how many someone else's (the
    foreign pieces are the ones a player cannot finish past under OpenSpiel's rules), and where its
    last pieces outside stand when three or fewer are left."""
    parts = []
    for p, seat in enumerate(seats):
        target = game.target_holes(p)
        own = sum(state.board[h] == p + 1 for h in target)
        text = f"seat {p + 1} ({seat}) {own}/{len(target)} own"
        foreign = [NAMES[h] for h in target if state.board[h] not in (0, p + 1)]
        if foreign:
            text += f", foreign on {' '.join(foreign)}"
        outside = [NAMES[h] for h, owner in enumerate(state.board) if owner == p + 1 and h not in target]
        if 0 < len(outside) <= 3:
            text += f", last outside on {' '.join(outside)}"
        parts.append(text)
    return "; ".join(parts)


def draw_report(game: ChineseCheckers, state: ChineseCheckersState, seats: Sequence[str]) -> str | None:
    """For a game that ended with nobody finished (a draw at the move limit): :func:`targets`,
    to see who was stuck where; None when someone won."""
    return None if state.finished else targets(game, state, seats)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, choices=(2, 3, 4, 6), default=2)
    parser.add_argument("--level", default="hard", help="qipan's level (A)")
    parser.add_argument("--opponent", choices=("mcts", "random"), default="mcts", help="OpenSpiel's bot (B)")
    parser.add_argument("--simulations", type=int, default=1000, help="MCTS simulations per action")
    parser.add_argument("--mcts", choices=("cpp", "python"), default="cpp",
                        help="OpenSpiel's C++ MCTS bot (default) or its Python one")
    parser.add_argument("--no-solve", action="store_true",
                        help="MCTS without its solver (which proves that a piece leaving the other's target loses)")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--verbose", action="store_true", help="print progress every 20 moves")
    args = parser.parse_args(argv)
    _import_openspiel()
    stats: dict[str, Any] = dict.fromkeys(("positions", "capped", "disagreements", "a_moves", "b_moves"), 0)
    stats.update(a_time=0.0, b_time=0.0)
    outcomes: list[float] = []
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        for i in range(args.games):
            outcomes.append(play(args, i, stats))
    except KeyboardInterrupt:
        print(f"\ninterrupted: {len(outcomes)} games finished (seconds per move count the unfinished game too)")
        if not outcomes:
            return 1
    wins, draws = outcomes.count(1.0), outcomes.count(0.5)
    losses = len(outcomes) - wins - draws
    lo, hi = wilson(sum(outcomes), len(outcomes))
    b = "random" if args.opponent == "random" else \
        f"MCTS ({args.mcts}) {args.simulations}{', no solver' if args.no_solve else ''}"
    print(f"\n{args.players} players, qipan {args.level} (A) against OpenSpiel {b} (B), {len(outcomes)} games, "
          f"seed {args.seed}")
    print(f"A W-D-L {wins}-{draws}-{losses}, score {sum(outcomes) / len(outcomes):.0%} ({lo:.0%}–{hi:.0%}); "
          f"A {stats['a_time'] / max(stats['a_moves'], 1):.3f} s/move, "
          f"B {stats['b_time'] / max(stats['b_moves'], 1):.3f} s/move")
    print(f"legal moves cross-checked at {stats['positions']} positions: {stats['disagreements']} disagreements"
          + (f", {stats['capped']} too large to enumerate" if stats["capped"] else ""))
    return 1 if stats["disagreements"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
