"""The Kelighine course: entering, laps and promotions, direct and indirect pushes, and what
version 2 adds (docs/games/kelighine.md)."""

from __future__ import annotations

from typing import Any

from qipan.tutorials.lesson import Course, Lesson, Step, Text

RULES = {
    "board": Text("The board: rings A, B, C, the goal J, corners and start cells",
                  "棋盤：A、B、C 三環、終點 J、角落與起點"),
    "enter-a": Text("Entering ring A from a start cell or corner", "從起點或角落進入 A 環"),
    "move": Text("A turn: roll, then move counter-clockwise", "一回合：擲骰，再逆時針移動"),
    "a-lap": Text("The A lap: round to the reference cell", "A 環一圈：繞回參考格"),
    "promote": Text("Promotion to the next ring", "晉升到下一環"),
    "promote-limits": Text("No promotion from a corner or start cell, and a promotion never pushes",
                           "角落與起點上的棋子不能晉升，晉升也永遠不能排擠"),
    "lap-check": Text("A lap is checked after the piece's own move, never after a push",
                      "一圈只在棋子自己移動後檢查，被排擠後不檢查"),
    "a-progress-kept": Text("Pushes never reset A progress", "排擠不會讓 A 環的進度歸零"),
    "bc-laps": Text("B and C laps, and their coins", "B、C 環的一圈與硬幣"),
    "direct-push": Text("Direct push: landing on a piece", "直接排擠：落在棋子上"),
    "indirect-push": Text("Indirect-push cells, from the last piece", "間接排擠格（由上一顆棋子決定）"),
    "indirect-none": Text("No indirect-push cells after a last piece on a corner, start cell or J, or in the "
                          "first turn",
                          "上一顆棋子在角落、起點或 J 上，或在第一回合時，沒有間接排擠格"),
    "indirect-fixed": Text("The indirect-push cells stay fixed for the whole turn", "間接排擠格整個回合固定不變"),
    "push-destination": Text("Where a pushed piece goes", "被排擠的棋子去哪裡"),
    "push-choice": Text("The pushed piece's owner chooses", "被排擠棋子的主人選擇去處"),
    "corner-tie": Text("Equally near free corners: the owner's choice", "距離相同的空角落：由主人選擇"),
    "persistence": Text("Pushed again while landing on indirect-push cells", "落在間接排擠格上會再被排擠"),
    "v1-players": Text("Version 1: 2–4 players, starts I, H, K, L, turns in player order, a d6 or a d4",
                       "第一版：2 至 4 人，起點依序為 I、H、K、L，依玩家順序輪流，擲六面骰或四面骰"),
    "win": Text("Version 1: the first piece to J wins", "第一版：先到 J 的棋子獲勝"),
    "win-at-once": Text("The game ends the moment the winning piece reaches J", "獲勝的棋子一到 J，棋局立即結束"),
    "pass": Text("Pass when no die can be used", "沒有骰子能用時讓過"),
    "v2-dice": Text("Version 2: two d4, each used on its own", "第二版：兩顆四面骰，各自使用"),
    "v2-own-push": Text("Version 2: pushes apply to your own pieces too", "第二版：自己的棋子也會被排擠"),
    "v2-clockwise": Text("Version 2: clockwise in completed rings", "第二版：已完成的環可以順時針走"),
    "v2-reserve": Text("Version 2: the reserve, and doubles bring a piece in", "第二版：預備區，擲出對子時帶一顆進場"),
    "v2-entry-coin": Text("Version 2: bringing a piece in never needs a coin", "第二版：棋子進場不需要硬幣"),
    "v2-start-cells": Text("Version 2: start cells are waiting areas for their owner's pieces",
                           "第二版：起點是主人棋子的等候區"),
    "v2-double-one": Text("Version 2: double 1 (four 1s, reroll, or two 1s)", "第二版：雙一（四個一、重擲或兩個一）"),
    "v2-reroll": Text("Version 2: rerolling a double 1, and another double 1 asks again",
                      "第二版：雙一可以重擲，再擲出雙一時再選一次"),
    "v2-coins": Text("Version 2: one lap under way per ring and player",
                     "第二版：每位玩家每一環只能有一顆棋子在繞圈中"),
    "v2-start": Text("Version 2: no free corner sends a piece back to start", "第二版：沒有空角落時棋子回到起點"),
    "v2-last-piece": Text("Version 2: the last piece on the field uses one die",
                          "第二版：場上最後一顆棋子只用一顆骰子"),
    "v2-win": Text("Version 2: all three pieces at J win", "第二版：三顆棋子都到 J 才獲勝"),
}

Piece = dict[str, Any]


def piece(cell: str, a: int, laps: int = 0, entry: str | None = None) -> Piece:
    """A piece on ``cell`` with A progress ``a`` (half-steps, docs: Decisions 1), ``laps``
    completed and the ``entry`` cell (its coin) of a B or C lap under way."""
    return {"cell": cell, "a": a, "done": laps, "entry": entry}


