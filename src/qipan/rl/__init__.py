"""PettingZoo environments for every qipan game (install with ``pip install qipan[rl]``).

>>> import qipan.rl
>>> env = qipan.rl.env("abalone", variant="belgian-daisy", max_steps=50)
>>> env.reset(seed=1)
>>> for agent in env.agent_iter():
...     obs, reward, terminated, truncated, info = env.last()
...     action = None if terminated or truncated else int(obs["action_mask"].nonzero()[0][0])
...     env.step(action)
>>> env.unwrapped.steps
50

See docs/rl.md for each game's observation planes, rewards and action ids.
"""

from __future__ import annotations

from typing import Any

try:
    import gymnasium  # noqa: F401
    import numpy  # noqa: F401
    import pettingzoo  # type: ignore[import-untyped,unused-ignore] # noqa: F401
except ModuleNotFoundError as exc:  # pragma: no cover - depends on the installation
    raise ModuleNotFoundError(
        f"qipan.rl needs {exc.name}, which is not installed: pip install 'qipan[rl]'", name=exc.name
    ) from exc

from qipan.core.registry import load
from qipan.rl.encoders import Encoder, encoded_games, make_encoder
from qipan.rl.env import QipanEnv


def env(
    name: str,
    variant: str | None = None,
    *,
    render_mode: str | None = None,
    max_steps: int | None = None,
    **options: Any,
) -> QipanEnv:
    """The AEC environment of game ``name`` with ``variant`` and game ``options``.

    ``render_mode`` is None, ``"ansi"`` (render returns text) or ``"human"`` (prints it after every
    step); ``max_steps`` truncates a game after that many decisions."""
    return QipanEnv(load(name, variant, options), render_mode=render_mode, max_steps=max_steps)


__all__ = ["Encoder", "QipanEnv", "encoded_games", "env", "make_encoder"]
