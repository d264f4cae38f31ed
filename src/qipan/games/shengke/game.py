"""生剋棋 Sheng-Ke: two players summon five-element spirit beasts onto a 5×5 field.

>>> import qipan
>>> game = qipan.load("shengke", first="0")
>>> state = game.initial_state()
>>> game.to_move(state) == qipan.CHANCE, game.legal_actions(state)  # the shuffle is not listable
(True, [])
>>> state = game.play(state, "shuffle " + "/".join([".".join(["12345"] * 5)] * 2))
>>> state = game.play(state, "roll 1-3")  # wood and earth: 甲 draws 青翼龍 and 黃趾龍
>>> game.legal_texts(state)[:2]
['wood1@a1', 'wood1@b1']
>>> state = game.play(state, "wood1@c3")
>>> game.play(state, "earth1@c4")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
qipan.core.errors.GameError: illegal move earth1@c4: c4 is orthogonally next to c3, placed this turn; ...
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from qipan.core.errors import GameError, brief, choices_text
from qipan.core.game import CHANCE, Game
from qipan.core.options import Option, Variant
from qipan.games.shengke.cards import DECK_SIZE, PER_ELEMENT, Card, Deck, deck_from_option, deck_json
from qipan.games.shengke.elements import (
    ANY,
    DICE,
    ELEMENTS,
    GENERATES,
    GLYPHS,
    NEIGHBOURS,
    OVERCOMES,
    RANGES,
    SIZE,
    cell_name,
    parse_cell,
    parse_element,
    parse_ranges,
    range_table,
    ranges_text,
)
from qipan.games.shengke.state import (
    COIN,
    DESTROYED,
    DESTROYS,
    DRAWS,
    EMPTY,
    OVER,
    PHASES,
    PICK,
    PLACE,
    PLAYER_NAMES,
    RECYCLES,
    ROLL,
    SHUFFLE,
    Action,
    Coin,
    Event,
    Pick,
    Place,
    Roll,
    Shuffle,
    State,
)

CELLS = SIZE * SIZE
ROLLS: tuple[Roll, ...] = tuple(Roll(a, b) for a in range(1, 7) for b in range(a, 7))
_SHUFFLE_RE = re.compile(r"^shuffle\s+([1-5]{5}(?:\.[1-5]{5}){4})/([1-5]{5}(?:\.[1-5]{5}){4})$")

Lists = list[list[int]]


class ShengKe(Game[State, Action]):
    """The game with its options fixed: ``turns``, ``first_bonus``, ``first``, ``deck_0``, ``deck_1``,
    ``ranges``."""

    name = "shengke"
    title = "生剋棋 Sheng-Ke"
    draws = True  # equal totals
    perfect_information = False
    variants = (Variant("standard", "the post's rules: 20 turns, +2 cards for the first player"),)
    options = (
        Option("turns", 20, "turns in the game (both players together; even)", minimum=2, maximum=50),
        Option("first_bonus", 2, "cards added to the first player's final count", minimum=0, maximum=25),
        Option("first", "random", "who goes first: random (a coin toss), 甲 or 乙",
               choices=("random", "0", "1"), seat=True),
        Option("deck_0", "default", "甲's deck: 'default' (the built-in deck), the deck as JSON text, or a "
               "deck file (TOML or JSON; not on the server)", local_file=True),
        Option("deck_1", "default", "乙's deck: 'default' (the built-in deck), the deck as JSON text, or a "
               "deck file (TOML or JSON; not on the server)", local_file=True),
        Option("ranges", ranges_text(RANGES), "the range table: ranges 1 to 8 separated by '/', each its cells "
               "as keypad digits around the card (5): 8 front, 2 back, 4 left, 6 right, 7 9 1 3 the diagonals"),
    )

    seat_options: ClassVar[Mapping[str, tuple[str, ...]]] = {"deck": ("deck_0", "deck_1")}  # each their own

    decks: tuple[Deck, Deck]

    def check_options(self, values: dict[str, Any], explicit: frozenset[str]) -> dict[str, Any]:
        if values["turns"] % 2:
            raise GameError(f"option turns: {values['turns']} is odd; both players need as many turns, "
                            "so choose an even number (the post plays 20)")
        decks = []
        for player in (0, 1):
            key = f"deck_{player}"
            try:
                deck = deck_from_option(values[key])
            except GameError as exc:
                raise GameError(f"option {key}: {exc}") from None
            decks.append(deck)
            # The deck itself, never a path: a record (options included) replays anywhere.
            values[key] = "default" if values[key].strip() in ("", "default") else deck_json(deck)
        self.decks = (decks[0], decks[1])
        try:
            values["ranges"] = ranges_text(parse_ranges("".join(values["ranges"].split())))
        except GameError as exc:
            raise GameError(f"option ranges: {exc}") from None
        self.range_cells = range_table(values["ranges"])
        cards = [c for d in self.decks for c in d.cards]
        self._cards: tuple[Card, ...] = tuple(cards)
        self.card_ids: tuple[dict[str, int], ...] = tuple(
            {c.id: i for i, c in enumerate(d.cards)} for d in self.decks
        )
        self._elem = self.card_elements = tuple(c.element for c in cards)
        self._in = tuple(c.range_in for c in cards)
        self._out = tuple(c.range_out for c in cards)
        return values

    @property
    def num_players(self) -> int:
        return 2

    def player_name(self, player: int) -> str:
        return PLAYER_NAMES[player]

    def card(self, key: int) -> Card:
        """The card with field key ``key`` (``owner * 25 + index``)."""
        return self._cards[key]

    # -- setup ---------------------------------------------------------------------------------

    def initial_state(self) -> State:
        first = self.config["first"]
        piles = tuple(d.piles for d in self.decks)
        return State(
            phase=COIN if first == "random" else SHUFFLE,
            first=EMPTY if first == "random" else int(first),
            turn=0, dice=(), picks=(), todo=(), placed=(),
            field=(EMPTY,) * CELLS,
            hands=((), ()), shown=((), ()),
            decks=(piles[0], piles[1]),
            known=((0,) * 5, (0,) * 5),
            discards=((), ()),
        )

    # -- the protocol ----------------------------------------------------------------------------

    def to_move(self, state: State) -> int | None:
        if state.phase in (PICK, PLACE):
            return state.current
        return None if state.phase == OVER else CHANCE

    def legal_actions(self, state: State) -> Sequence[Action]:
        phase = state.phase
        if phase == PLACE:
            return self._placements(state)
        if phase == PICK:
            return [Pick(e) for e in range(5)]
        if phase == ROLL:
            return list(ROLLS)
        if phase == COIN:
            return [Coin(0), Coin(1)]
        return []

    def chance_outcomes(self, state: State) -> list[tuple[Action, float]] | None:
        if state.phase == ROLL:
            return [(r, (1 if r.low == r.high else 2) / 36) for r in ROLLS]
        if state.phase == COIN:
            return [(Coin(0), 0.5), (Coin(1), 0.5)]
        return None

    def sample_chance(self, state: State, rng: random.Random) -> Action:
        if state.phase == SHUFFLE:
            orders = tuple(
                tuple(tuple(rng.sample(range(PER_ELEMENT), PER_ELEMENT)) for _ in range(5)) for _ in (0, 1)
            )
            return Shuffle(orders)
        if state.phase == ROLL:
            a, b = sorted((rng.randint(1, 6), rng.randint(1, 6)))
            return Roll(a, b)
        if state.phase == COIN:
            return Coin(rng.randrange(2))
        raise GameError(f"no chance event now: it is the {PHASES[state.phase]} phase")

    def is_legal(self, state: State, action: Action) -> bool:
        if state.phase == SHUFFLE:
            return isinstance(action, Shuffle) and _valid_orders(action.orders)
        return action in self.legal_actions(state)

    def explain_illegal(self, state: State, action: Action) -> str:
        phase = state.phase
        if phase == OVER:
            return "the game is over"
        expected = {COIN: Coin, SHUFFLE: Shuffle, ROLL: Roll, PICK: Pick, PLACE: Place}[phase]
        if not isinstance(action, expected):
            if phase in (COIN, SHUFFLE, ROLL) and isinstance(action, (Coin, Shuffle, Roll)):
                return {
                    COIN: "the coin toss comes first: 'coin jia' or 'coin yi'",
                    SHUFFLE: "the shuffle comes first: 'shuffle ' + 甲's five pile orders + '/' + 乙's "
                             "(e.g. shuffle 31524.12345.54321.24153.13542/12345.12345.12345.12345.12345)",
                    ROLL: "it is time to roll the dice: 'roll A-B' (two faces 1..6)",
                }[phase]
            if phase in (COIN, SHUFFLE, ROLL):
                return f"chance acts now (the {PHASES[phase]}), not a player"
            if phase == PICK:
                return f"{PLAYER_NAMES[state.current]} must first name the element of a 6: pick " + \
                    "|".join(ELEMENTS)
            return f"{PLAYER_NAMES[state.current]} must place a card now ({self._todo_text(state)})"
        if isinstance(action, Shuffle):
            return "each pile order must list the positions 1..5 once each"
        if isinstance(action, Place):
            return self._explain_place(state, action)
        return "it is not a legal move here"

    def _todo_text(self, state: State) -> str:
        return "the dice call for " + " and ".join(ELEMENTS[e] for e in state.todo)

    def _explain_place(self, state: State, action: Place) -> str:
        p = state.current
        if not 0 <= action.card < DECK_SIZE or not 0 <= action.cell < CELLS:
            return "no such card or cell"
        card = self.decks[p].cards[action.card]
        hand = state.hands[p]
        if action.card not in hand:
            held = ", ".join(self.decks[p].cards[i].id for i in hand) or "nothing"
            return f"{card.id} ({card.name}) is not in your hand; you hold {held}"
        if card.element not in state.todo:
            return f"{card.name} is {ELEMENTS[card.element]}, but {self._todo_text(state)}"
        occupant = state.field[action.cell]
        if occupant != EMPTY:
            return f"{cell_name(action.cell)} is occupied by {self._cards[occupant].name}"
        for cell in state.placed:
            if action.cell in NEIGHBOURS[cell]:
                return (f"{cell_name(action.cell)} is orthogonally next to {cell_name(cell)}, placed this "
                        "turn; the two cards of a turn may not touch")
        return ("that would leave your other die without a card or a legal cell; placing is compulsory, "
                "so place both cards when you can")

    def _placements(self, state: State) -> list[Place]:
        return [Place(card, cell) for card, cell in self._placement_pairs(state)]

    def _placement_pairs(self, state: State) -> list[tuple[int, int]]:
        """(card, cell) of every legal placement, in the order of :meth:`legal_actions`."""
        p = state.current
        offset = p * DECK_SIZE
        elem = self._elem
        field = state.field
        empty = [c for c in range(CELLS) if field[c] == EMPTY]
        todo = state.todo
        hand = state.hands[p]
        if state.placed:
            blocked: frozenset[int] = frozenset().union(*(NEIGHBOURS[c] for c in state.placed))
            empty = [c for c in empty if c not in blocked]
        moves = [(i, c) for i in hand if elem[offset + i] in todo for c in empty]
        if len(todo) == 2 and moves:
            # Compulsory placement: if both dice can be served, only first moves that allow it.
            full = []
            for card, cell in moves:
                other = list(todo)
                other.remove(elem[offset + card])
                if not any(i != card and elem[offset + i] == other[0] for i in hand):
                    continue
                around = NEIGHBOURS[cell]
                if any(c != cell and c not in around for c in empty):
                    full.append((card, cell))
            if full:
                return full
        return moves

    def next_state(self, state: State, action: Action) -> State:
        if isinstance(action, Place):
            return self._place(state, action)
        if isinstance(action, Roll):
            state = state._replace(dice=(action.low, action.high), picks=())
            if ANY in (DICE[action.low - 1], DICE[action.high - 1]):
                return state._replace(phase=PICK)
            return self._draw(state)
        if isinstance(action, Pick):
            state = state._replace(picks=(*state.picks, action.element))
            if len(state.picks) < sum(DICE[f - 1] == ANY for f in state.dice):
                return state
            return self._draw(state)
        if isinstance(action, Shuffle):
            decks = tuple(
                tuple(tuple(pile[i] for i in order) for pile, order in zip(self.decks[p].piles, action.orders[p],
                                                                            strict=True))
                for p in (0, 1)
            )
            return state._replace(phase=ROLL, decks=(decks[0], decks[1]))
        return state._replace(phase=SHUFFLE, first=action.first)

    def dice_elements(self, state: State) -> tuple[int, ...]:
        """The elements of this turn's dice (sixes replaced by the picks so far)."""
        fixed = [DICE[f - 1] for f in state.dice if DICE[f - 1] != ANY]
        return tuple(sorted([*fixed, *state.picks]))

    def _draw(self, state: State) -> State:
        elements = self.dice_elements(state)
        p = state.current
        hands: Lists = [list(h) for h in state.hands]
        shown: Lists = [list(s) for s in state.shown]
        decks = [[list(pile) for pile in d] for d in state.decks]
        known: Lists = [list(k) for k in state.known]
        for e in elements:
            _draw_one(p, e, hands, shown, decks, known)
        state = state._replace(phase=PLACE, todo=elements, placed=(), hands=_pair(hands), shown=_pair(shown),
                               decks=_decks(decks), known=_pair(known))
        return self._settle(state)

    def _place(self, state: State, action: Place) -> State:
        p = state.current
        key = p * DECK_SIZE + action.card
        todo = list(state.todo)
        todo.remove(self._elem[key])
        field = list(state.field)
        field[action.cell] = key
        hands = list(state.hands)
        hands[p] = tuple(i for i in hands[p] if i != action.card)
        shown = list(state.shown)
        shown[p] = tuple(i for i in shown[p] if i != action.card)
        state = state._replace(todo=tuple(todo), placed=(*state.placed, action.cell), field=tuple(field),
                               hands=_pair(hands), shown=_pair(shown))
        return self._settle(state)

    def _settle(self, state: State) -> State:
        """Finish the place phase when no placement is left: resolve, count, next turn."""
        if state.todo and self._placement_pairs(state):
            return state
        state = self.resolve(state)
        turn = state.turn + 1
        return state._replace(phase=OVER if turn >= self.config["turns"] else ROLL, turn=turn,
                              dice=(), picks=(), todo=(), placed=())

    # -- resolution -------------------------------------------------------------------------------

    def resolve(self, state: State) -> State:
        """Resolve the cards placed this turn, in order (行剋, 剋行, 行生, 生行 each), recording
        what happened in ``events`` (see :meth:`event_text`)."""
        p = state.current
        elem = self._elem
        field = list(state.field)
        hands: Lists = [list(h) for h in state.hands]
        shown: Lists = [list(s) for s in state.shown]
        decks = [[list(pile) for pile in d] for d in state.decks]
        known: Lists = [list(k) for k in state.known]
        discards: Lists = [list(d) for d in state.discards]
        events: list[Event] = []
        ranges = self.range_cells[p]
        for cell in state.placed:
            key = field[cell]
            if key == EMPTY or key // DECK_SIZE != p:
                continue  # destroyed by the other card placed this turn
            me = elem[key]
            out_cells = ranges[self._out[key]][cell]
            in_cells = ranges[self._in[key]][cell]
            # 1. 行剋: destroy every out-range card this card overcomes.
            for c in out_cells:
                other = field[c]
                if other != EMPTY and OVERCOMES[me] == elem[other]:
                    field[c] = EMPTY
                    discards[other // DECK_SIZE].append(other % DECK_SIZE)
                    events.append((DESTROYS, cell, key, c, other, EMPTY))
            # 2. 剋行: destroyed by any in-range card that overcomes it; then steps 3-4 are skipped.
            killer = next((c for c in in_cells if field[c] != EMPTY and OVERCOMES[elem[field[c]]] == me), None)
            if killer is not None:
                field[cell] = EMPTY
                discards[p].append(key % DECK_SIZE)
                events.append((DESTROYED, cell, key, killer, field[killer], EMPTY))
                continue
            # 3. 行生: per out-range card this card generates, recycle one card of its element.
            for c in out_cells:
                other = field[c]
                if other == EMPTY or GENERATES[me] != elem[other]:
                    continue
                target = elem[other]
                pile = discards[p]
                found = next((j for j in range(len(pile) - 1, -1, -1)
                              if elem[p * DECK_SIZE + pile[j]] == target), None)
                recycled = EMPTY
                if found is not None:
                    index = pile.pop(found)
                    decks[p][target].append(index)
                    known[p][target] += 1
                    recycled = p * DECK_SIZE + index
                events.append((RECYCLES, cell, key, c, other, recycled))
            # 4. 生行: per in-range card that generates this one, draw one card of this element.
            for c in in_cells:
                other = field[c]
                if other != EMPTY and GENERATES[elem[other]] == me:
                    drawn = _draw_one(p, me, hands, shown, decks, known)
                    events.append((DRAWS, cell, key, c, other, 0 if drawn is None else 1))
        return state._replace(field=tuple(field), hands=_pair(hands), shown=_pair(shown), decks=_decks(decks),
                              known=_pair(known), discards=_pair(discards), events=tuple(events))

    def event_text(self, event: Event) -> str:
        """A public sentence about one resolution event.

        >>> import qipan
        >>> game = qipan.load("shengke")
        >>> game.event_text((0, 12, 40, 18, 0, -1))
        '白牙龍 at c3: 行剋 destroys 青翼龍 at d4'
        """
        kind, cell, key, other_cell, other, extra = event
        cards = self._cards
        here = f"{cards[key].name} at {cell_name(cell)}"
        there = f"{cards[other].name} at {cell_name(other_cell)}"
        if kind == DESTROYS:
            return f"{here}: 行剋 destroys {there}"
        if kind == DESTROYED:
            return f"{here}: 剋行, destroyed by {there}"
        element = ELEMENTS[self._elem[other] if kind == RECYCLES else self._elem[key]]
        if kind == RECYCLES:
            if extra == EMPTY:
                return f"{here}: 行生 on {there}, but no {element} card is in the discard pile"
            return f"{here}: 行生 on {there} returns {cards[extra].name} to the bottom of the {element} deck"
        if extra:
            return f"{here}: 生行 from {there} draws a {element} card"
        return f"{here}: 生行 from {there}, but the {element} deck is empty"

    # -- scoring ----------------------------------------------------------------------------------

    def on_field(self, state: State) -> tuple[int, int]:
        """How many cards each player has on the field."""
        counts = [0, 0]
        for key in state.field:
            if key != EMPTY:
                counts[key // DECK_SIZE] += 1
        return counts[0], counts[1]

    def scores(self, state: State) -> tuple[int, int]:
        """Field counts with the first player's bonus (once the first player is known)."""
        counts = list(self.on_field(state))
        if state.first != EMPTY:
            counts[state.first] += self.config["first_bonus"]
        return counts[0], counts[1]

    def returns(self, state: State) -> tuple[float, ...]:
        if state.phase != OVER:
            return (0.0, 0.0)
        a, b = self.scores(state)
        return (0.0, 0.0) if a == b else ((1.0, -1.0) if a > b else (-1.0, 1.0))

    def result_text(self, state: State) -> str:
        a, b = self.scores(state)
        bonus = f" (with {PLAYER_NAMES[state.first]}'s +{self.config['first_bonus']})" if state.first != EMPTY else ""
        if a == b:
            return f"draw, {a}–{b}{bonus}"
        winner = 0 if a > b else 1
        return f"{PLAYER_NAMES[winner]} won {max(a, b)}–{min(a, b)}{bonus}"

    # -- notation ---------------------------------------------------------------------------------

    def action_text(self, state: State, action: Action) -> str:
        if isinstance(action, Place):
            p = state.current if state.first != EMPTY else 0
            if 0 <= action.card < DECK_SIZE and 0 <= action.cell < CELLS:
                return f"{self.decks[p].cards[action.card].id}@{cell_name(action.cell)}"
        return str(action)

    def parse_action(self, state: State, text: str) -> Action:
        raw = " ".join(text.strip().split())
        low = raw.lower()
        word, _, rest = low.partition(" ")
        if word == "roll":
            faces = re.findall(r"[1-6]", rest)
            if len(faces) != 2 or re.sub(r"[\s,\-]", "", rest) != "".join(faces):
                raise GameError(f"cannot read {brief(text)}: write a roll as 'roll 2-5' (two faces 1..6)")
            a, b = sorted(int(f) for f in faces)
            return Roll(a, b)
        if word == "pick":
            element = parse_element(rest)
            if element is None:
                raise GameError(f"cannot read {brief(text)}: write 'pick ELEMENT' with one of {', '.join(ELEMENTS)} "
                                f"(or {''.join(GLYPHS)})")
            return Pick(element)
        if word == "coin":
            names = {"jia": 0, "甲": 0, "0": 0, "yi": 1, "乙": 1, "1": 1}
            if rest not in names:
                raise GameError(f"cannot read {brief(text)}: write 'coin jia' or 'coin yi'")
            return Coin(names[rest])
        if word == "shuffle":
            match = _SHUFFLE_RE.match(low)
            if not match:
                raise GameError(
                    f"cannot read {brief(text)}: a shuffle is 'shuffle ' + 甲's five pile orders + '/' + 乙's, each "
                    "order five digits 1-5 (positions in the deck file, top first), piles wood.fire.earth."
                    "metal.water separated by '.'")
            orders = tuple(
                tuple(tuple(int(ch) - 1 for ch in group) for group in player.split("."))
                for player in match.groups()
            )
            return Shuffle(orders)
        return self._parse_place(state, raw)

    def _parse_place(self, state: State, raw: str) -> Place:
        parts = raw.replace("@", " ").split()
        hint = ("write a placement as CARD@CELL, e.g. wood1@c3 (card id or name, cell a1..e5); other moves: "
                "'pick ELEMENT', 'roll A-B', 'coin jia|yi', 'shuffle ...'")
        if len(parts) != 2:
            raise GameError(f"cannot read {brief(raw)}: {hint}")
        cell = parse_cell(parts[1])
        if cell is None:
            raise GameError(f"cannot read {brief(raw)}: {brief(parts[1], 40)} is not a cell a1..e5; {hint}")
        p = state.current if state.first != EMPTY else 0
        deck = self.decks[p]
        index = deck.index(parts[0])
        if index is None and sum(c.name == parts[0] for c in deck.cards) > 1:
            raise GameError(f"cannot read {brief(raw)}: two or more of {PLAYER_NAMES[p]}'s cards are named "
                            f"{brief(parts[0], 40)}; "
                            "write the card's id instead: "
                            f"{', '.join(c.id for c in deck.cards if c.name == parts[0])}")
        if index is None:
            raise GameError(f"cannot read {brief(raw)}: {PLAYER_NAMES[p]}'s deck has no card "
                            f"{brief(parts[0], 40)}; its cards: "
                            f"{choices_text(c.id for c in deck.cards)}")
        return Place(index, cell)

    def describe_action(self, state: State, action: Action) -> str:
        """A public log line (never names a card the opponent may not know)."""
        who = PLAYER_NAMES[state.current] if state.first != EMPTY else ""
        if isinstance(action, Shuffle):
            return "both players shuffle their element decks"
        if isinstance(action, Coin):
            return f"coin toss: {PLAYER_NAMES[action.first]} goes first"
        if isinstance(action, Roll):
            faces = []
            for f in (action.low, action.high):
                e = DICE[f - 1]
                faces.append(f"{f} ({'any element' if e == ANY else GLYPHS[e] + ' ' + ELEMENTS[e]})")
            line = f"{who} rolls {' and '.join(faces)}"
        elif isinstance(action, Pick):
            line = f"{who} picks {GLYPHS[action.element]} {ELEMENTS[action.element]} for a 6"
        else:
            return self._describe_place(state, action, who)
        if self.next_state(state, action).turn != state.turn:
            line += "; no card can be placed"
        return line

    def _describe_place(self, state: State, action: Place, who: str) -> str:
        card = self.decks[state.current].cards[action.card]
        line = f"{who} summons {card.label()} at {cell_name(action.cell)}"
        after = self._place(state, action)
        if after.turn != state.turn:
            # The turn's last placement: the resolution follows.
            line += "; " + ("; ".join(map(self.event_text, after.events)) or "nothing happens")
            a, b = self.on_field(after)
            line += f". On the field: 甲 {a}, 乙 {b}"
        return line

    # -- integer action ids -----------------------------------------------------------------------

    @property
    def num_distinct_actions(self) -> int:
        return 5 + DECK_SIZE * CELLS

    def action_id(self, state: State, action: Action) -> int:
        if isinstance(action, Pick):
            return action.element
        if isinstance(action, Place):
            return 5 + action.card * CELLS + action.cell
        raise GameError(f"{action} is a chance outcome; only decisions have integer ids")

    def legal_action_ids(self, state: State) -> list[int]:
        """The ids of :meth:`legal_actions`, in order, without building the actions."""
        if state.phase == PLACE:
            return [5 + card * CELLS + cell for card, cell in self._placement_pairs(state)]
        if state.phase == PICK:
            return list(range(5))
        return super().legal_action_ids(state)

    def action_from_id(self, state: State, action_id: int) -> Action:
        if not 0 <= action_id < self.num_distinct_actions:
            raise GameError(f"action id {action_id} is outside 0..{self.num_distinct_actions - 1}")
        if action_id < 5:
            return Pick(action_id)
        card, cell = divmod(action_id - 5, CELLS)
        return Place(card, cell)

    # -- JSON, views, sampling: see qipan.games.shengke.views --------------------------------------

    def state_to_json(self, state: State) -> dict[str, Any]:
        from qipan.games.shengke.views import state_to_json

        return state_to_json(self, state)

    def state_from_json(self, data: Any) -> State:
        from qipan.games.shengke.views import state_from_json

        return state_from_json(self, data)

    def view(self, state: State, player: int | None) -> dict[str, Any]:
        from qipan.games.shengke.views import view

        self.check_player(player)
        return view(self, state, player)

    def sample_state(self, view: Mapping[str, Any], rng: random.Random) -> State:
        from qipan.games.shengke.views import sample_state

        return sample_state(self, view, rng)


def _draw_one(p: int, element: int, hands: Lists, shown: Lists, decks: list[list[list[int]]],
              known: Lists) -> int | None:
    """Move the top card of ``p``'s ``element`` deck to the hand; None if the deck is empty."""
    pile = decks[p][element]
    if not pile:
        return None
    public = len(pile) <= known[p][element]
    card = pile.pop(0)
    known[p][element] = min(known[p][element], len(pile))
    hands[p].append(card)
    hands[p].sort()
    if public:
        shown[p].append(card)
        shown[p].sort()
    return card


def _pair(items: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return tuple(items[0]), tuple(items[1])


def _decks(decks: list[list[list[int]]]) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    return tuple(tuple(p) for p in decks[0]), tuple(tuple(p) for p in decks[1])


def _valid_orders(orders: object) -> bool:
    return (isinstance(orders, tuple) and len(orders) == 2
            and all(isinstance(o, tuple) and len(o) == 5
                    and all(isinstance(g, tuple) and sorted(g) == list(range(PER_ELEMENT)) for g in o)
                    for o in orders))
