"""What the lobby's live lists cost the server: building one ``/ws/lobby`` message (both lists)
with many games in memory. The lobby builds it at most once a second while anyone listens.

    python benchmarks/lobby_lists.py [--games 1000]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time

import qipan
from qipan.server.hub import Hub, seat_specs
from qipan.server.lobby import Lobby
from qipan.server.store import Store


async def main(games: int) -> None:
    folder = tempfile.mkdtemp()
    hub = Hub(Store(f"sqlite:///{folder}/lobby.db"), ai_processes=False)
    game = qipan.load("abalone")
    for i in range(games):  # half of them public, each with a free seat
        await hub.create(game, seat_specs(game, None), 0, "player", public=i % 2 == 0)
    lobby = Lobby(hub)
    rounds = 200
    start = time.perf_counter()
    for _ in range(rounds):
        message = lobby.message()
    took = (time.perf_counter() - start) / rounds
    print(f"{games} games in memory ({(games + 1) // 2} public and open): a lobby message of {len(message)} bytes "
          f"takes {took * 1000:.2f} ms to build")
    await hub.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    asyncio.run(main(parser.parse_args().games))
