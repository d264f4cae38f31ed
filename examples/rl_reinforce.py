"""Train a linear softmax policy with REINFORCE (numpy only) against a built-in AI level.

    python examples/rl_reinforce.py                      # Tellstones against random moves
    python examples/rl_reinforce.py --opponent easy --episodes 600

The learner sees only its PettingZoo observation (the encoded view) and the action mask; the
opponent is ``qipan.ai.make_agent(game, level)``, which sees only its own view. Seats alternate
between episodes. Rewards come at the end (+1/-1/0), episodes are truncated after ``--max-steps``
decisions (reward 0). Before and after training the script prints the learner's win rate.

Measured (seed 0, about 25 s): against ``random`` the win rate goes from 48% to 78% in 300
episodes; against ``easy`` (a forgetful memory model) from 2.5% to 6% in 600 — a
memoryless linear policy cannot track face-down stones.
"""

from __future__ import annotations

import argparse
import random
from typing import Any

import numpy as np
from numpy.typing import NDArray

import qipan.rl
from qipan.ai import make_agent
from qipan.rl.env import QipanEnv


class LinearPolicy:
    """logits[a] = W[a] · x + b[a] over the legal actions, x the flattened observation."""

    def __init__(self, num_actions: int, obs_size: int, rng: np.random.Generator):
        self.w = np.zeros((num_actions, obs_size + 1), dtype=np.float32)
        self.rng = rng

    def probabilities(self, x: NDArray[np.float32], legal: NDArray[np.intp]) -> NDArray[np.float64]:
        logits = self.w[legal] @ x
        logits = logits - logits.max()
        p = np.exp(logits.astype(np.float64))
        return p / p.sum()

    def act(self, obs: dict[str, Any], greedy: bool = False) -> tuple[int, tuple[Any, ...]]:
        x = np.append(obs["observation"].ravel(), np.float32(1.0))
        legal = np.flatnonzero(obs["action_mask"])
        p = self.probabilities(x, legal)
        choice = int(np.argmax(p)) if greedy else int(self.rng.choice(len(legal), p=p))
        return int(legal[choice]), (x, legal, choice, p)

    def update(self, trace: list[tuple[Any, ...]], advantage: float, lr: float) -> None:
        for x, legal, choice, p in trace:
            grad = -p
            grad[choice] += 1.0
            self.w[legal] += (lr * advantage * grad)[:, None].astype(np.float32) * x[None, :]


def play(env: QipanEnv, policy: LinearPolicy, level: str, seat: int, seed: int, greedy: bool,
         ) -> tuple[float, list[tuple[Any, ...]]]:
    """One episode against fresh ``level`` agents in the other seats: the learner's final
    reward and its decisions."""
    game = env.game
    learner = env.possible_agents[seat]
    opponents = {p: make_agent(game, level) for p in range(game.num_players) if p != seat}
    rng = random.Random(seed)
    env.reset(seed=seed)
    trace: list[tuple[Any, ...]] = []
    reward = 0.0
    for agent in env.agent_iter():
        obs, rew, terminated, truncated, _ = env.last()
        if terminated or truncated:
            if agent == learner:
                reward = float(rew)
            env.step(None)
            continue
        if agent == learner:
            action, record = policy.act(obs, greedy)
            trace.append(record)
        else:
            player = env.agent_index[agent]
            move = opponents[player].choose(game, game.view(env.game_state, player), rng)
            action = game.action_id(env.game_state, move)
        env.step(action)
        if env.agents:
            for player, opponent in opponents.items():
                opponent.observe(game, game.view(env.game_state, player))
    return reward, trace


def win_rate(env: QipanEnv, policy: LinearPolicy, level: str, games: int, seed: int) -> tuple[float, float]:
    results = [play(env, policy, level, i % env.game.num_players, seed + i, greedy=False)[0] for i in range(games)]
    return sum(r > 0 for r in results) / games, sum(r < 0 for r in results) / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="tellstones")
    parser.add_argument("--variant", default=None)
    parser.add_argument("--opponent", default="random", help="AI level: random, easy, ...")
    parser.add_argument("--episodes", type=int, default=300)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--max-steps", type=int, default=400)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    env = qipan.rl.env(args.game, args.variant, max_steps=args.max_steps)
    make_agent(env.game, args.opponent)  # an unknown level fails here, naming the choices
    obs_size = int(np.prod(env.encoder.shape))
    policy = LinearPolicy(env.game.num_distinct_actions, obs_size, np.random.default_rng(args.seed))

    won, lost = win_rate(env, policy, args.opponent, args.eval_games, seed=10**6)
    print(f"{args.game} vs {args.opponent}: untrained policy wins {won:.1%}, loses {lost:.1%}")
    baseline = 0.0
    for episode in range(args.episodes):
        seat = episode % env.game.num_players
        reward, trace = play(env, policy, args.opponent, seat, args.seed + episode, greedy=False)
        policy.update(trace, reward - baseline, args.lr)
        baseline += 0.05 * (reward - baseline)
        if (episode + 1) % max(1, args.episodes // 5) == 0:
            print(f"  episode {episode + 1}: running mean reward {baseline:+.2f}")
    won, lost = win_rate(env, policy, args.opponent, args.eval_games, seed=10**6)
    print(f"{args.game} vs {args.opponent}: trained policy wins {won:.1%}, loses {lost:.1%} "
          f"({args.eval_games} games, seats alternating)")


if __name__ == "__main__":
    main()
