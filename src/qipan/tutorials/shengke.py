"""The Sheng-Ke (生剋棋) course: placing cards and the four resolutions of the generating and
overcoming cycles (docs/games/shengke.md). Every lesson uses the built-in deck and range table."""

from __future__ import annotations

from typing import Any

from qipan.tutorials.lesson import Course, Lesson, Step, Text

RULES = {
    "elements": Text("The five elements and the 生 and 剋 cycles", "五行與生、剋循環"),
    "ranges": Text("Cards: in and out numbers name ranges, read from the owner's side",
                   "卡牌：入、出數字代表範圍，由擁有者的方向看"),
    "range-table": Text("The range table is a game option", "範圍表是遊戲選項"),
    "setup": Text("Setup: the coin toss, the shuffle, 20 turns", "開局：擲硬幣、洗牌、共 20 回合"),
    "roll-draw": Text("Roll two dice and draw a card per die", "擲兩顆骰子，每顆骰子抽一張牌"),
    "draw-twice": Text("The same element twice draws two cards", "同一元素出現兩次就抽兩張"),
    "pick": Text("A 6 lets you pick the element", "擲出 6 可以自選元素"),
    "place": Text("Place a card per die, the two not side by side", "每顆骰子召喚一張牌，兩張不可相鄰"),
    "place-compulsory": Text("Placing is compulsory: no first card that leaves the second die nowhere",
                             "召喚是強制的：第一張牌不能讓第二顆骰子無處可放"),
    "overcome-out": Text("行剋: destroy the out-range cards this card overcomes", "行剋：摧毀出範圍內被此牌所剋的牌"),
    "discard-order": Text("Cards destroyed together by one 行剋 reach the discard pile in the range table's order",
                          "同一次行剋摧毀的多張牌，依範圍表的順序進入棄牌堆"),
    "overcome-in": Text("剋行: destroyed by an in-range card that overcomes it",
                        "剋行：入範圍內有剋此牌的牌時，此牌被摧毀"),
    "generate-out": Text("行生: a card back from the discard pile", "行生：從棄牌堆取回一張牌"),
    "generate-which": Text("行生 takes back the most recently discarded card of the element",
                           "行生取回該元素最近進入棄牌堆的那張牌"),
    "generate-in": Text("生行: draw a card", "生行：抽一張牌"),
    "nothing-left": Text("行生 with no card of the element discarded, or 生行 from an empty deck, gives nothing",
                         "棄牌堆沒有該元素的牌時行生取不回牌，牌堆空了時生行抽不到牌"),
    "one-per-card": Text("One draw or return per qualifying card", "每張符合條件的牌各抽一張或取回一張"),
    "own-cards": Text("Ranges hold either player's cards: your card may destroy, or be destroyed by, your own",
                      "範圍內的牌不分敵我：你的牌可能摧毀自己的牌，也可能被自己的牌摧毀"),
    "resolve-order": Text("The cards placed in a turn resolve in the order placed, each if still on the field",
                          "同一回合召喚的牌依召喚順序結算，仍在場上的才結算"),
    "destroyed-stops": Text("A card destroyed by 剋行 gets no 行生 or 生行", "被剋行摧毀的牌沒有行生與生行"),
    "end": Text("The end: cards on the field, and the first player's bonus", "結束：計算場上的牌，先手有加分"),
    "turns-bonus": Text("Options: the number of turns and the first player's bonus", "選項：回合數與先手加分"),
    "hidden": Text("Your hand is yours alone", "手牌只有自己看得到"),
}

ELEMENTS = ("wood", "fire", "earth", "metal", "water")
WATER = tuple(f"water{i}" for i in range(1, 6))
"""The learner's water cards: in the discard pile, so a die of water draws and places nothing."""
WOOD = tuple(f"wood{i}" for i in range(1, 6))


def table(hand: tuple[str, ...], field: dict[str, tuple[int, str]], dice: tuple[int, int], *,
          discard: tuple[str, ...] = (), turn: int = 0, first: int = 0, phase: str = "place") -> dict[str, Any]:
    """A state with 甲 (seat 0) to move after rolling ``dice``: ``field`` maps cells to (owner,
    card id); every card of the built-in deck not in a hand, on the field or discarded is in its
    deck, in id order."""
    used: list[set[str]] = [set(), set()]
    for owner, card in field.values():
        used[owner].add(card)
    used[0] |= set(hand) | set(discard)
    players = []
    for seat, (cards, discarded) in enumerate(((hand, discard), ((), ()))):
        decks = {e: [f"{e}{i}" for i in range(1, 6) if f"{e}{i}" not in used[seat]] for e in ELEMENTS}
        players.append({"hand": list(cards), "shown": [], "decks": decks, "known": dict.fromkeys(ELEMENTS, 0),
                        "discard": list(discarded)})
    todo = sorted((ELEMENTS[face - 1] for face in dice if face < 6), key=ELEMENTS.index) if phase == "place" else []
    return {"phase": phase, "first": first, "turn": turn, "dice": list(dice), "picks": [], "todo": todo,
            "placed": [], "field": {cell: {"owner": owner, "id": card} for cell, (owner, card) in field.items()},
            "players": players, "events": []}


