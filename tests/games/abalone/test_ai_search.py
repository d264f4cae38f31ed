"""The specialised Abalone searcher of the max level (qipan.games.abalone.search): its move
generation, tactics and evaluation on planted positions, its values against the generic
alpha-beta, and the max level itself."""

from __future__ import annotations

import random
from typing import Any

import pytest

import qipan
from qipan.ai import make_agent
from qipan.ai.search import WIN, AlphaBetaAgent
from qipan.core.game import Game
from qipan.games.abalone import search
from qipan.games.abalone.ai import MAX_SECONDS, _tactics, evaluate, order
from qipan.games.abalone.board import INDEX
from qipan.games.abalone.game import AbaloneState
from qipan.games.abalone.moves import generate
from qipan.games.abalone.search import HARD, MAX, AbaloneSearch, Terms, ejecting_moves, ordered_moves, tactics


def bits(names: str) -> int:
    return sum(1 << INDEX[name] for name in names.split())


def positions(count: int, seed: int, options: dict[str, Any] | None = None, *, eject: float = 0.0,
              longest: int = 160) -> tuple[Game[Any, Any], list[AbaloneState]]:
    """Positions of seeded random play (long games, so edges, pushes and lost marbles occur).
    With ``eject``, a push off the board is chosen with that chance whenever there is one."""
    game = qipan.load("abalone", options=options or {})
    rng = random.Random(seed)
    found: list[AbaloneState] = []
    while len(found) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(0, longest)):
            if game.to_move(state) is None:
                break
            moves = game.legal_actions(state)
            if eject:
                ejecting = ejecting_moves(*sides(state))
                if ejecting and rng.random() < eject:
                    moves = ejecting
            state = game.next_state(state, rng.choice(moves))
        if game.to_move(state) is not None:
            found.append(state)
    return game, found


def played(count: int, seed: int, options: dict[str, Any] | None = None) -> tuple[Game[Any, Any], list[AbaloneState]]:
    """Positions of seeded random play that prefers pushing marbles off, so positions with few
    marbles, wins one push away and quiet-move counts near the limit occur."""
    return positions(count, seed, options, eject=0.6, longest=200)


def sides(state: AbaloneState) -> tuple[int, int]:
    return (state.black, state.white) if state.turn == 0 else (state.white, state.black)


def test_ordered_moves_are_the_legal_moves_ejections_and_pushes_first() -> None:
    _, states = positions(60, 1)
    for state in states:
        own, opp = sides(state)
        moves = ordered_moves(own, opp)
        assert len(moves) == len(set(moves)) and set(moves) == set(generate(own, opp))
        kinds = [_kind(own, opp, m) for m in moves]
        assert kinds == sorted(kinds)  # ejecting pushes (0), other pushes (1), the rest (2)


def _kind(own: int, opp: int, move: Any) -> int:
    from qipan.games.abalone.moves import perform

    _, after_opp = perform(own, opp, move)
    if after_opp.bit_count() < opp.bit_count():
        return 0
    return 1 if after_opp != opp else 2


def test_tactics_and_ejecting_moves_agree_with_the_rules() -> None:
    _, states = positions(150, 2)
    for state in states:
        own, opp = sides(state)
        my_pushes, my_threats, their_pushes, their_threats, targets = tactics(own, opp)
        assert (my_pushes, my_threats) == _tactics(own, opp)
        assert (their_pushes, their_threats) == _tactics(opp, own)
        assert targets == search._targets(own, opp) - search._targets(opp, own)
        ejecting = {m for m in generate(own, opp) if _kind(own, opp, m) == 0}
        assert set(ejecting_moves(own, opp)) == ejecting
        assert len(ejecting) == my_threats


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_values_equal_the_generic_alpha_beta_with_hards_evaluation(depth: int) -> None:
    game, states = positions(8, 3 + depth, {"quiet_move_limit": 100})
    states.append(game.initial_state())
    for index, state in enumerate(states):
        generic = AlphaBetaAgent(evaluate, depth=depth, order=order)
        _, expected = generic.search(game, state, random.Random(index))
        special = AbaloneSearch(depth=depth, time_limit=None, terms=HARD, quiescence=False, null_move=False,
                                reductions=False, repetition_penalty=0)
        _, value = special.search(game, state, random.Random(index))
        assert value == pytest.approx(expected, abs=1e-6)


