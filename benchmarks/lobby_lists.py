"""What the lobby's live lists cost the server: building one ``/ws/lobby`` message (both lists)
with many games in memory, and its size. The lobby builds it at most once a second while anyone
listens, and sends it to everyone listening. Sheng-Ke games there carry two inline decks each,
which the lists name (name and digest) instead of sending (``qipan.server.lobby.listed``); the
size with the decks sent whole is printed too.

    python benchmarks/lobby_lists.py [--games 1000] [--shengke 50]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time

import qipan
from qipan.games.shengke.cards import deck_json, default_deck
from qipan.server.connections import dumps
from qipan.server.hub import Hub, seat_specs
from qipan.server.lobby import LOBBY_LIST, Lobby, in_play, is_open


def decks(i: int) -> dict[str, str]:
    """Two inline decks of a Sheng-Ke game, as a player's own decks are: named apart."""
    data = json.loads(deck_json(default_deck()))
    options = {}
    for seat in (0, 1):
        data["name"] = f"deck {i}-{seat}"
        options[f"deck_{seat}"] = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return options


async def main(games: int, shengke: int) -> None:
    from qipan.server.store import Store

    folder = tempfile.mkdtemp()
    hub = Hub(Store(f"sqlite:///{folder}/lobby.db"), ai_processes=False)
    abalone = qipan.load("abalone")
    for i in range(games):  # half of them public, each with a free seat
        await hub.create(abalone, seat_specs(abalone, None), 0, "player", public=i % 2 == 0)
    for i in range(shengke):  # public, a free seat, each player's own deck
        game = qipan.load("shengke", options=decks(i))
        await hub.create(game, seat_specs(game, None), 0, "player", public=True)
    lobby = Lobby(hub)
    rounds = 200
    start = time.perf_counter()
    for _ in range(rounds):
        message = await lobby.message()
    took = (time.perf_counter() - start) / rounds
    listed = sum(len(v) for k, v in json.loads(message).items() if k != "type")
    now = time.time()
    newest = sorted(hub.games.values(), key=lambda live: (-live.row.created, live.id))
    whole = dumps({"type": "lobby",
                   "open": [live.summary() for live in newest if is_open(live, now, hub.expiry.unstarted)][:LOBBY_LIST],
                   "playing": [live.summary() for live in newest if in_play(live, now)][:LOBBY_LIST]})
    print(f"{games} games in memory ({(games + 1) // 2} public and open) and {shengke} open Sheng-Ke games with "
          f"two inline decks each: a lobby message of {len(message.encode()):,} bytes "
          f"({len(message.encode()) / listed:,.0f} per listed game; {len(whole.encode()):,} bytes with the decks "
          f"sent whole, {len(whole.encode()) / listed:,.0f} per listed game) takes {took * 1000:.2f} ms to build")
    await hub.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--shengke", type=int, default=LOBBY_LIST)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.games, arguments.shengke))