def _field(game: Any, state: Any) -> dict[str, Any]:
    cells: dict[str, Any] = game.view(state, 0)["field"]
    return cells


def _mine(game: Any, state: Any) -> dict[str, Any]:
    me: dict[str, Any] = game.view(state, 0)["players"][0]
    return me


def _c4_destroyed(game: Any, before: Any, after: Any) -> bool:
    return "c4" in _field(game, before) and "c4" not in _field(game, after)


def _survived(game: Any, before: Any, after: Any) -> bool:
    return len(_field(game, after)) > len(_field(game, before))


def _returned(game: Any, before: Any, after: Any) -> bool:
    return len(_mine(game, after)["discard"]) < len(_mine(game, before)["discard"])


def _drew(game: Any, before: Any, after: Any) -> bool:
    return len(_mine(game, after)["hand"]) >= len(_mine(game, before)["hand"])


def _both_destroyed(game: Any, before: Any, after: Any) -> bool:
    return not {"b4", "c4"} & set(_field(game, after))


def _drew_two(game: Any, before: Any, after: Any) -> bool:
    """Whether two cards were drawn from the fire deck."""
    sizes = [_mine(game, state)["decks"]["fire"]["size"] for state in (before, after)]
    return bool(sizes[0] - sizes[1] == 2)


def _returned_two(game: Any, before: Any, after: Any) -> bool:
    return len(_mine(game, before)["discard"]) - len(_mine(game, after)["discard"]) == 2


def _won(game: Any, before: Any, after: Any) -> bool:
    return bool(game.to_move(after) is None and game.returns(after)[0] > 0)


def _placed_both(game: Any, before: Any, after: Any) -> bool:
    return not _mine(game, after)["hand"]


def _full_field() -> dict[str, tuple[int, str]]:
    """Every cell but a1, a2 and b1 taken: 甲's cards on rows 1 and 2 and on a3, b3, 乙's on the rest."""
    mine = [f"{e}{i}" for i in range(1, 6) for e in ELEMENTS if f"{e}{i}" not in ("wood5", "fire5")]
    theirs = [f"{e}{i}" for i in range(1, 6) for e in ELEMENTS]
    field = {}
    for cell in (f"{c}{r}" for r in range(1, 6) for c in "abcde"):
        if cell not in ("a1", "a2", "b1"):
            owner = 0 if cell[1] in "12" or cell in ("a3", "b3") else 1
            field[cell] = (owner, (mine if owner == 0 else theirs).pop(0))
    return field


FULL = _full_field()
FIRST_JIA = {"first": "0"}
BURNT = Text("There a fire card in 白牙龍's in-range (left and right) destroys it (剋行: fire overcomes metal): "
             "乙 would win 7–6.",
             "在那裡白牙龍的入範圍（左右）內有火牌，剋行會摧毀它（火剋金）：乙會以 7 比 6 獲勝。")