def rolled(mine: list[Piece], theirs: list[Piece], dice: int | tuple[int, int], *, last: str | None = None,
           version: int = 1, number: int = 5, ones: bool = False, one_die: bool = False) -> dict[str, Any]:
    """Player 1 (seat 0) to act, having rolled ``dice`` (``ones``: a double 1 to settle);
    ``last`` is the cell of the previous player's last piece (it fixes the indirect-push cells)."""
    values = [dice] if isinstance(dice, int) else list(dice)
    event = ["roll", 0, *values] + ([0] if version == 1 else [])
    return {"turn": 0, "phase": "ones" if ones else "act", "rolled": values, "dice": [] if ones else values,
            "one_die": one_die, "last": last, "moved": None, "pieces": [mine, theirs], "pending": None,
            "after": None, "log": [event], "prev_log": [], "number": number, "winner": None}


def table(pieces: list[list[Piece]], dice: int, *, last: str | None = None) -> dict[str, Any]:
    """A version-1 position with one list of pieces per player (two to four), player 1 to act."""
    state = rolled(pieces[0], pieces[1], dice, last=last)
    state["pieces"] = pieces
    return state


START_2 = [piece("H", 21)]
"""Player 2's piece waiting on its start cell H."""
RESERVE_1, RESERVE_2 = piece("reserve", 5), piece("reserve", 21)
V2 = {"version": 2}


def _won(game: Any, before: Any, after: Any) -> bool:
    return bool(game.to_move(after) is None and game.returns(after)[0] > 0)