def test_hards_terms_give_hards_evaluation() -> None:
    game, states = positions(30, 4, {"quiet_move_limit": 100})
    for state in states:
        own, opp = sides(state)
        positional, _ = search.evaluate(own, opp, HARD)
        share = (100 - state.quiet) / 100
        value = HARD.material * share * (own.bit_count() - opp.bit_count()) + positional
        assert value == pytest.approx(evaluate(game, state, state.turn))


def test_the_side_to_move_owns_its_threat() -> None:
    # b2-c3 in line with a1 beyond: black (to move) can push a1 off right now
    own, opp = bits("b2 c3 e5 e6"), bits("a1 g7 g8 h8")
    with_move, threats = search.evaluate(own, opp)
    assert threats == 1
    plain, _ = search.evaluate(own, opp, MAX._replace(to_move_threat=0.0))
    assert with_move - plain == MAX.to_move_threat


def test_a_double_threat_against_the_side_to_move_costs_more() -> None:
    # white (not to move) has two ejecting pushes against black's a1 and a5
    black, white = bits("a1 a5 e5 e4 e6"), bits("b2 c3 b5 c5 i5 i9")
    assert tactics(black, white)[3] == 2
    value, _ = search.evaluate(black, white)
    without, _ = search.evaluate(black, white, MAX._replace(double_threat=0.0))
    assert without - value == MAX.double_threat


def test_a_side_ahead_is_paid_for_the_distance_of_the_others_group_from_the_centre() -> None:
    _, states = positions(80, 6)
    leads = set()
    for state in states:
        own, opp = sides(state)
        lead = own.bit_count() - opp.bit_count()
        leads.add((lead > 0) - (lead < 0))
        with_press, _ = search.evaluate(own, opp)
        without, _ = search.evaluate(own, opp, MAX._replace(press=0.0))
        pressed = opp if lead > 0 else own  # the group of the side behind
        assert with_press - without == pytest.approx(MAX.press * lead * search._centre(pressed))
        mirrored, _ = search.evaluate(opp, own)  # the side behind pays what the side ahead gains
        mirrored_without, _ = search.evaluate(opp, own, MAX._replace(press=0.0))
        assert mirrored - mirrored_without == pytest.approx(-(with_press - without))
    assert leads == {-1, 0, 1}


def test_edge_marbles_with_an_attacker_behind_are_targets() -> None:
    # black's b2 stands behind white's a1 on the line b2-a1 that leaves the board
    assert search._targets(bits("b2"), bits("a1")) == 1
    assert search._targets(bits("c3"), bits("a1")) == 0  # not right behind
    assert search._targets(bits("b2"), bits("e5")) == 0  # not on the edge
    value, _ = search.evaluate(bits("b2 e5"), bits("a1 e6"))
    without, _ = search.evaluate(bits("b2 e5"), bits("a1 e6"), MAX._replace(target=0.0))
    assert value - without == MAX.target


def test_quiescence_sees_the_capture_after_the_horizon() -> None:
    # Black to move; white's lines c3-b2 and c5-b5 threaten to push black's a1 and a5 off, and
    # black saves one at most: at depth 1 only the quiescence search sees white take the other.
    game = qipan.load("abalone")
    state = game.state_from_json({"black": ["a1", "a5", "e5", "e4", "e6", "d4", "f5", "f6", "d6"],
                                  "white": ["b2", "c3", "b5", "c5", "i6", "i7", "h6", "h7", "h8"], "turn": "black"})
    terms = Terms(extra=False)
    flat = AbaloneSearch(depth=1, time_limit=None, terms=terms, quiescence=False, repetition_penalty=0)
    deep = AbaloneSearch(depth=1, time_limit=None, terms=terms, quiescence=True, repetition_penalty=0)
    _, flat_value = flat.search(game, state)
    _, deep_value = deep.search(game, state)
    assert deep_value < flat_value - 500  # the marble white can take is counted as lost