LESSONS = (
    Lesson(
        "place", Text("Summoning cards", "召喚"),
        Text("You are 甲, at the bottom of the 5×5 field. A coin toss decides who starts, your ten decks (five "
             "per player, one per element) are shuffled, and the game lasts 20 turns. Each turn you roll two "
             "dice (1 wood, 2 fire, 3 earth, 4 metal, 5 water, 6 any), draw the top card of each die's element "
             "into your hand, then place one card per die. Your hand is yours alone: the other player sees only "
             "how many cards of each element you hold.",
             "你是甲，坐在 5×5 場地的下方。擲硬幣決定誰先手，雙方各五疊（每種元素一疊）牌洗勻，整局 20 回合。"
             "每回合擲兩顆骰子（1 木、2 火、3 土、4 金、5 水、6 任選），每顆骰子從該元素的牌堆抽最上面一張到手上，"
             "再每顆骰子召喚一張牌。手牌只有你看得到：對手只知道你每種元素各有幾張。"),
        ("setup", "roll-draw", "place", "hidden"), "shengke",
        table(("wood2", "metal5"), {}, (1, 4)),
        (Step(Text("You rolled wood and metal and drew 青角麟 (wood2) and 白眼狼 (metal5). Place the wood card on c3 "
                   "(click it in your hand, then c3; or type wood2@c3).",
                   "你擲出木和金，抽到青角麟（wood2）和白眼狼（metal5）。把木牌放在 c3（點手上的牌，再點 c3；"
                   "或輸入 wood2@c3）。"),
              Text("青角麟 is on c3. The second card of the turn may not touch it side by side.",
                   "青角麟在 c3。本回合的第二張牌不能與它上下左右相鄰。"),
              Text("Place the wood card on c3.", "把木牌放在 c3。"), accept=("wood2@c3",)),
         Step(Text("Place the metal card diagonally next to c3 (c4 would touch it: try it).",
                   "把金牌放在 c3 的斜對角（c4 會相鄰：試試看）。"),
              Text("Both cards are placed; each resolves in turn (here nothing happens), and the turn passes to 乙.",
                   "兩張牌都召喚了；每張依序結算（這裡沒有發生任何事），輪到乙。"),
              Text("That cell is legal, but not diagonally next to c3.", "那一格合法，但不是 c3 的斜對角。"),
              accept=("metal5@b2", "metal5@d2", "metal5@b4", "metal5@d4"), refused=("metal5@c4",))),
        options=FIRST_JIA,
    ),
    Lesson(
        "draw-twice", Text("The same element twice", "同一元素兩次"),
        Text("Each die draws a card of its element, so the same element on both dice draws two cards of it. A 6 "
             "counts as the element you pick for it.",
             "每顆骰子抽一張該元素的牌，所以兩顆骰子同一元素就抽兩張。6 算作你為它選定的元素。"),
        ("draw-twice",), "shengke", table((), {}, (6, 3), phase="pick"),
        (Step(Text("You rolled a 6 and an earth (3). Pick earth for the 6.", "你擲出 6 和土（3）。把 6 選為土。"),
              Text("Earth twice: you drew two earth cards, 黃趾龍 and 黃甲龜, and will place both.",
                   "土出現兩次：你抽了兩張土牌，黃趾龍和黃甲龜，兩張都要召喚。"),
              Text("That draws one card of that element and one earth card: pick earth to draw two earth cards.",
                   "那樣會抽一張該元素的牌和一張土牌：選土才會抽兩張土牌。"),
              accept=("pick earth",)),),
        options=FIRST_JIA,
    ),
    Lesson(
        "compulsory", Text("Placing is compulsory", "召喚是強制的"),
        Text("You must place a card for each die whenever you can. Only a1, a2 and b1 are empty: a card on a1 "
             "would touch both others, leaving your second card nowhere to go, so a first placement there is "
             "illegal.",
             "只要能召喚，每顆骰子都必須召喚一張牌。只剩 a1、a2、b1 是空的：放在 a1 的牌會與另外兩格都相鄰，"
             "讓第二張牌無處可放，所以第一張不能放在那裡。"),
        ("place-compulsory",), "shengke", table(("wood5", "fire5"), FULL, (1, 2)),
        (Step(Text("Place the wood card 青爪虎 (wood5) first, where the fire card can still follow (try wood5@a1).",
                   "先召喚木牌青爪虎（wood5），放在火牌之後還能放的地方（試試 wood5@a1）。"),
              Text("The fire card still has a cell that does not touch it.", "火牌還有一格不與它相鄰。"),
              Text("Place the wood card first this time.", "這次請先召喚木牌。"),
              accept=("wood5@a2", "wood5@b1"), refused=("wood5@a1",)),
         Step(Text("Place the fire card 赤爪虎 (fire5) on the cell left.", "把火牌赤爪虎（fire5）放在剩下的那一格。"),
              Text("Both dice placed a card, as they must whenever they can.",
                   "兩顆骰子都召喚了牌，只要能放就必須放。"),
              Text("Place the fire card.", "召喚火牌。"), goal=_placed_both, example="fire5@b1")),
        options=FIRST_JIA,
    ),
    Lesson(
        "overcome-out", Text("行剋: destroying", "行剋：摧毀"),
        Text("Generating 生: wood → fire → earth → metal → water → wood. Overcoming 剋: wood → earth → water → "
             "fire → metal → wood. When a card is placed, every card in its out-range whose element it "
             "overcomes is destroyed (行剋). 白牙龍 (metal1) has out 7: left, right and the three cells in front. "
             "Your wood deck is empty, so the wood die gives nothing.",
             "生：木 → 火 → 土 → 金 → 水 → 木。剋：木 → 土 → 水 → 火 → 金 → 木。召喚一張牌時，"
             "出範圍內被它所剋的牌都會被摧毀（行剋）。白牙龍（metal1）的出是 7：左、右與前方三格。"
             "你的木牌堆已空，木骰子什麼也不給。"),
        ("elements", "pick", "overcome-out"), "shengke",
        table((), {"c4": (1, "wood1")}, (6, 1), discard=WOOD, phase="pick"),
        (Step(Text("You rolled a 6: it can be any element. Pick metal (metal overcomes wood).",
                   "你擲出 6：可以當作任何元素。選金（金剋木）。"),
              Text("You drew 白牙龍 (metal1).", "你抽到白牙龍（metal1）。"),
              Text("Pick metal this time: only metal overcomes 乙's wood card.", "這次請選金：只有金剋乙的木牌。"),
              accept=("pick metal",)),
         Step(Text("Place 白牙龍 so that 乙's wood card on c4 is in its out-range.",
                   "把白牙龍放在讓乙在 c4 的木牌落入其出範圍的位置。"),
              Text("行剋: metal overcomes wood, and 乙's 青翼龍 on c4 was destroyed, onto 乙's discard pile.",
                   "行剋：金剋木，乙在 c4 的青翼龍被摧毀，進入乙的棄牌堆。"),
              Text("From there c4 is not in 白牙龍's out-range (left, right, and the three cells in front).",
                   "從那裡 c4 不在白牙龍的出範圍內（左、右與前方三格）。"),
              goal=_c4_destroyed, example="metal1@c3")),
        options=FIRST_JIA,
    ),
    Lesson(
        "destroyed-together", Text("行剋: two at once", "行剋：一次兩張"),
        Text("One 行剋 may destroy several cards. They reach their owner's face-up discard pile in the order of the "
             "range table, cell by cell (for out 7: left, front-left, front, front-right, right), so the last "
             "one is on top. 乙 has two wood cards side by side, 青翼龍 on b4 and 青角麟 on c4; your 白牙龍 (metal1) "
             "has out 7.",
             "一次行剋可以摧毀好幾張牌。它們依範圍表的格子順序進入主人正面朝上的棄牌堆（出 7 的順序是：左、左前、"
             "前、右前、右），所以最後一張在最上面。乙有兩張並排的木牌，b4 的青翼龍和 c4 的青角麟；"
             "你的白牙龍（metal1）出是 7。"),
        ("discard-order",), "shengke",
        table(("metal1",), {"b4": (1, "wood1"), "c4": (1, "wood2")}, (4, 5), discard=WATER),
        (Step(Text("Place 白牙龍 where its 行剋 destroys both wood cards.",
                   "把白牙龍放在行剋能同時摧毀兩張木牌的位置。"),
              Text("Both destroyed, b4's first (it comes first in the range), then c4's: 青角麟 lies on top of 乙's "
                   "pile, and a 行生 of 乙's would take it back first.",
                   "兩張都被摧毀，b4 的先（它在範圍裡排在前面），再來是 c4 的：青角麟在乙的棄牌堆最上面，"
                   "乙的行生會先把它取回。"),
              Text("From there not both of them are in 白牙龍's out-range (left, right and the three cells in front).",
                   "從那裡兩張不會都在白牙龍的出範圍內（左、右與前方三格）。"),
              goal=_both_destroyed, example="metal1@c3"),),
        options=FIRST_JIA,
    ),
    Lesson(
        "overcome-in", Text("剋行: being destroyed", "剋行：被摧毀"),
        Text("A card placed with a card in its in-range whose element overcomes it is destroyed (剋行). Ranges are "
             "read from the card owner's side: \"front\" is towards the other player. 青尾狐 (wood4) has in 6: "
             "the three cells in front and the three behind. 乙's 白羽鶴 on c4 is metal, which overcomes wood. "
             "(What each number covers is the range table, a game option, ranges, which players may change; "
             "every lesson uses the default table.)",
             "召喚的牌若入範圍內有剋它的牌，就會被摧毀（剋行）。範圍從牌主人的方向看：「前」是朝向對手。"
             "青尾狐（wood4）的入是 6：前方三格與後方三格。乙在 c4 的白羽鶴是金，金剋木。"
             "（每個數字涵蓋哪些格子由範圍表決定，它是遊戲選項 ranges，玩家可以更改；所有課程都用預設的表。）"),
        ("overcome-in", "ranges", "range-table"), "shengke",
        table(("wood4",), {"c4": (1, "metal3")}, (1, 5), discard=WATER),
        (Step(Text("Place 青尾狐 where it survives: c4 must not be in front of it or behind it.",
                   "把青尾狐放在能存活的地方：c4 不能在它的前方或後方。"),
              Text("青尾狐 stays on the field: 白羽鶴 is not in its in-range.",
                   "青尾狐留在場上：白羽鶴不在它的入範圍內。"),
              Text("There c4 is in 青尾狐's in-range (the three cells in front and behind): 剋行 would destroy it.",
                   "在那裡 c4 會落入青尾狐的入範圍（前方三格與後方三格）：剋行會摧毀它。"),
              goal=_survived, example="wood4@a1"),),
        options=FIRST_JIA, told=("range-table",),
    ),
    Lesson(
        "generate-out", Text("行生: a card comes back", "行生：取回一張牌"),
        Text("When a placed card generates the element of a card in its out-range, its owner moves one card of "
             "that element from their discard pile to the bottom of that element's deck (行生). Wood generates "
             "fire; your 赤眼狼 (fire3) is on your discard pile. 青翼龍 (wood1) has out 3: left, right and front.",
             "召喚的牌若生出範圍內某張牌的元素，牌主人就把一張該元素的牌從棄牌堆移到該元素牌堆的底部（行生）。"
             "木生火；你的赤眼狼（fire3）在棄牌堆裡。青翼龍（wood1）的出是 3：左、右與前方。"),
        ("generate-out",), "shengke",
        table(("wood1",), {"c4": (1, "fire1")}, (1, 5), discard=(*WATER, "fire3")),
        (Step(Text("Place 青翼龍 so that 乙's fire card on c4 is in its out-range.",
                   "把青翼龍放在讓乙在 c4 的火牌落入其出範圍的位置。"),
              Text("行生: 赤眼狼 went from your discard pile to the bottom of your fire deck.",
                   "行生：赤眼狼從你的棄牌堆回到火牌堆底部。"),
              Text("From there c4 is not in 青翼龍's out-range (left, right and front).",
                   "從那裡 c4 不在青翼龍的出範圍內（左、右與前方）。"),
              goal=_returned, example="wood1@c3"),),
        options=FIRST_JIA,
    ),
    Lesson(
        "generate-which", Text("行生: which card comes back", "行生：取回哪一張"),
        Text("Your discard pile holds two fire cards: 赤眼狼 (fire3), discarded earlier, and 赤爪虎 (fire5), the most "
             "recent, nearer the top. 行生 takes back the most recently discarded card of the element.",
             "你的棄牌堆有兩張火牌：較早丟棄的赤眼狼（fire3）和最近丟棄、比較靠上的赤爪虎（fire5）。"
             "行生取回的是該元素最近丟棄的那張。"),
        ("generate-which",), "shengke",
        table(("wood1",), {"c4": (1, "fire1")}, (1, 5), discard=(*WATER, "fire3", "earth2", "fire5")),
        (Step(Text("Place 青翼龍 (wood1, out 3: left, right and front) so that 乙's fire card on c4 is in its "
                   "out-range.",
                   "把青翼龍（wood1，出 3：左、右與前方）放在讓乙在 c4 的火牌落入其出範圍的位置。"),
              Text("行生 moved 赤爪虎, the most recent fire card, to the bottom of your fire deck; 赤眼狼 stays on "
                   "your discard pile.",
                   "行生把最近丟棄的火牌赤爪虎移到火牌堆底部；赤眼狼仍留在棄牌堆。"),
              Text("From there c4 is not in 青翼龍's out-range (left, right and front).",
                   "從那裡 c4 不在青翼龍的出範圍內（左、右與前方）。"),
              goal=_returned, example="wood1@c3"),),
        options=FIRST_JIA,
    ),
    Lesson(
        "generate-in", Text("生行: drawing a card", "生行：抽牌"),
        Text("When a card in a placed card's in-range generates its element, the owner draws a card from the "
             "deck of the placed card's element (生行). Wood generates fire. 赤鬃獅 (fire2) has in 5: the four "
             "diagonal cells.",
             "召喚的牌若入範圍內有生它的牌，牌主人就從該牌元素的牌堆抽一張（生行）。木生火。"
             "赤鬃獅（fire2）的入是 5：四個斜角格。"),
        ("generate-in",), "shengke",
        table(("fire2",), {"c4": (1, "wood1")}, (2, 5), discard=WATER),
        (Step(Text("Place 赤鬃獅 diagonally next to 乙's wood card on c4.", "把赤鬃獅放在乙在 c4 的木牌的斜對角。"),
              Text("生行: wood generates fire, and you drew a fire card.", "生行：木生火，你抽了一張火牌。"),
              Text("From there c4 is not in 赤鬃獅's in-range (the four diagonal cells).",
                   "從那裡 c4 不在赤鬃獅的入範圍內（四個斜角格）。"),
              goal=_drew, example="fire2@b3"),),
        options=FIRST_JIA,
    ),
    Lesson(
        "two-draws", Text("生行 twice", "兩次生行"),
        Text("Each card that qualifies counts once: two generating cards in the in-range draw two cards, and two "
             "generated cards in the out-range return two. 赤鬃獅 (fire2) has in 5: the four diagonal cells. 乙 has "
             "two wood cards, on b4 and d4, and wood generates fire.",
             "每張符合條件的牌各算一次：入範圍內有兩張生它的牌就抽兩張，出範圍內有兩張被它生的牌就取回兩張。"
             "赤鬃獅（fire2）的入是 5：四個斜角格。乙在 b4 和 d4 各有一張木牌，木生火。"),
        ("one-per-card",), "shengke",
        table(("fire2",), {"b4": (1, "wood1"), "d4": (1, "wood2")}, (2, 5), discard=WATER),
        (Step(Text("Place 赤鬃獅 where both wood cards are diagonally next to it.",
                   "把赤鬃獅放在兩張木牌都在它斜角的位置。"),
              Text("生行 twice: one fire card for each wood card, two in all.",
                   "兩次生行：每張木牌各抽一張火牌，共兩張。"),
              Text("From there not both wood cards are on its diagonals: it would draw one card or none.",
                   "從那裡兩張木牌不會都在它的斜角：只會抽到一張或一張也沒有。"),
              goal=_drew_two, example="fire2@c3"),),
        options=FIRST_JIA,
    ),
    Lesson(
        "two-returns", Text("行生 twice", "兩次行生"),
        Text("Two generated cards in the out-range return two cards, one each, in the order of the range. 乙 has fire "
             "cards on b3 and d3. Your discard pile holds 赤眼狼 (fire3) and, discarded after it, 赤爪虎 (fire5). "
             "青翼龍 (wood1) has out 3: front, left, right.",
             "出範圍內有兩張被它生的牌，就各取回一張，共兩張，依範圍的順序。乙在 b3 和 d3 各有一張火牌。"
             "你的棄牌堆有赤眼狼（fire3），以及在它之後丟棄的赤爪虎（fire5）。青翼龍（wood1）的出是 3：前、左、右。"),
        ("one-per-card",), "shengke",
        table(("wood1",), {"b3": (1, "fire1"), "d3": (1, "fire2")}, (1, 5), discard=(*WATER, "fire3", "fire5")),
        (Step(Text("Place 青翼龍 where both fire cards are in its out-range.",
                   "把青翼龍放在兩張火牌都在它出範圍內的位置。"),
              Text("行生 twice: for b3 first (left comes before right in range 3) it took back 赤爪虎, the most "
                   "recent fire card, then for d3 赤眼狼. Both went to the bottom of your fire deck in that order: "
                   "赤眼狼 is the very last card, 赤爪虎 just above it.",
                   "兩次行生：先為 b3（範圍 3 裡左在右之前）取回最近丟棄的火牌赤爪虎，再為 d3 取回赤眼狼。"
                   "兩張依這個順序放到火牌堆底部：赤眼狼在最底，赤爪虎在它上面。"),
              Text("From there not both fire cards are in its out-range (front, left and right).",
                   "從那裡兩張火牌不會都在它的出範圍內（前、左、右）。"),
              goal=_returned_two, example="wood1@c3"),),
        options=FIRST_JIA,
    ),
    Lesson(
        "nothing-left", Text("Nothing to take back, nothing to draw", "無牌可取，無牌可抽"),
        Text("行生 takes back a card of the element from your discard pile, and 生行 draws from your deck of the "
             "card's own element; when there is none, nothing happens and the game goes on. Your discard pile holds no "
             "fire card, and your wood deck is empty (your other wood cards are discarded). 青翼龍 (wood1) has in 4 "
             "(front, back, left, right) and out 3 (front, left, right).",
             "行生從你的棄牌堆取回該元素的一張牌，生行從你這張牌本身元素的牌堆抽牌；沒有牌時什麼也不發生，"
             "棋局照常進行。你的棄牌堆沒有火牌，你的木牌堆也空了（其他木牌都在棄牌堆）。青翼龍（wood1）的入是 4"
             "（前、後、左、右），出是 3（前、左、右）。"),
        ("nothing-left",), "shengke",
        table(("wood1",), {"c4": (1, "fire1"), "c2": (1, "water1")}, (1, 5),
              discard=(*WATER, "wood2", "wood3", "wood4", "wood5")),
        (Step(Text("Place 青翼龍 on c3: 乙's fire card in front of it (wood generates fire: 行生), 乙's water card "
                   "behind it (water generates wood: 生行).",
                   "把青翼龍放在 c3：乙的火牌在它前方（木生火：行生），乙的水牌在它後方（水生木：生行）。"),
              Text("Both happened, and gave nothing: 行生 found no fire card in your discard pile, and 生行 found your "
                   "wood deck empty. Your hand and discard pile are as they were.",
                   "兩者都發生了，卻什麼也沒得到：行生在你的棄牌堆找不到火牌，生行遇到空的木牌堆。"
                   "你的手牌和棄牌堆都沒有變。"),
              Text("Place 青翼龍 on c3, between the two: the fire card in front of it, the water card behind.",
                   "把青翼龍放在 c3，兩張牌之間：火牌在它前方，水牌在它後方。"),
              accept=("wood1@c3",)),),
        options=FIRST_JIA,
    ),
    Lesson(
        "resolve-order", Text("The order you place them", "召喚的順序"),
        Text("The two cards of a turn resolve one after the other, in the order you placed them, and a card only "
             "if it is still on the field. 青尾狐 (wood4, in 6: the three cells in front and the three behind, out "
             "2: left and right) would destroy 乙's two earth cards from c3, but 乙's metal card on c4 would be in "
             "front of it. Your 赤眼狼 (fire3, out 6: the three cells in front and the three behind) can destroy "
             "that metal card: fire overcomes metal.",
             "同一回合的兩張牌依你召喚的順序逐一結算，而且只有仍在場上的牌才結算。青尾狐（wood4，入 6：前方三格與"
             "後方三格；出 2：左右）放在 c3 可以摧毀乙的兩張土牌，但乙在 c4 的金牌會在它正前方。你的赤眼狼"
             "（fire3，出 6：前方三格與後方三格）可以摧毀那張金牌：火剋金。"),
        ("resolve-order",), "shengke",
        table(("wood4", "fire3"), {"c4": (1, "metal3"), "b3": (1, "earth1"), "d3": (1, "earth2")}, (1, 2),
              discard=WATER),
        (Step(Text("Place the fire card first, on row 5, where the metal card on c4 is in its out-range.",
                   "先召喚火牌，放在第 5 列，讓 c4 的金牌落入它的出範圍。"),
              Text("赤眼狼 is placed first, so it will resolve first.", "赤眼狼先召喚，所以會先結算。"),
              Text("Place the fire card first, on row 5 within reach of c4.",
                   "先召喚火牌，放在第 5 列能碰到 c4 的位置。"),
              accept=("fire3@b5", "fire3@c5", "fire3@d5"),
              why={"wood4@c3": Text("Placed first, 青尾狐 would resolve first, while 乙's metal card still stands in "
                                    "front of it: it would destroy the earth cards, then 剋行 would destroy it.",
                                    "先召喚的話，青尾狐會先結算，而乙的金牌還在它正前方：它會摧毀兩張土牌，"
                                    "接著被剋行摧毀。")}),
         Step(Text("Now 青尾狐 on c3.", "現在把青尾狐放在 c3。"),
              Text("赤眼狼 resolved first and destroyed the metal card; then 青尾狐 destroyed both earth cards and, "
                   "with nothing in its in-range overcoming it any more, stays.",
                   "赤眼狼先結算，摧毀了金牌；接著青尾狐摧毀兩張土牌，入範圍內已沒有剋它的牌，所以留在場上。"),
              Text("Place 青尾狐 on c3, between the two earth cards.", "把青尾狐放在 c3，兩張土牌之間。"),
              accept=("wood4@c3",))),
        options=FIRST_JIA,
    ),
    Lesson(
        "own-cards", Text("Your own cards are in range too", "自己的牌也在範圍內"),
        Text("A range holds every card on its cells, yours included: your 行剋 can destroy your own card, and your "
             "own card can destroy yours by 剋行. 白牙龍 (metal1, out 7: left, front-left, front, front-right, right) "
             "overcomes wood. 青鱗蛇 (wood3, out 4: front, back, left, right) would destroy 乙's earth card 黃角麟 on "
             "d4 from d3: wood overcomes earth.",
             "範圍內的每一張牌都算，包括你自己的：你的行剋可以摧毀自己的牌，你自己的牌也可以用剋行摧毀你的牌。"
             "白牙龍（metal1，出 7：左、左前、前、右前、右）剋木。青鱗蛇（wood3，出 4：前、後、左、右）"
             "放在 d3 可以摧毀乙在 d4 的土牌黃角麟：木剋土。"),
        ("own-cards", "resolve-order"), "shengke",
        table(("metal1", "wood3"), {"d4": (1, "earth3")}, (4, 1), discard=WATER),
        (Step(Text("Place 白牙龍 first, on c2.", "先召喚白牙龍，放在 c2。"),
              Text("白牙龍 is placed first, so it will resolve first.", "白牙龍先召喚，所以會先結算。"),
              Text("Place 白牙龍 on c2 first.", "先把白牙龍放在 c2。"),
              accept=("metal1@c2",),
              why={"wood3@d3": Text("Placed first, 青鱗蛇 would resolve first and destroy 黃角麟. This lesson shows "
                                    "the other order: place 白牙龍 on c2 first.",
                                    "先召喚的話，青鱗蛇會先結算並摧毀黃角麟。"
                                    "本課要看另一個順序：先把白牙龍放在 c2。")}),
         Step(Text("Now 青鱗蛇 on d3, diagonally in front of 白牙龍, with 黃角麟 in front of it.",
                   "現在把青鱗蛇放在 d3，白牙龍的斜前方，黃角麟就在它正前方。"),
              Text("白牙龍 resolved first: d3 is front-right of c2, in its out-range, so its 行剋 destroyed your own "
                   "青鱗蛇 (metal overcomes wood). 青鱗蛇 was no longer on the field when its turn came, so it did "
                   "nothing: 黃角麟 still stands.",
                   "白牙龍先結算：d3 是 c2 的右前方，在它的出範圍內，所以它的行剋摧毀了你自己的青鱗蛇（金剋木）。"
                   "輪到青鱗蛇結算時它已不在場上，所以什麼也沒發生：黃角麟還在。"),
              Text("Place 青鱗蛇 on d3.", "把青鱗蛇放在 d3。"),
              accept=("wood3@d3",))),
        options=FIRST_JIA,
    ),
    Lesson(
        "destroy-and-destroyed", Text("Destroying, and destroyed", "摧毀與被摧毀"),
        Text("A card resolves 行剋, then 剋行, then 行生 and 生行. If 剋行 destroys it, it does not go on: no 行生 "
             "and no 生行, even after it has destroyed its own targets. 白牙龍 (metal1) has in 2 (left and right) "
             "and out 7 (left, right and the three cells in front). Around c3: 乙's wood card in front on c4, a "
             "fire card on the left (fire overcomes metal) and an earth card on the right (earth generates metal).",
             "每張牌依序結算行剋、剋行、行生、生行。若被剋行摧毀，就不再繼續：沒有行生，也沒有生行，"
             "即使它已先摧毀了自己的目標。白牙龍（metal1）的入是 2（左右），出是 7（左、右與前方三格）。"
             "c3 周圍：前方 c4 是乙的木牌，左邊是火牌（火剋金），右邊是土牌（土生金）。"),
        ("destroyed-stops",), "shengke",
        table(("metal1",), {"c4": (1, "wood1"), "b3": (1, "fire1"), "d3": (1, "earth1")}, (4, 5), discard=WATER),
        (Step(Text("Place 白牙龍 on c3.", "把白牙龍放在 c3。"),
              Text("行剋 destroyed 乙's wood card on c4, then 剋行 destroyed 白牙龍 (the fire card on its left): it "
                   "drew nothing, though the earth card on its right generates metal.",
                   "行剋摧毀了乙在 c4 的木牌，接著剋行摧毀了白牙龍（左邊的火牌）："
                   "雖然右邊的土牌生金，它什麼也沒抽到。"),
              Text("Place it on c3, between the fire and the earth cards.", "把它放在 c3，火牌與土牌之間。"),
              accept=("metal1@c3",)),),
        options=FIRST_JIA,
    ),
    Lesson(
        "end", Text("The last turn", "最後一回合"),
        Text("After 20 turns each player counts their cards on the field, and the first player adds 2. 乙 went "
             "first: 乙 has 5 cards + 2, you have 6. This is the last placement of the game. (Both numbers are "
             "game options: turns, an even number from 2 to 50, and first_bonus, from 0 to 25.)",
             "20 回合後，雙方計算自己在場上的牌，先手再加 2。乙是先手：乙有 5 張 + 2，你有 6 張。"
             "這是全局最後一次召喚。（這兩個數字都是遊戲選項：turns，2 到 50 的偶數；first_bonus，0 到 25。）"),
        ("end", "turns-bonus"), "shengke",
        table(("metal1",), {"a1": (0, "earth1"), "b1": (0, "earth2"), "d1": (0, "fire1"), "e1": (0, "fire2"),
                            "a2": (0, "earth3"), "e2": (0, "fire3"), "a5": (1, "earth1"), "b5": (1, "earth2"),
                            "d5": (1, "fire1"), "e5": (1, "fire2"), "c4": (1, "wood1")},
              (4, 5), discard=WATER, turn=19, first=1),
        (Step(Text("Win the game: place 白牙龍 (out 7) so that it destroys 乙's wood card on c4.",
                   "贏下這局：放置白牙龍（出 7），摧毀乙在 c4 的木牌。"),
              Text("7 against 6 with 乙's bonus: you win.", "加上乙的加分後是 7 比 6：你贏了。"),
              Text("That would end 7–7, a draw: destroy the wood card on c4 as well.",
                   "那樣會以 7 比 7 平手：還要摧毀 c4 的木牌。"),
              goal=_won, example="metal1@c3",
              why=dict.fromkeys(("metal1@c1", "metal1@d2", "metal1@c5"), BURNT)),),
        options={"first": "1"}, told=("turns-bonus",),
    ),
)

COURSE = Course("shengke", Text("Sheng-Ke", "生剋棋"), RULES, LESSONS)
