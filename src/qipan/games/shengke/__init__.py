"""生剋棋 Sheng-Ke: the five-element card-placement game (see docs/games/shengke.md).

>>> import qipan
>>> game = qipan.load("shengke")
>>> game.title, game.num_players
('生剋棋 Sheng-Ke', 2)
"""

from qipan.games.shengke.cards import Card, Deck, deck_json, deck_problems, default_deck, inline_deck, load_deck
from qipan.games.shengke.game import ShengKe
from qipan.games.shengke.state import Coin, Pick, Place, Roll, Shuffle, State

__all__ = [
    "Card",
    "Coin",
    "Deck",
    "Pick",
    "Place",
    "Roll",
    "ShengKe",
    "Shuffle",
    "State",
    "deck_json",
    "deck_problems",
    "default_deck",
    "inline_deck",
    "load_deck",
]