LESSONS = (
    Lesson(
        "enter", Text("Into ring A", "進入 A 環"),
        Text("Each piece races from its start cell (yours is I, at the bottom) round the outer ring A, then the "
             "middle ring B, then the inner ring C, and into the goal J. A turn is a roll, then a move "
             "counter-clockwise (increasing numbers). From a start cell between A2 and A3, a roll of 2 goes to A4.",
             "每顆棋子從起點（你的是下方的 I）出發，先繞外環 A，再繞中環 B，再繞內環 C，最後進入終點 J。"
             "一回合先擲骰，再逆時針（編號遞增）移動。從 A2 與 A3 之間的起點擲出 2，就走到 A4。"),
        ("board", "enter-a", "move"), "kelighine", rolled([piece("I", 5)], START_2, 2, number=1),
        (Step(
            Text("You rolled 2. Move your piece from I into ring A (click it, then the dot; or type I+2).",
                 "你擲出 2。把棋子從 I 走進 A 環（點棋子，再點圓點；或輸入 I+2）。"),
            Text("I+2 landed on A4. Your piece's face shows 6 until it completes its first lap.",
                 "I+2 落在 A4。棋子在完成第一圈之前，朝上的一面是 6。"),
            Text("Move the piece on I by the die.", "用這顆骰子移動 I 上的棋子。"),
            accept=("I+2",)),),
    ),
    Lesson(
        "direct-push", Text("The direct push", "直接排擠"),
        Text("Moving onto an occupied cell pushes the piece there (排擠). A piece pushed from ring A goes to the "
             "nearest free corner (D, E, F or G).",
             "走到有棋子的格子上，就會把那顆棋子擠走（排擠）。從 A 環被擠走的棋子會去最近的空角落（D、E、F 或 G）。"),
        ("direct-push", "push-destination"), "kelighine", rolled([piece("A5", 10)], [piece("A8", 48)], 3),
        (Step(
            Text("You rolled 3: move A5 onto player 2's piece on A8.", "你擲出 3：把 A5 走到玩家 2 在 A8 的棋子上。"),
            Text("Player 2's piece was pushed from A8 to the corner F, the nearest free one.",
                 "玩家 2 的棋子被從 A8 擠到最近的空角落 F。"),
            Text("Move A5 by 3.", "把 A5 走 3 步。"), accept=("A5+3",)),),
    ),
    Lesson(
        "indirect-push", Text("Indirect pushes and the A lap", "間接排擠與 A 環一圈"),
        Text("The last piece the previous player moved decides the turn's indirect-push cells (tinted red): from "
             "A8 they are A12, A16, A4 and every even (black) cell of rings B and C. A piece that lands on one "
             "is pushed itself. Your piece on A1 has gone almost round: reaching A3 or beyond completes its A lap.",
             "上一位玩家最後移動的棋子決定本回合的間接排擠格（紅色底）：它在 A8 時，間接排擠格是 A12、A16、A4 "
             "以及 B、C 環所有偶數（黑色）格。落在這些格子上的棋子自己會被擠走。你在 A1 的棋子快繞完一圈了："
             "走到 A3 或更遠就完成 A 環一圈。"),
        ("indirect-push", "a-lap"), "kelighine", rolled([piece("A1", 34)], [piece("A8", 48)], 3, last="A8"),
        (Step(
            Text("You rolled 3: move A1 to A4, an indirect-push cell.", "你擲出 3：把 A1 走到間接排擠格 A4。"),
            Text("On A4 your piece completed its A lap (its face turned to 1), then A4's indirect push sent it to "
                 "the corner E. A completed lap is never lost to a push.",
                 "在 A4 你的棋子先完成了 A 環一圈（朝上的一面變成 1），接著 A4 的間接排擠把它送到角落 E。"
                 "已完成的圈數不會因排擠而失去。"),
            Text("Move A1 by 3.", "把 A1 走 3 步。"), accept=("A1+3",)),),
    ),
    Lesson(
        "no-red-cells", Text("A turn without red cells", "沒有紅色格的回合"),
        Text("Player 2's piece ended its last turn on the corner F. A last piece on a corner, a start cell or J "
             "makes no indirect-push cells, and neither does the first turn of the game: this turn nothing is "
             "tinted red.",
             "玩家 2 的棋子上一回合停在角落 F。上一顆棋子在角落、起點或 J 上時沒有間接排擠格，棋局的第一回合也"
             "沒有：本回合沒有任何紅色格。"),
        ("indirect-none",), "kelighine", rolled([piece("A8", 16)], [piece("F", 49)], 4, last="F"),
        (Step(Text("You rolled 4: move A8 to A12.", "你擲出 4：把 A8 走到 A12。"),
              Text("Your piece stays on A12. Had player 2's last piece stood on A8, A12 would have been an "
                   "indirect-push cell and pushed it to a corner.",
                   "你的棋子留在 A12。要是玩家 2 最後的棋子停在 A8，A12 就會是間接排擠格，把它擠到角落。"),
              Text("Move A8 by 4.", "把 A8 走 4 步。"), accept=("A8+4",)),),
    ),
    Lesson(
        "promote", Text("Promotion", "晉升"),
        Text("Once a piece's lap of a ring is complete, you may forgo a die to move it to a free touching cell "
             "of the next ring: A6 touches B3. Entering a ring puts one of your coins on the cell entered; the "
             "lap there is complete when the piece comes back round to it.",
             "某環一圈完成後，可以放棄一顆骰子，把棋子移到下一環相鄰的空格：A6 與 B3 相鄰。進入新的環時，"
             "要在進入的格子放一枚你的硬幣；棋子繞回那一格時，該環一圈就完成了。"),
        ("promote", "bc-laps"), "kelighine", rolled([piece("A6", 44, 1)], START_2, 2),
        (Step(
            Text("Your piece on A6 has completed lap A. Promote it to B3 instead of moving (A6^B3).",
                 "你在 A6 的棋子已完成 A 環一圈。不要移動，把它晉升到 B3（A6^B3）。"),
            Text("The piece is on B3, with your coin on it marking where its B lap started.",
                 "棋子到了 B3，你的硬幣放在那裡，標出 B 環一圈的起點。"),
            Text("That moves the piece along ring A: promote it instead.", "那是沿 A 環移動：請改為晉升。"),
            accept=("A6^B3",)),),
    ),
    Lesson(
        "b-lap", Text("Completing lap B", "完成 B 環一圈"),
        Text("Your piece entered ring B on B3 (your coin is there) and has come round to B1.",
             "你的棋子從 B3 進入 B 環（硬幣在那裡），已經繞到 B1。"),
        ("bc-laps",), "kelighine", rolled([piece("B1", 44, 1, "B3")], START_2, 3),
        (Step(
            Text("You rolled 3: move B1 past B3.", "你擲出 3：把 B1 走過 B3。"),
            Text("Passing its entry cell completed lap B: the face shows 2 and the coin comes back to you.",
                 "經過進入格就完成了 B 環一圈：朝上的一面變成 2，硬幣也回到你手上。"),
            Text("Move B1 by 3.", "把 B1 走 3 步。"), accept=("B1+3",)),),
    ),
    Lesson(
        "persistence", Text("Your choice, and pushed again", "由你選擇，以及再次排擠"),
        Text("Player 2's last piece is on A8, so the even cells of ring B are indirect-push cells. A piece pushed "
             "out of ring B goes to one of the two touching cells of ring A, and its owner chooses. A piece pushed "
             "onto another indirect-push cell is pushed again.",
             "玩家 2 最後的棋子在 A8，所以 B 環的偶數格都是間接排擠格。被擠出 B 環的棋子會去 A 環兩個相鄰格之一，"
             "由棋子的主人選擇。被擠到另一個間接排擠格上的棋子，會再被擠一次。"),
        ("push-choice", "persistence"), "kelighine",
        rolled([piece("B1", 44, 1, "B1")], [piece("A8", 48)], 1, last="A8"),
        (Step(Text("You rolled 1: move B1 to B2.", "你擲出 1：把 B1 走到 B2。"),
              Text("B2 is an indirect-push cell: your piece is pushed out of ring B and loses its B lap and coin. "
                   "Where it goes is your choice.",
                   "B2 是間接排擠格：你的棋子被擠出 B 環，失去 B 環的進度和硬幣。去哪裡由你選擇。"),
              Text("Move B1 by 1.", "把 B1 走 1 步。"), accept=("B1+1",)),
         Step(Text("Choose where your piece goes: A3 or A4. Pick the one that keeps it on ring A.",
                   "選擇棋子的去處：A3 或 A4。選能讓它留在 A 環上的那一格。"),
              Text("A3 is safe. A4 is an indirect-push cell too: the piece would have been pushed again, on to "
                   "the corner E.",
                   "A3 是安全的。A4 也是間接排擠格：棋子會再被擠一次，被送到角落 E。"),
              Text("A4 is an indirect-push cell too: your piece would be pushed again, on to the corner E. Choose "
                   "A3.",
                   "A4 也是間接排擠格：你的棋子會再被擠一次，被送到角落 E。請選 A3。"),
              accept=("push:A3",))),
    ),
    Lesson(
        "corner-tie", Text("Four players, and a tie of corners", "四人對局與距離相同的角落"),
        Text("Version 1 takes two to four players, one piece each, starting on I, H, K and L in player order; "
             "player 1 rolls first and turns go round in player order. This game has four players and rolls a "
             "four-sided die (option die=4; the default is a d6). Player 4 moved last, to B1: the other odd "
             "cells of rings B and C are indirect-push cells. Your piece is on its C lap.",
             "第一版可以 2 到 4 人玩，每人一顆棋子，依玩家順序從 I、H、K、L 出發；玩家 1 先擲，之後依玩家順序輪流。"
             "這局有四位玩家，擲四面骰（die=4 選項；預設是六面骰）。玩家 4 最後走到 B1：B、C 環其他的奇數格都是"
             "間接排擠格。你的棋子正在繞 C 環。"),
        ("v1-players", "push-destination", "corner-tie"), "kelighine",
        table([[piece("C8", 44, 2, "C5")], [piece("A12", 40)], [piece("B2", 60, 1, "B2")], [piece("B1", 44, 1, "B1")]],
              1, last="B1"),
        (Step(Text("You rolled 1: move C8 to C1, an indirect-push cell.", "你擲出 1：把 C8 走到間接排擠格 C1。"),
              Text("Your piece is pushed out of ring C, losing its C lap and coin. The cells below C1, B1 and B2, "
                   "are both taken, so it goes to the nearest free corner, and D and E are equally near.",
                   "你的棋子被擠出 C 環，失去 C 環的進度和硬幣。C1 下方的 B1、B2 都有棋子，所以它去最近的空角落，"
                   "而 D 和 E 一樣近。"),
              Text("Move C8 by 1.", "把 C8 走 1 步。"), accept=("C8+1",)),
         Step(Text("D and E are both three cells from C1 (C1, B1, A1, D or C1, B2, A4, E): you choose. Pick one.",
                   "D 和 E 離 C1 都是三格（C1、B1、A1、D 或 C1、B2、A4、E）：由你選擇。選一個。"),
              Text("Equally near free corners are the pushed piece's owner's choice. Then player 2 rolls.",
                   "距離相同的空角落由被排擠棋子的主人選擇。接著輪到玩家 2 擲骰。"),
              Text("Choose a corner: push:D or push:E.", "選一個角落：push:D 或 push:E。"),
              accept=("push:D", "push:E"))),
        options={"players": 4, "die": 4}, told=("v1-players",),
    ),
    Lesson(
        "win", Text("Into the goal", "進入終點"),
        Text("Your piece on C3 has completed all three laps. From ring C a promotion goes to J, and in version 1 "
             "the first piece at J wins: the game ends the moment it gets there.",
             "你在 C3 的棋子已完成三環。從 C 環晉升就進入 J；第一版中先到 J 的棋子獲勝：一到 J 棋局立即結束。"),
        ("win", "win-at-once"), "kelighine", rolled([piece("C3", 44, 3)], START_2, 2),
        (Step(Text("Promote C3 to J and win.", "把 C3 晉升到 J，贏下這局。"),
              Text("Your piece reached J: you win, and the game is over at once.",
                   "你的棋子到達 J：你贏了，棋局立即結束。"),
              Text("That moves round ring C: promote to J instead.", "那是沿 C 環移動：請改為晉升到 J。"),
              accept=("C3^J",)),),
    ),
    Lesson(
        "two-dice", Text("Version 2: two dice, and your own pieces", "第二版：兩顆骰子與自己的棋子"),
        Text("Version 2 rolls two four-sided dice; each is used on its own, both on one piece or one each. Every "
             "piece can be pushed, your own included.",
             "第二版擲兩顆四面骰，每顆各自使用，可以都用在同一顆棋子，也可以各用一顆。所有棋子都會被排擠，"
             "包括你自己的。"),
        ("v2-dice", "v2-own-push"), "kelighine",
        rolled([piece("A5", 10), piece("A8", 16), RESERVE_1], [piece("H", 21), RESERVE_2, RESERVE_2], (3, 4),
               version=2),
        (Step(Text("Use the 3 to move A5 onto your own piece on A8.", "用 3 把 A5 走到你自己在 A8 的棋子上。"),
              Text("Your own piece was pushed to the corner F. The 4 is left.", "你自己的棋子被擠到角落 F。還剩下 4。"),
              Text("Move A5 by 3, onto A8.", "把 A5 走 3 步，到 A8。"), accept=("A5+3",)),
         Step(Text("Now use the 4 on the piece on A8.", "現在把 4 用在 A8 的棋子上。"),
              Text("Both dice are used: the turn is over.", "兩顆骰子都用完了：回合結束。"),
              Text("Use the 4 on the piece on A8.", "把 4 用在 A8 的棋子上。"), accept=("A8+4",))),
        options=V2,
    ),
    Lesson(
        "fixed-cells", Text("Version 2: the red cells stay for the turn", "第二版：紅色格整回合不變"),
        Text("The indirect-push cells are fixed at the start of the turn by the last piece: player 2's piece on "
             "A8, so A12, A16, A4 and the even cells of rings B and C. They stay the same for the whole turn, "
             "even if that piece is pushed away.",
             "間接排擠格在回合開始時由上一顆棋子決定：玩家 2 在 A8 的棋子，所以是 A12、A16、A4 以及 B、C 環的"
             "偶數格。即使那顆棋子被擠走，它們整個回合都不變。"),
        ("indirect-fixed",), "kelighine",
        rolled([piece("A5", 10), piece("A9", 18), RESERVE_1], [piece("A8", 48), RESERVE_2, piece("H", 21)], (3, 4),
               last="A8", version=2),
        (Step(Text("Use the 3 to push player 2's piece off A8.", "用 3 把玩家 2 的棋子從 A8 擠走。"),
              Text("Player 2's piece went to the corner F. The red cells have not moved.",
                   "玩家 2 的棋子去了角落 F。紅色格沒有改變。"),
              Text("Move A5 by 3, onto A8.", "把 A5 走 3 步，到 A8。"), accept=("A5+3",)),
         Step(Text("Use the 4 without landing on an indirect-push cell.", "用 4 走一步，但不要落在間接排擠格上。"),
              Text("A13 is safe. A12 is still an indirect-push cell although player 2's piece left A8: the cells "
                   "were fixed when your turn began.",
                   "A13 是安全的。雖然玩家 2 的棋子已離開 A8，A12 仍是間接排擠格：這些格子在你的回合開始時就定了。"),
              Text("Use the 4 on the piece on A9.", "把 4 用在 A9 的棋子上。"), accept=("A9+4",),
              why={"A8+4": Text("A12 is still an indirect-push cell, though player 2's piece left A8: the cells were "
                                "fixed when your turn began, and your piece would be pushed to the corner G.",
                                "雖然玩家 2 的棋子已離開 A8，A12 仍是間接排擠格：這些格子在你的回合開始時就定了，"
                                "你的棋子會被擠到角落 G。")})),
        options=V2,
    ),
    Lesson(
        "promotion-limits", Text("Version 2: what cannot promote", "第二版：不能晉升的情況"),
        Text("Both your pieces, on the corner E and on A6, have completed lap A. A piece on a corner or a start "
             "cell cannot promote: it first enters ring A with a die. And a promotion never pushes: its cell must "
             "be empty. A6 touches B3, where player 2's piece stands.",
             "你在角落 E 和 A6 的兩顆棋子都已完成 A 環一圈。角落或起點上的棋子不能晉升：要先用骰子進入 A 環。"
             "晉升也永遠不能排擠：目標格必須是空的。A6 與 B3 相鄰，而玩家 2 的棋子就在 B3。"),
        ("promote-limits",), "kelighine",
        rolled([piece("E", 41, 1), piece("A6", 44, 1), RESERVE_1],
               [piece("B3", 40, 1, "B3"), RESERVE_2, piece("H", 21)], (1, 3), version=2),
        (Step(Text("Promoting A6 to B3 would push (try A6^B3/1), and E cannot promote at all. Bring the piece on E "
                   "forward into ring A.",
                   "把 A6 晉升到 B3 會排擠（試試 A6^B3/1），而 E 完全不能晉升。把 E 上的棋子往前走進 A 環。"),
              Text("The piece is on ring A now; from there it may promote once a free B cell touches it.",
                   "棋子現在在 A 環上；等它旁邊有空的 B 格，就可以晉升。"),
              Text("Move the piece on E forward (counter-clockwise).", "把 E 上的棋子往前（逆時針）走。"),
              accept=("E+1", "E+3"), refused=("A6^B3/1",)),),
        options=V2,
    ),
    Lesson(
        "lap-after-push", Text("Version 2: laps count on your own move", "第二版：圈數在自己移動時才算"),
        Text("A lap is checked only right after the piece's own move or promotion, never after a push. Your piece "
             "on A1 is two cells short of A3, where its A lap completes. Player 2's last piece is on A6, so A2 is "
             "an indirect-push cell, and player 2's piece holds the nearest corner, D.",
             "一圈只在棋子自己移動或晉升之後才檢查，被排擠後不檢查。你在 A1 的棋子離完成 A 環一圈的 A3 還差兩格。"
             "玩家 2 最後的棋子在 A6，所以 A2 是間接排擠格，而最近的角落 D 有玩家 2 的棋子。"),
        ("lap-check",), "kelighine",
        rolled([piece("A1", 34), RESERVE_1, RESERVE_1], [piece("A6", 44, 1), piece("D", 33), RESERVE_2], (1, 3),
               last="A6", version=2),
        (Step(Text("Use the 1: move A1 to A2.", "用 1：把 A1 走到 A2。"),
              Text("A2 pushed your piece forward, past A3, to the corner E, but its face still shows 6: a push does "
                   "not complete a lap.",
                   "A2 把你的棋子往前擠過 A3，到了角落 E，但朝上的一面仍是 6：排擠不會完成一圈。"),
              Text("That completes the lap by your own move. Use the 1 this time, to see what a push does.",
                   "那是靠自己移動完成一圈。這次請用 1，看看排擠會怎樣。"), accept=("A1+1",)),
         Step(Text("Now move the piece on E with the 3.", "現在用 3 移動 E 上的棋子。"),
              Text("Its own move completed the A lap: the face shows 1.",
                   "它自己的移動完成了 A 環一圈：朝上的一面變成 1。"),
              Text("Move E by 3.", "把 E 走 3 步。"), accept=("E+3",))),
        options=V2,
    ),
    Lesson(
        "a-progress", Text("Version 2: a push keeps your A progress", "第二版：排擠保留 A 環進度"),
        Text("A push out of ring B or C in the middle of a lap loses that lap and its coin, but pushes never reset "
             "the progress round ring A: a piece pushed to a corner keeps how far it has come (its progress moves "
             "to the corner's, a half-step back or on). Your piece left I and has come round to A13, 10 of the 16 "
             "cells of its A lap. Player 2's last piece is on A9, so A1 is an indirect-push cell.",
             "在 B 環或 C 環繞到一半被擠出，會失去那一圈和硬幣；但排擠永遠不會讓 A 環的進度歸零："
             "被擠到角落的棋子保留它已走過的路（進度改為該角落的位置，前後差半步）。你的棋子從 I 出發，"
             "已繞到 A13，走完 A 環 16 格中的 10 格。玩家 2 最後的棋子在 A9，所以 A1 是間接排擠格。"),
        ("a-progress-kept",), "kelighine",
        rolled([piece("A13", 26), RESERVE_1, RESERVE_1], [piece("A9", 50), piece("H", 21), RESERVE_2], (3, 4),
               last="A9", version=2),
        (Step(Text("Use the 4: move A13 to A1.", "用 4：把 A13 走到 A1。"),
              Text("A1 pushed your piece back to the corner D, half a step, and it keeps its progress: 13 of 16 "
                   "cells. Its A lap still completes at A3.",
                   "A1 把你的棋子擠回角落 D，退了半步，但進度保留：16 格中的 13 格。它的 A 環一圈仍在 A3 完成。"),
              Text("A16 is no indirect-push cell: use the 4 this time, to land on A1 and see what a push does to "
                   "your progress.",
                   "A16 不是間接排擠格：這次請用 4，落在 A1，看看排擠對進度有什麼影響。"), accept=("A13+4",)),
         Step(Text("Now the 3: from D to A3.", "現在用 3：從 D 走到 A3。"),
              Text("A3, your reference cell: the A lap is complete (the face shows 1), as if no push had happened.",
                   "到了參考格 A3：A 環一圈完成（朝上的一面變成 1），就像沒被排擠過一樣。"),
              Text("Move D by 3.", "把 D 走 3 步。"), accept=("D+3",))),
        options=V2,
    ),
    Lesson(
        "clockwise", Text("Version 2: going back", "第二版：往回走"),
        Text("In version 2 a piece may also move clockwise (decreasing numbers) in a ring whose lap it has "
             "completed. Your piece on A6 has completed lap A.",
             "第二版中，棋子在已完成一圈的環上也可以順時針（編號遞減）移動。你在 A6 的棋子已完成 A 環一圈。"),
        ("v2-clockwise",), "kelighine",
        rolled([piece("A6", 44, 1), piece("A3", 6), RESERVE_1], [piece("A4", 40), RESERVE_2, RESERVE_2], (2, 4),
               version=2),
        (Step(Text("Move A6 back 2, onto player 2's piece on A4 (A6-2).",
                   "把 A6 往回走 2，走到玩家 2 在 A4 的棋子上（A6-2）。"),
              Text("Going back pushed player 2's piece from A4 to the corner E.",
                   "往回走把玩家 2 的棋子從 A4 擠到角落 E。"),
              Text("That is legal, but it does not push the piece on A4 by going back.",
                   "這步合法，但不是往回走去擠 A4 的棋子。"),
              accept=("A6-2",)),),
        options=V2,
    ),
    Lesson(
        "corner-back", Text("Version 2: back from a corner", "第二版：從角落往回走"),
        Text("A piece on a corner or start cell between A(k) and A(k+1) that moves back r cells goes to A(k+1−r), "
             "and only once its A lap is complete. Your piece on the corner F (between A8 and A9) has completed "
             "lap A; the one on D has not.",
             "位於 A(k) 與 A(k+1) 之間的角落或起點上的棋子往回走 r 格，會到 A(k+1−r)，而且要先完成 A 環一圈才行。"
             "你在角落 F（A8 與 A9 之間）的棋子已完成 A 環一圈；D 上的還沒有。"),
        ("v2-clockwise",), "kelighine",
        rolled([piece("F", 49, 1), piece("D", 33), RESERVE_1], [piece("A6", 44, 1), RESERVE_2, piece("H", 21)],
               (1, 3), version=2),
        (Step(Text("D cannot go back yet (try D-1). Move F back 3, onto player 2's piece on A6 (F-3).",
                   "D 還不能往回走（試試 D-1）。把 F 往回走 3 格，走到玩家 2 在 A6 的棋子上（F-3）。"),
              Text("From F, 3 back is A6 (A8 is the first cell back): player 2's piece was pushed to the corner E.",
                   "從 F 往回 3 格是 A6（往回的第一格是 A8）：玩家 2 的棋子被擠到角落 E。"),
              Text("That is legal, but it does not go back from F onto A6.", "這步合法，但不是從 F 往回走到 A6。"),
              accept=("F-3",), refused=("D-1",)),),
        options=V2,
    ),
    Lesson(
        "doubles", Text("Version 2: doubles and the reserve", "第二版：對子與預備區"),
        Text("In version 2 each player has three pieces: one starts on the start cell, two wait in reserve. A "
             "double brings a reserve piece in. A double 1 is special: take it as four 1s, reroll, or keep two "
             "1s.",
             "第二版每位玩家有三顆棋子：一顆在起點，兩顆在預備區。擲出對子會帶一顆預備棋子進場。雙一很特別："
             "可以當作四個一、重擲，或保留兩個一。"),
        ("v2-double-one", "v2-reserve", "v2-start-cells"), "kelighine",
        rolled([piece("I", 5), RESERVE_1, RESERVE_1], [piece("H", 21), RESERVE_2, RESERVE_2], (1, 1), version=2,
               number=1, ones=True),
        (Step(Text("You rolled a double 1. Keep it as two 1s (ones:two).", "你擲出雙一。保留為兩個一（ones:two）。"),
              Text("The double brought a second piece from the reserve onto I, beside the first: a start cell is a "
                   "waiting area where any number of its owner's pieces stand, no other piece enters, and none is "
                   "pushed.",
                   "對子把第二顆棋子從預備區帶到 I，就在第一顆旁邊：起點是等候區，主人的棋子可以任意多顆待在那裡，"
                   "其他棋子不能進入，也不會被排擠。"),
              Text("Keep the double 1 as two 1s this time.", "這次請保留為兩個一。"), accept=("ones:two",)),),
        options=V2,
    ),
    Lesson(
        "reroll", Text("Version 2: rerolling a double 1", "第二版：重擲雙一"),
        Text("A double 1 moves little. Instead of four 1s or two 1s you may reroll both dice; if the new roll is a "
             "double 1 again, you are asked again. Only once the double 1 is settled does a double bring a reserve "
             "piece in.",
             "雙一走不了多遠。除了當作四個一或兩個一，也可以兩顆骰子重擲；若重擲又是雙一，就再選一次。"
             "要等雙一決定之後，對子才會帶預備棋子進場。"),
        ("v2-reroll",), "kelighine",
        rolled([piece("A5", 10), piece("I", 5), RESERVE_1], [piece("H", 21), piece("A12", 24), RESERVE_2], (1, 1),
               last="A12", version=2, ones=True),
        (Step(Text("You rolled a double 1. Reroll (ones:reroll).", "你擲出雙一。重擲（ones:reroll）。"),
              Text("You rerolled, and rolled a double 1 again: the choice is yours again.",
                   "你重擲了，又擲出雙一：再選一次。"),
              Text("That settles the double 1: reroll this time.", "那樣就決定了雙一：這次請重擲。"),
              accept=("ones:reroll",), replies=("roll:1,1",)),
         Step(Text("Take it as four 1s this time (ones:four).", "這次當作四個一（ones:four）。"),
              Text("Four 1s to use, and now that the double is settled your last reserve piece came in on I.",
                   "有四個一可以用；雙一決定了，你最後一顆預備棋子也進到 I。"),
              Text("Take the double 1 as four 1s this time.", "這次請把雙一當作四個一。"),
              accept=("ones:four",))),
        options=V2,
    ),
    Lesson(
        "entry-no-coin", Text("Version 2: no coin to come in", "第二版：進場不需硬幣"),
        Text("Both your coins are in use: one piece is on its B lap, the other on its C lap. Bringing a reserve "
             "piece in never needs a coin: ring A has none.",
             "你的兩枚硬幣都在用：一顆棋子正在繞 B 環，另一顆正在繞 C 環。把預備棋子帶進場從不需要硬幣："
             "A 環沒有硬幣。"),
        ("v2-entry-coin",), "kelighine",
        rolled([piece("B2", 44, 1, "B2"), piece("C3", 44, 2, "C3"), RESERVE_1],
               [piece("H", 21), RESERVE_2, RESERVE_2], (1, 1), version=2, ones=True),
        (Step(Text("You rolled a double 1. Settle it, as four 1s or as two 1s.",
                   "你擲出雙一。決定它：當作四個一或兩個一。"),
              Text("Once the double was settled, your last reserve piece came in on I, without a coin.",
                   "雙一決定之後，你最後一顆預備棋子進到 I，不需要硬幣。"),
              Text("A reroll settles nothing yet: take the double 1 as four 1s or two 1s, and see the reserve piece "
                   "come in.",
                   "重擲還沒有決定任何事：把雙一當作四個一或兩個一，看預備棋子進場。"),
              accept=("ones:four", "ones:two")),),
        options=V2,
    ),
    Lesson(
        "coins", Text("Version 2: one lap at a time", "第二版：一次只繞一圈"),
        Text("Each player has two coins: at most one of your pieces may be in the middle of a B lap, and one in "
             "the middle of a C lap. Your piece on B2 is in the middle of its B lap.",
             "每位玩家有兩枚硬幣：你最多只能有一顆棋子正在繞 B 環，一顆正在繞 C 環。你在 B2 的棋子正在繞 B 環。"),
        ("v2-coins",), "kelighine",
        rolled([piece("B2", 44, 1, "B2"), piece("A6", 44, 1), RESERVE_1], [piece("H", 21), RESERVE_2, RESERVE_2],
               (1, 3), version=2),
        (Step(Text("Promoting A6 to B3 is not allowed now (try A6^B3/1). Move the piece on B2 on its lap instead.",
                   "現在不能把 A6 晉升到 B3（試試 A6^B3/1）。改為讓 B2 的棋子繼續繞圈。"),
              Text("Once B2's lap is complete its coin comes back, and A6 may promote.",
                   "等 B2 完成一圈、硬幣回來之後，A6 就可以晉升了。"),
              Text("Move the piece on B2.", "移動 B2 的棋子。"), accept=("B2+1", "B2+3"), refused=("A6^B3/1",)),),
        options=V2,
    ),
    Lesson(
        "back-to-start", Text("Version 2: back to start", "第二版：回到起點"),
        Text("All four corners are taken. A piece pushed from ring A with no free corner goes back to its start "
             "cell, losing all its progress.",
             "四個角落都被佔了。從 A 環被擠走而沒有空角落的棋子會回到起點，失去所有進度。"),
        ("v2-start",), "kelighine",
        rolled([piece("D", 33, 1), piece("E", 41, 1), piece("A5", 10)],
               [piece("F", 49, 1), piece("G", 57, 1), piece("A8", 48)], (3, 4), version=2),
        (Step(Text("Use the 3 to push player 2's piece off A8.", "用 3 把玩家 2 的棋子從 A8 擠走。"),
              Text("No corner was free: player 2's piece went back to its start cell H, all progress lost.",
                   "沒有空角落：玩家 2 的棋子回到起點 H，所有進度歸零。"),
              Text("Move A5 by 3, onto A8.", "把 A5 走 3 步，到 A8。"), accept=("A5+3",)),),
        options=V2,
    ),
    Lesson(
        "last-piece", Text("Version 2: the last piece", "第二版：最後一顆棋子"),
        Text("Two of your pieces are at J. With only one piece left on the field you use one of the two dice, "
             "your choice, and forgo the other. All three pieces at J win.",
             "你有兩顆棋子已到 J。場上只剩一顆棋子時，只能用兩顆骰子中的一顆（由你選），另一顆放棄。"
             "三顆棋子都到 J 就獲勝。"),
        ("v2-last-piece", "v2-win"), "kelighine",
        rolled([piece("J", 44, 3), piece("J", 44, 3), piece("C3", 44, 3)], [piece("H", 21), RESERVE_2, RESERVE_2],
               (2, 4), version=2, one_die=True),
        (Step(Text("Promote your last piece from C3 to J and win.", "把最後一顆棋子從 C3 晉升到 J，贏下這局。"),
              Text("All three of your pieces are at J: you win.", "你的三顆棋子都到了 J：你贏了。"),
              Text("That moves round ring C: promote to J instead.", "那是沿 C 環移動：請改為晉升到 J。"),
              goal=_won, example="C3^J"),),
        options=V2,
    ),
    Lesson(
        "pass", Text("No die to use: pass", "沒有骰子可用：讓過"),
        Text("A die may go unused only when nothing is possible. Your only piece on the field is on C3, ready for "
             "J; your other two pieces wait in reserve, and they come in only before a roll or after a double.",
             "只有在什麼都不能做時，骰子才可以不用。你場上唯一的棋子在 C3，準備進入 J；另外兩顆在預備區，"
             "只有在擲骰前或擲出對子後才會進場。"),
        ("pass", "v2-reserve"), "kelighine",
        rolled([piece("C3", 44, 3), RESERVE_1, RESERVE_1], [piece("H", 21), RESERVE_2, RESERVE_2], (2, 4),
               version=2),
        (Step(Text("Promote C3 to J, forgoing the 2 (C3^J/2).", "把 C3 晉升到 J，放棄 2（C3^J/2）。"),
              Text("Your piece is at J and no piece of yours is left on the field.",
                   "你的棋子到了 J，場上已沒有你的棋子。"),
              Text("Promote C3 to J, forgoing the 2.", "把 C3 晉升到 J，放棄 2。"), accept=("C3^J/2",)),
         Step(Text("The 4 cannot be used: pass.", "4 無法使用：讓過。"),
              Text("You passed. Player 2 rolled 2 and 3 and moved H to A12, then on to A15. Your turn began with no "
                   "piece of yours on the field, so a reserve piece came in on I before you rolled; then you rolled "
                   "1 and 3 (no double).",
                   "你讓過了。玩家 2 擲出 2 和 3，把 H 走到 A12，再走到 A15。你的回合開始時場上沒有你的棋子，"
                   "所以擲骰前預備區的一顆棋子進到 I；接著你擲出 1 和 3（不是對子）。"),
              Text("Pass.", "讓過。"), accept=("pass",), replies=("roll:2,3", "H+2", "A12+3", "roll:1,3")),
         Step(Text("Move the new piece from I with the 3 (I+3): player 2's last piece on A15 makes A3 an "
                   "indirect-push cell this turn.",
                   "用 3 把新進場的棋子從 I 走出（I+3）：玩家 2 最後的棋子在 A15，所以本回合 A3 是間接排擠格。"),
              Text("Your new piece is on A5, on its way round ring A.", "新進場的棋子到了 A5，開始繞 A 環。"),
              Text("Move the piece on I with the 3.", "用 3 移動 I 上的棋子。"), accept=("I+3",),
              why={"I+1": Text("A3 is an indirect-push cell this turn: your piece would be pushed to a corner. "
                               "Use the 3.",
                               "本回合 A3 是間接排擠格：你的棋子會被擠到角落。請用 3。")})),
        options=V2,
    ),
)

COURSE = Course("kelighine", Text("Kelighine", "Kelighine 凱利海恩"), RULES, LESSONS)
