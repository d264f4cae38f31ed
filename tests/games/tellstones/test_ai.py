"""The memory model and the memory-based AI levels."""

from __future__ import annotations

import random

import pytest

from qipan.ai.agent import agent_levels, make_agent
from qipan.games.tellstones import SYMBOLS, Tellstones
from qipan.games.tellstones.ai import LEVELS, PARAMS, MemoryAgent, evaluate, win_chance
from qipan.games.tellstones.game import State
from qipan.games.tellstones.memory import Memory, MemoryParams


def play_watched(game: Tellstones, moves: list[str], agent: MemoryAgent, seat: int) -> State:
    state = game.initial_state()
    for move in moves:
        state = game.play(state, move)
        agent.observe(game, game.view(state, seat))
    return state


def match(game: Tellstones, levels: tuple[str, str], seed: int) -> tuple[float, ...]:
    rng = random.Random(seed)
    agents = [MemoryAgent(PARAMS[levels[p % 2]], seed=seed + p) for p in range(game.num_players)]
    state = game.initial_state()
    while (mover := game.to_move(state)) is not None:
        if mover < 0:
            action = game.sample_chance(state, rng)
        else:
            action = agents[mover].choose(game, game.view(state, mover), rng)
        state = game.apply(state, action)  # checked: the agent only plays legal moves
        for p, agent in enumerate(agents):
            agent.observe(game, game.view(state, p))
    return game.returns(state)


def test_levels_are_memory_parameters() -> None:
    game = Tellstones()
    assert list(LEVELS) == ["easy", "medium", "hard", "perfect"]
    assert agent_levels(game) == ["random", "easy", "medium", "hard", "perfect"]
    forget = [PARAMS[name].forget for name in LEVELS]
    assert forget == sorted(forget, reverse=True) and forget[-1] == 0
    assert isinstance(make_agent(game, "hard"), MemoryAgent)


def test_perfect_memory_follows_hides_swaps_and_peeks() -> None:
    game = Tellstones()
    agent = MemoryAgent(PARAMS["perfect"])
    moves = ["place crown 3", "hide 3", "place sword 5", "hide 5", "swap 3 5", "swap 4 5",
             "place flag 6", "swap 3 6"]
    state = play_watched(game, moves, agent, 1)
    truth = {game.label(0, i): (SYMBOLS[-v - 1], 1.0)
             for i, v in enumerate(state.lines[0]) if v < 0}
    assert agent.memory.best_guess(game, game.view(state, 1)) == truth == {"4": ("crown", 1.0),
                                                                           "6": ("sword", 1.0)}
    state = game.play(state, "challenge 4")
    assert game.action_text(state, agent.choose(game, game.view(state, 1), random.Random(0))) == "name crown"


def test_perfect_memory_proves_a_doubted_boast() -> None:
    game = Tellstones()
    prover = MemoryAgent(PARAMS["perfect"])
    state = game.initial_state()
    for move in ["place crown 3", "hide 3", "place sword 5", "hide 5", "swap 3 5", "swap 4 5", "boast",
                 "doubt"]:
        state = game.play(state, move)
        prover.observe(game, game.view(state, 0))
    assert game.to_move(state) == 0  # seat 0 boasted, seat 1 doubted
    while game.to_move(state) is not None:
        state = game.apply(state, prover.choose(game, game.view(state, 0), random.Random(0)))
        prover.observe(game, game.view(state, 0))
    assert game.returns(state) == (1.0, -1.0)


def test_a_peek_is_remembered_only_by_the_looker() -> None:
    game = Tellstones()
    looker, other = MemoryAgent(PARAMS["perfect"]), MemoryAgent(PARAMS["perfect"])
    state = game.initial_state()
    moves = ["place crown 3", "hide 3", "place sword 5", "hide 5", "swap 3 5", "swap 3 5", "peek 3"]
    for move in moves[:-1]:
        state = game.play(state, move)
    # Neither watched the hides; only the peeker learns the stone on 3.
    state = game.play(state, moves[-1])
    looker.observe(game, game.view(state, 0))
    other.observe(game, game.view(state, 1))
    assert looker.memory.best_guess(game, game.view(state, 0)) == {"3": ("crown", 1.0)}
    assert other.memory.best_guess(game, game.view(state, 1)) == {}


