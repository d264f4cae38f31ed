"""Sheng-Ke as JSON: the full state, each player's view, and states sampled from a view.

A player's view holds their own hand, the field, both discard piles, every deck's size and its
public bottom cards (returned there by 行生), how many cards of each element each hand holds
(draws are public) and the hand cards both players saw drawn. Never a deck's order or the
opponent's other cards.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from qipan.core.errors import brief
from qipan.core.validate import Reader
from qipan.games.shengke.cards import DECK_SIZE, PER_ELEMENT
from qipan.games.shengke.elements import ANY, DICE, ELEMENTS, SIZE, cell_name, parse_cell
from qipan.games.shengke.state import (
    COIN,
    DRAWS,
    EMPTY,
    EVENT_KINDS,
    OVER,
    PHASES,
    PICK,
    PLACE,
    PLAYER_NAMES,
    RECYCLES,
    SHUFFLE,
    Event,
    State,
)

if TYPE_CHECKING:
    from qipan.games.shengke.game import ShengKe

CELLS = SIZE * SIZE


def _ids(game: ShengKe, player: int, cards: tuple[int, ...] | list[int]) -> list[str]:
    deck = game.decks[player]
    return [deck.cards[i].id for i in cards]


def _card(game: ShengKe, player: int, index: int) -> dict[str, Any]:
    data = game.decks[player].cards[index].to_json()
    data["owner"] = player
    return data


def _key_card(game: ShengKe, key: int) -> dict[str, Any]:
    return _card(game, key // DECK_SIZE, key % DECK_SIZE)


def event_to_json(game: ShengKe, event: Event) -> dict[str, Any]:
    """A resolution event as JSON (public information only)."""
    kind, cell, key, other_cell, other, extra = event
    data: dict[str, Any] = {
        "kind": EVENT_KINDS[kind], "cell": cell_name(cell), "card": _key_card(game, key),
        "other_cell": cell_name(other_cell), "other": _key_card(game, other),
        "text": game.event_text(event),
    }
    if kind == RECYCLES:
        data["recycled"] = None if extra == EMPTY else _key_card(game, extra)
    if kind == DRAWS:
        data["drew"] = bool(extra)
    return data


def state_to_json(game: ShengKe, state: State) -> dict[str, Any]:
    """Everything, hidden parts included (for records, debugging and tests)."""
    return {
        "phase": PHASES[state.phase],
        "first": None if state.first == EMPTY else state.first,
        "turn": state.turn,
        "dice": list(state.dice),
        "picks": [ELEMENTS[e] for e in state.picks],
        "todo": [ELEMENTS[e] for e in state.todo],
        "placed": [cell_name(c) for c in state.placed],
        "field": {
            cell_name(c): {"owner": k // DECK_SIZE, "id": game.card(k).id}
            for c, k in enumerate(state.field) if k != EMPTY
        },
        "players": [
            {
                "hand": _ids(game, p, state.hands[p]),
                "shown": _ids(game, p, state.shown[p]),
                "decks": {ELEMENTS[e]: _ids(game, p, state.decks[p][e]) for e in range(5)},
                "known": {ELEMENTS[e]: state.known[p][e] for e in range(5)},
                "discard": _ids(game, p, state.discards[p]),
            }
            for p in (0, 1)
        ],
        "events": [event_to_json(game, e) for e in state.events],
    }


_KINDS = {str: "a string", int: "an integer", list: "a list", dict: "a JSON object", bool: "true or false"}

MAX_EVENTS = 100
"""The most resolution events a state may list (one turn's two cards cause a dozen at most)."""


class _Reader(Reader):
    """Checked access to JSON data; every failure is a GameError naming the field."""

    def __init__(self, game: ShengKe, what: str):
        super().__init__(f"Sheng-Ke {what}")
        self.game = game
        self.ids = game.card_ids

    def get(self, data: Any, key: str, kind: type, longest: int = 25) -> Any:
        """Field ``key`` of the object ``data``, of type ``kind`` (a list: at most ``longest`` items)."""
        if type(data) is not dict or key not in data:  # JSON objects are dicts (and this is fast)
            raise self.fail(f"missing field {key!r}")
        value = data[key]
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            raise self.fail(f"field {key!r} must be {_KINDS[kind]}, not {brief(value, 40)}")
        if kind is list:
            self.array(value, key, longest=longest)
        return value

    def card(self, player: int, card_id: object) -> int:
        index = self.ids[player].get(card_id) if isinstance(card_id, str) else None
        if index is None:
            raise self.fail(f"{PLAYER_NAMES[player]}'s deck has no card {brief(card_id, 40)}")
        return index

    def cards(self, player: int, items: object) -> tuple[int, ...]:
        if not isinstance(items, list) or len(items) > DECK_SIZE:
            raise self.fail(f"a card list must be a JSON array of at most {DECK_SIZE} card ids")
        return tuple(self.card(player, i) for i in items)

    def card_dicts(self, player: int, data: Any, key: str) -> tuple[int, ...]:
        """Card indices from a view's list of card objects (each with an "id")."""
        items = self.get(data, key, list)
        if not all(type(c) is dict for c in items):
            raise self.fail(f"{key!r} must list card objects with an 'id'")
        return self.cards(player, [c.get("id") for c in items])

    def key(self, data: Any, field: str) -> int:
        entry = self.get(data, field, dict)
        owner = self.integer(self.get(entry, "owner", int), "card owner", 0, 1)
        return owner * DECK_SIZE + self.card(owner, entry.get("id"))

    def event(self, data: Any) -> Event:
        kind = self.choice(self.get(data, "kind", str), "event kind", EVENT_KINDS)
        extra = EMPTY
        if kind == RECYCLES:
            extra = EMPTY if data.get("recycled") is None else self.key(data, "recycled")
        elif kind == DRAWS:
            extra = int(self.get(data, "drew", bool))
        return (kind, self.cell(self.get(data, "cell", str)), self.key(data, "card"),
                self.cell(self.get(data, "other_cell", str)), self.key(data, "other"), extra)

    def element(self, name: object) -> int:
        return self.choice(name, "an element", ELEMENTS)

    def cell(self, name: object) -> int:
        cell = parse_cell(name) if isinstance(name, str) and len(name) < 10 else None
        if cell is None:
            raise self.fail(f"{brief(name, 40)} is not a cell a1..e5")
        return cell

    def common(self, data: Any) -> dict[str, Any]:
        """The public part shared by states and views."""
        phase = self.choice(self.get(data, "phase", str), "phase", PHASES)
        first = data.get("first") if type(data) is dict else None
        if first is not None:
            first = self.integer(first, "first (or null)", 0, 1)
        turn = self.integer(self.get(data, "turn", int), "turn", 0, self.game.config["turns"])
        dice = self.get(data, "dice", list, longest=2)
        if not all(isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= 6 for f in dice):
            raise self.fail("dice must be faces 1..6")
        field_data = self.get(data, "field", dict)
        field = [EMPTY] * CELLS
        for name in field_data:
            cell = self.cell(name)
            if field[cell] != EMPTY:
                raise self.fail(f"the field names {cell_name(cell)} twice")
            field[cell] = self.key(field_data, name)
        return {
            "phase": phase,
            "first": EMPTY if first is None else first,
            "turn": turn,
            "dice": tuple(sorted(dice)),
            "picks": tuple(self.element(e) for e in self.get(data, "picks", list, longest=2)),
            "todo": tuple(sorted(self.element(e) for e in self.get(data, "todo", list, longest=2))),
            "placed": tuple(self.cell(c) for c in self.get(data, "placed", list, longest=2)),
            "field": tuple(field),
            "events": tuple(self.event(e) for e in self.get(data, "events", list, longest=MAX_EVENTS)),
        }


def state_from_json(game: ShengKe, data: Any) -> State:
    """Rebuild and check a state from :func:`state_to_json` output."""
    reader = _Reader(game, "state")
    common = reader.common(data)
    players = reader.get(data, "players", list)
    if len(players) != 2:
        raise reader.fail("players must list two players")
    hands, shown, decks, known, discards = [], [], [], [], []
    for p, entry in enumerate(players):
        hands.append(tuple(sorted(reader.cards(p, reader.get(entry, "hand", list)))))
        shown.append(tuple(sorted(reader.cards(p, reader.get(entry, "shown", list)))))
        reader.distinct(shown[-1], f"{PLAYER_NAMES[p]}'s shown cards")
        deck_data = reader.get(entry, "decks", dict)
        known_data = reader.get(entry, "known", dict)
        decks.append(tuple(reader.cards(p, reader.get(deck_data, e, list)) for e in ELEMENTS))
        known.append(tuple(reader.integer(reader.get(known_data, e, int), "known", 0, PER_ELEMENT)
                           for e in ELEMENTS))
        discards.append(reader.cards(p, reader.get(entry, "discard", list)))
    state = State(hands=(hands[0], hands[1]), shown=(shown[0], shown[1]), decks=(decks[0], decks[1]),
                  known=(known[0], known[1]), discards=(discards[0], discards[1]), **common)
    problem = state_problem(game, state)
    if problem:
        raise reader.fail(problem)
    return state


def state_problem(game: ShengKe, state: State) -> str | None:
    """Why ``state`` cannot occur in a game, or None when it is well-formed."""
    turns = game.config["turns"]
    every = list(range(DECK_SIZE))
    elem = game.card_elements
    for p in (0, 1):
        places = list(state.hands[p])
        offset = p * DECK_SIZE
        for e, pile in enumerate(state.decks[p]):
            places += pile
            if any(elem[offset + i] != e for i in pile):
                return f"{PLAYER_NAMES[p]}'s {ELEMENTS[e]} deck holds a card of another element"
            if not 0 <= state.known[p][e] <= len(pile):
                return f"{PLAYER_NAMES[p]}'s {ELEMENTS[e]} deck has {len(pile)} cards, fewer than its known count"
        places += state.discards[p]
        places += [k - offset for k in state.field if k != EMPTY and k // DECK_SIZE == p]
        if sorted(places) != every:
            return f"{PLAYER_NAMES[p]}'s 25 cards must each be in exactly one place (hand, deck, field, discard)"
        if not set(state.shown[p]) <= set(state.hands[p]):
            return f"{PLAYER_NAMES[p]}'s shown cards must be in the hand"
    if state.phase in (COIN, SHUFFLE):  # nothing has happened yet
        initial = game.initial_state()._replace(phase=state.phase, first=state.first, events=())
        if state != initial or (state.phase == COIN) != (state.first == EMPTY):
            return "before the shuffle every card is in its deck in file order and the turn is 0"
        return None
    if state.first == EMPTY:
        return "first must be known after the coin toss"
    if not 0 <= state.turn <= turns or (state.turn == turns) != (state.phase == OVER):
        return f"turn {state.turn} does not fit phase {PHASES[state.phase]} in a {turns}-turn game"
    if state.phase in (PICK, PLACE):
        sixes = sum(DICE[f - 1] == ANY for f in state.dice)
        if len(state.dice) != 2 or len(state.picks) > sixes or (state.phase == PICK) != (len(state.picks) < sixes):
            return "two dice must be rolled and every 6 picked before placing"
    elif state.dice or state.picks:
        return "dice belong to the pick and place phases only"
    if state.phase == PLACE:
        todo = list(game.dice_elements(state))
        for cell in state.placed:
            key = state.field[cell]
            if key == EMPTY or key // DECK_SIZE != state.current or game.card(key).element not in todo:
                return f"{cell_name(cell)} must hold a card placed this turn by the player to move"
            todo.remove(game.card(key).element)
        if sorted(todo) != list(state.todo) or not state.todo or not game.legal_actions(state):
            return "the cards still to place do not fit the dice, or none can be placed"
    elif state.todo or state.placed:
        return "cards are only placed in the place phase"
    return None


def view(game: ShengKe, state: State, player: int | None) -> dict[str, Any]:
    """What ``player`` (None: a spectator) may know."""
    mover = game.to_move(state)
    counts = game.on_field(state)
    scores = game.scores(state)
    players = []
    for p in (0, 1):
        hand = state.hands[p]
        players.append({
            "name": PLAYER_NAMES[p],
            "hand": [_card(game, p, i) for i in hand] if p == player else None,
            "hand_size": len(hand),
            "hand_counts": {ELEMENTS[e]: sum(game.decks[p].cards[i].element == e for i in hand) for e in range(5)},
            "hand_known": [_card(game, p, i) for i in state.shown[p]],
            "decks": {
                ELEMENTS[e]: {
                    "size": len(pile),
                    "bottom": [_card(game, p, i) for i in pile[len(pile) - state.known[p][e]:]],
                }
                for e, pile in enumerate(state.decks[p])
            },
            "discard": [_card(game, p, i) for i in state.discards[p]],
            "on_field": counts[p],
            "score": scores[p],
        })
    data: dict[str, Any] = {
        "player": player,
        "to_move": "chance" if mover == -1 else mover,
        "phase": PHASES[state.phase],
        "turn": state.turn,
        "turns": game.config["turns"],
        "first": None if state.first == EMPTY else state.first,
        "first_bonus": game.config["first_bonus"],
        "current": state.current if state.first != EMPTY and state.phase != OVER else None,
        "dice": list(state.dice),
        "picks": [ELEMENTS[e] for e in state.picks],
        "todo": [ELEMENTS[e] for e in state.todo],
        "placed": [cell_name(c) for c in state.placed],
        "field": {
            cell_name(c): _card(game, k // DECK_SIZE, k % DECK_SIZE) for c, k in enumerate(state.field) if k != EMPTY
        },
        "players": players,
        "events": [event_to_json(game, e) for e in state.events],
        "legal": game.legal_texts(state) if player is not None and mover == player else [],
        "result": game.result_text(state) if state.phase == OVER else None,
    }
    return data


def sample_state(game: ShengKe, data: Mapping[str, Any], rng: random.Random) -> State:
    """A full state consistent with the view ``data``: hidden hand cards and deck orders are drawn
    at random from the cards the viewer cannot place."""
    reader = _Reader(game, "view")
    data = dict(data)
    common = reader.common(data)
    if common["phase"] in (COIN, SHUFFLE):  # nothing is hidden yet but the coming shuffle
        return game.initial_state()._replace(phase=common["phase"], first=common["first"], events=common["events"])
    viewer = data.get("player")
    players = reader.get(data, "players", list)
    if len(players) != 2:
        raise reader.fail("players must list two players")
    hands, shown, decks, known, discards = [], [], [], [], []
    field = common["field"]
    for p, entry in enumerate(players):
        cards = game.decks[p].cards
        hand_known = reader.card_dicts(p, entry, "hand_known")
        hand_data = entry.get("hand")
        own = viewer == p and hand_data is not None
        hand = list(reader.card_dicts(p, entry, "hand")) if own else list(hand_known)
        discard = reader.card_dicts(p, entry, "discard")
        deck_data = reader.get(entry, "decks", dict)
        counts = reader.get(entry, "hand_counts", dict)
        accounted = set(hand) | set(discard) | {k % DECK_SIZE for k in field if k != EMPTY and k // DECK_SIZE == p}
        piles, known_counts = [], []
        for e, name in enumerate(ELEMENTS):
            pile = reader.get(deck_data, name, dict)
            size = reader.get(pile, "size", int)
            bottom = list(reader.card_dicts(p, pile, "bottom"))
            accounted |= set(bottom)
            unknown = [i for i in range(DECK_SIZE) if cards[i].element == e and i not in accounted]
            in_hand = sum(cards[i].element == e for i in hand)
            hidden = 0 if own else reader.get(counts, name, int) - in_hand
            if hidden < 0 or len(unknown) != hidden + size - len(bottom) or len(bottom) > size:
                raise reader.fail(f"{PLAYER_NAMES[p]}'s {name} cards do not add up to {PER_ELEMENT}")
            rng.shuffle(unknown)
            hand.extend(unknown[:hidden])
            piles.append((*unknown[hidden:], *bottom))
            known_counts.append(len(bottom))
        hands.append(tuple(sorted(hand)))
        shown.append(tuple(sorted(hand_known)))
        decks.append(tuple(piles))
        known.append(tuple(known_counts))
        discards.append(discard)
    state = State(hands=(hands[0], hands[1]), shown=(shown[0], shown[1]), decks=(decks[0], decks[1]),
                  known=(known[0], known[1]), discards=(discards[0], discards[1]), **common)
    problem = state_problem(game, state)
    if problem:
        raise reader.fail(problem)
    return state