def test_a_one_move_win_is_found() -> None:
    game = qipan.load("abalone")
    state = game.state_from_json({"black": ["b2", "c3", "e5", "e4", "e6", "d4", "d5", "f5", "f6"],
                                  "white": ["a1", "i5", "i6", "i7", "h6", "h7", "h8", "g7", "g6"], "turn": "black"})
    move, value = AbaloneSearch(depth=3, time_limit=None).search(game, state)
    assert game.action_text(state, move) == "c3b2" and value == WIN - 1


def test_multipv_leads_with_the_searchs_own_choice() -> None:
    game, states = positions(4, 6, {"quiet_move_limit": 100})
    for index, state in enumerate(states):
        move, value = AbaloneSearch(depth=3, time_limit=None).search(game, state, random.Random(index))
        lines = AbaloneSearch(depth=3, time_limit=None).multipv(game, state, lines=3, rng=random.Random(index))
        assert lines[0].move is move and lines[0].value == value
        assert [line.value for line in lines] == sorted((line.value for line in lines), reverse=True)
        for line in lines:  # every principal variation is a legal sequence
            after = state
            for step in line.pv:
                assert game.is_legal(after, step)
                after = game.next_state(after, step)


class StoppedClock:
    """Stands in for the ``time`` module: the time moves only when a test sets it."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        return self.now


def test_multipv_leaves_out_the_moves_it_has_no_time_for(monkeypatch: pytest.MonkeyPatch) -> None:
    game, (state, *_) = positions(1, 6, {"quiet_move_limit": 100})
    worst = game.legal_actions(state)[-1]

    def analyse() -> tuple[list[search.RootLine], int]:
        agent = AbaloneSearch(depth=3, time_limit=1.0)
        found = agent.multipv(game, state, lines=3, include=[worst], rng=random.Random(1))
        assert agent.stats.seconds == clock.now  # the lines' searches count in its time (started at 0)
        return found, agent.stats.nodes

    clock = StoppedClock()
    monkeypatch.setattr(search, "time", clock)
    in_time, all_nodes = analyse()
    deepen = AbaloneSearch._deepen

    def deepen_until_the_time_is_up(self: AbaloneSearch, *args: Any) -> Any:
        root = deepen(self, *args)
        clock.now = 10.0  # the deepening used the whole second
        return root

    monkeypatch.setattr(AbaloneSearch, "_deepen", deepen_until_the_time_is_up)
    late, late_nodes = analyse()
    assert late_nodes < all_nodes  # the moves beyond the first three were not searched
    assert late[0] == in_time[0] and len(late) >= 3  # the lines asked for are answered whatever the time
    assert any(line.move is worst for line in late)  # an included move is answered whatever the time


def test_max_plays_legal_moves_with_its_time_per_move() -> None:
    game = qipan.load("abalone", options={"quiet_move_limit": 100})
    agent = make_agent(game, "max")
    assert isinstance(agent, AbaloneSearch) and agent.time_limit == MAX_SECONDS == 1.0
    quick = make_agent(game, "max", 0.05)
    assert isinstance(quick, AbaloneSearch) and quick.time_limit == 0.05
    state = game.initial_state()
    rng = random.Random(7)
    for _ in range(6):
        move = quick.choose(game, game.view(state, state.turn), rng)
        assert game.is_legal(state, move) and quick.stats.depth >= 1
        state = game.next_state(state, move)


def test_min_depth_holds_until_a_time_limit_is_set_from_outside() -> None:
    game = qipan.load("abalone")
    state = game.initial_state()
    agent = AbaloneSearch(time_limit=1e-6, min_depth=3)
    agent.search(game, state)
    assert agent.stats.depth >= 3  # the time was up long before
    agent.time_limit = 1e-6  # a time per move or a clock: strict
    assert agent.min_depth == 1
    assert make_agent(game, "max").min_depth == 4  # type: ignore[attr-defined]
    assert make_agent(game, "max", 0.5).min_depth == 1  # type: ignore[attr-defined]


class CutShort(AbaloneSearch):
    """Its deepening's third iteration runs out of time after five root moves (a deeper
    iteration cut short, as under a time limit, but the same in every run)."""

    searched = 0

    def _child(self, own: int, opp: int, quiet: int, move: Any, depth: int, alpha: float, beta: float,
               ply: int) -> float:
        if ply == 0 and depth == 3 and self._deadline < float("inf"):
            self.searched += 1
            if self.searched > 5:
                raise search._Timeout
        return super()._child(own, opp, quiet, move, depth, alpha, beta, ply)


def test_multipv_lines_are_those_of_the_deepest_iteration_completed() -> None:
    game, states = positions(4, 6, {"quiet_move_limit": 100})
    for index, state in enumerate(states):
        whole = AbaloneSearch(depth=2, time_limit=None).multipv(game, state, lines=3, rng=random.Random(index))
        agent = CutShort(depth=3, time_limit=100.0)
        cut = agent.multipv(game, state, lines=3, rng=random.Random(index))
        assert agent.stats.depth == 2 and agent.searched > 5
        # the same moves, values and principal variations: the cut-short iteration changes none
        # (its table entries used to lengthen or change the lines, its best move to lead them)
        assert cut == whole
        assert [line.value for line in cut] == sorted((line.value for line in cut), reverse=True)


def test_a_single_legal_move_has_a_real_value(monkeypatch: pytest.MonkeyPatch) -> None:
    game, (state, *_) = positions(1, 6)
    own, opp = (state.black, state.white) if state.turn == 0 else (state.white, state.black)
    only = ordered_moves(own, opp)[0]
    monkeypatch.setattr(search, "ordered_moves", lambda own, opp: [only])  # one legal move at the root
    agent = AbaloneSearch(depth=3, time_limit=None)
    move, value = agent.search(game, state)
    assert move is only and agent.stats.depth == 0
    assert -WIN / 2 < value < WIN / 2  # the position after it, searched one ply: not minus infinity
    (line,) = AbaloneSearch(depth=3, time_limit=None).multipv(game, state, lines=3)
    assert line.move is only and line.value == value


def test_analysis_takes_out_the_press_its_search_counted() -> None:
    from qipan.ai.analysis import analyse

    # A value is linear in the press weight while the tree's choices stay the same, so the press a
    # line's value holds is press * dV/dpress; it is often scored after a capture beyond the line
    # shown (the quiescence search), where the lead differs from the line's end.
    game, states = played(40, 17)
    checked = moved = 0
    for state in states:
        raw, nudged = (AbaloneSearch(depth=3, time_limit=None, terms=MAX._replace(press=press)).multipv(
            game, state, lines=1, rng=random.Random(0))[0] for press in (MAX.press, MAX.press + 1.0))
        if (raw.move, raw.pv) != (nudged.move, nudged.pv) or abs(raw.value) > WIN / 2:
            continue  # another tree, or a forced result (no press in it)
        pressed = MAX.press * (nudged.value - raw.value)
        line = analyse(game, game.view(state, state.turn), lines=1, depth=3, level="max").lines[0]
        assert line.move == game.action_text(state, raw.move)
        assert line.evaluation.value == pytest.approx(raw.value - pressed, abs=1e-6)
        checked += 1
        at, end = state, state  # where the line's balance is read: the mover to move again
        for move in raw.pv:
            at = game.next_state(at, move)
            end = at if at.turn == state.turn else end
        own, opp = (end.black, end.white) if state.turn == 0 else (end.white, end.black)
        lead = own.bit_count() - opp.bit_count()
        at_end = MAX.press * lead * search._centre(opp if lead > 0 else own)
        moved += pressed != pytest.approx(at_end)  # the press is not that of the line's end
    assert checked >= 30 and moved >= 3