def test_weaker_memories_forget_more() -> None:
    game = Tellstones()
    right = dict.fromkeys(PARAMS, 0)
    for seed in range(30):
        rng = random.Random(seed)
        memories = {name: Memory(PARAMS[name], random.Random(seed)) for name in PARAMS}
        state = game.initial_state()
        for move in ["place crown 3", "place sword 2", "place flag 5", "place knight 6", "hide 2",
                     "hide 3", "hide 4", "hide 5", "hide 6"]:
            state = game.play(state, move)
            for memory in memories.values():
                memory.observe(game, game.view(state, 0))
        for _ in range(20):  # random swaps, each name checked after each
            swaps = [a for a in game.legal_actions(state) if game.action_text(state, a).startswith("swap")]
            state = game.apply(state, rng.choice(swaps))
            view = game.view(state, 0)
            for name, memory in memories.items():
                memory.observe(game, view)
                for slot, (symbol, _) in memory.assignment(view).items():
                    right[name] += state.lines[0][slot[1]] == -symbol - 1
    assert right["perfect"] == 30 * 20 * 5
    assert right["easy"] < right["medium"] < right["hard"] < right["perfect"]


def test_agent_without_observe_still_plays_legal_moves() -> None:
    game = Tellstones(variant="two-lines", options={"turn_limit": 80})
    rng = random.Random(3)
    agents = [LEVELS["hard"](game), LEVELS["easy"](game)]
    state = game.initial_state()
    while (mover := game.to_move(state)) is not None:
        state = game.apply(state, agents[mover].choose(game, game.view(state, mover), rng))
    assert state.winner is not None


def test_memory_catches_up_after_missed_views() -> None:
    game = Tellstones()
    memory = Memory(MemoryParams.perfect())
    state = game.play(game.initial_state(), "place crown 3")
    memory.observe(game, game.view(state, 0))
    for move in ["hide 3", "swap 3 4"]:  # the hide is missed, the swap is the view's last action
        state = game.play(state, move)
    memory.observe(game, game.view(state, 0))
    # One missed action that showed (a stone turned face down) is known exactly.
    assert memory.best_guess(game, game.view(state, 0)) == {"4": ("crown", 1.0)}
    for move in ["place sword 5", "hide 5", "swap 4 5", "place flag 6"]:
        state = game.play(state, move)
        if move != "swap 4 5":  # a swap of two face-down stones, missed, leaves no trace
            memory.observe(game, game.view(state, 0))
    guess = memory.best_guess(game, game.view(state, 0))
    assert {k: v[0] for k, v in guess.items()} == {"4": "crown", "5": "sword"}  # out of date...
    assert all(confidence < 1 for _, confidence in guess.values())  # ...and it knows it may be


@pytest.mark.parametrize("variant", ["standard", "round-table", "two-lines"])
def test_every_level_finishes_games_with_legal_moves(variant: str) -> None:
    game = Tellstones(variant=variant, options={"first_player": "random", "turn_limit": 200})
    for seed, pair in enumerate([("easy", "medium"), ("hard", "perfect"), ("medium", "hard")]):
        assert sorted(match(game, pair, seed)) in ([-1.0] * 2 + [1.0] * 2, [-1.0, 1.0], [0.0] * 2,
                                                   [0.0] * 4)


def test_perfect_memory_beats_easy_memory() -> None:
    game = Tellstones(options={"first_player": "random", "turn_limit": 300})
    wins = sum(match(game, ("perfect", "easy") if g % 2 == 0 else ("easy", "perfect"), g)[g % 2] > 0
               for g in range(40))
    assert wins >= 32


def test_evaluation_is_the_score_race() -> None:
    game = Tellstones()
    state = game.initial_state()
    assert evaluate(game, state, 0) == 0.0
    assert win_chance(2, 1) == 0.75 and win_chance(3, 0) == 1.0 and win_chance(0, 3) == 0.0
    scored = game.play(game.play(game.play(game.play(state, "place crown 3"), "hide 3"), "boast"), "believe")
    assert evaluate(game, scored, 0) > 0 > evaluate(game, scored, 1)


def test_two_hard_agents_do_not_peek_for_ever() -> None:
    # With every stone face down, hard (a memory of 6 stones for a line of 7) is always unsure of
    # one stone and peeks at it; two of them peeked for ever: arena games 1-4 of seed 0 reached
    # the 1,000-move limit (8 of 40). After MemoryAgent.STALL turns of peeking they challenge or boast.
    from qipan.ai.arena import ArenaSpec, play_unsaved

    spec = ArenaSpec("tellstones", "hard", "hard", max_moves=1000)
    for index in range(4):
        result, _ = play_unsaved(spec, index)
        assert result.reason == "rules" and result.moves < 1000, index
