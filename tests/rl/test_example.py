"""The example script runs end to end (tiny settings) and prints win rates."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rl_reinforce.py"


def test_example_trains_and_prints_win_rates() -> None:
    args = ["--episodes", "4", "--eval-games", "4", "--opponent", "easy"]
    out = subprocess.run([sys.executable, str(EXAMPLE), *args], capture_output=True, text=True, check=True).stdout
    assert "untrained policy wins" in out and "trained policy wins" in out
