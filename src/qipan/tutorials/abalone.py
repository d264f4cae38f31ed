"""The Abalone course: moving lines, pushing, and pushing off (docs/games/abalone.md)."""

from __future__ import annotations

from typing import Any

from qipan.tutorials.lesson import Course, Lesson, Step, Text

RULES = {
    "start": Text("Black moves first, from the standard start", "黑方先走，從標準開局開始"),
    "layouts": Text("The variants' start layouts (Belgian and German daisy)", "變體的開局擺法（比利時雛菊、德國雛菊）"),
    "board": Text("The board and its coordinates", "棋盤與座標"),
    "inline": Text("In-line moves", "縱向移動（沿線）"),
    "broadside": Text("Broadside moves", "橫向移動（側移）"),
    "broadside-no-push": Text("A broadside move needs empty cells: it never pushes",
                              "橫向移動只能進入空格：它永遠不推擠"),
    "sumito": Text("Pushing: 2 push 1, 3 push 1, 3 push 2", "推擠：二推一、三推一、三推二"),
    "no-equal": Text("Equal numbers never push", "數量相等時不能推"),
    "own-behind": Text("Your own marble behind theirs blocks a push", "對方棋子後面有自己的棋子時不能推"),
    "three-max": Text("At most three marbles move", "最多移動三顆棋子"),
    "eject": Text("A marble pushed over the edge is out", "被推出邊界的棋子出局"),
    "own-off": Text("You never push your own marble off", "不能把自己的棋子推出棋盤"),
    "win": Text("Six marbles out wins", "推出六顆對方棋子即獲勝"),
    "no-moves": Text("A side with no legal move loses", "無子可動的一方判負"),
}


def position(black: str, white: str) -> dict[str, Any]:
    """A state with Black to move (cells separated by spaces)."""
    return {"black": black.split(), "white": white.split(), "turn": "black", "quiet": 0, "history": []}


START = position("a1 a2 a3 a4 a5 b1 b2 b3 b4 b5 b6 c3 c4 c5", "g5 g6 g7 h4 h5 h6 h7 h8 h9 i5 i6 i7 i8 i9")


def marbles_out(state_json: dict[str, Any]) -> int:
    return 14 - len(state_json["white"])


def _ejected(game: Any, before: Any, after: Any) -> bool:
    """Whether the move pushed a white marble off the board."""
    return len(game.state_to_json(after)["white"]) < len(game.state_to_json(before)["white"])


def _won(game: Any, before: Any, after: Any) -> bool:
    return bool(game.to_move(after) is None and game.returns(after)[0] > 0)


LESSONS = (
    Lesson(
        "first-move", Text("Your first move", "第一步"),
        Text("Rows A to I run from Black's side (bottom) to White's (top); the numbers 1 to 9 run along the "
             "diagonals. Black moves first, here from the standard start (the Belgian and German daisy variants "
             "start from other layouts). On your turn you move 1, 2 or 3 of your marbles that stand in a straight "
             "line, one cell.",
             "橫列 A 到 I 由黑方（下方）排到白方（上方）；數字 1 到 9 沿著斜線排列。黑方先走，這裡是標準開局"
             "（比利時雛菊與德國雛菊變體從別的擺法開始）。輪到你時，移動排成一直線的 1、2 或 3 顆自己的棋子，走一格。"),
        ("start", "layouts", "board", "inline"), "abalone", START,
        (Step(
            Text("Move the three marbles A1, B2 and C3 one step up their diagonal, so they stand on B2, C3 and D4. "
                 "Click A1, then the dot on D4 (or type a1b2: the last marble's cell, then where it goes).",
                 "把 A1、B2、C3 三顆棋子沿斜線往前推進一格，變成 B2、C3、D4。先點 A1，再點 D4 上的圓點"
                 "（或輸入 a1b2：最後一顆棋子的位置，再寫它要去的格子）。"),
            Text("An in-line move: the line moved along its own direction. Only the cell in front (D4) had to be "
                 "empty; the marbles behind simply follow.",
                 "這是縱向移動：整條線沿著自己的方向前進。只有前方的格子（D4）必須是空的，後面的棋子跟著走。"),
            Text("That is a legal move, but not the one asked: move the line A1, B2, C3 towards D4.",
                 "這步合法，但不是題目要的：請把 A1、B2、C3 這條線往 D4 方向推進。"),
            accept=("a1b2",)),),
        told=("layouts",),
    ),
    Lesson(
        "broadside", Text("Sideways: the broadside move", "側移"),
        Text("A line of two or three marbles may also move sideways, each marble one cell in the same direction. "
             "Every cell it moves into must be empty: a broadside move never pushes.",
             "兩顆或三顆棋子排成的線也可以整排側移，每顆棋子朝同一方向走一格。要進入的格子都必須是空的："
             "側移永遠不能推擠。"),
        ("broadside",), "abalone", START,
        (Step(
            Text("Move C3, C4 and C5 sideways together into row D. Click the three marbles, then a dot in row D "
                 "(or type c3c5d4: the two end marbles, then where the first one goes).",
                 "把 C3、C4、C5 一起側移到 D 列。依序點這三顆棋子，再點 D 列上的圓點"
                 "（或輸入 c3c5d4：兩端的棋子，再寫第一顆要去的格子）。"),
            Text("A broadside move: the three marbles stepped side by side into three empty cells.",
                 "這是側移：三顆棋子並排走進三個空格。"),
            Text("That move is legal, but it does not move C3, C4 and C5 sideways into row D.",
                 "這步合法，但沒有把 C3、C4、C5 側移到 D 列。"),
            accept=("c3c5d3", "c3c5d4")),),
    ),
    Lesson(
        "sumito", Text("Pushing (sumito)", "推擠"),
        Text("You push the other side's marbles by moving a line in-line into them, but only with more marbles "
             "than they have in front of you: 2 push 1, 3 push 1, 3 push 2. The marbles pushed must have an empty "
             "cell (or the edge) behind them.",
             "沿線把自己的棋子往前推，就能推動對方的棋子，但自己的棋子必須比對方擋在前面的多："
             "二推一、三推一、三推二。被推的棋子後方必須是空格（或棋盤邊緣）。"),
        ("sumito",), "abalone",
        position("a1 a2 a3 a4 a5 b1 b2 b3 b4 b5 b6 e3 e4 e5", "i5 i6 i7 i8 i9 h4 h5 h6 h7 h8 h9 g5 e6 e7"),
        (Step(
            Text("Your three marbles E3, E4, E5 face two white marbles on E6 and E7. Push them: click E3, then the "
                 "red-ringed push (or type e3e4).",
                 "你的三顆棋子 E3、E4、E5 正對著 E6、E7 兩顆白子。推過去：先點 E3，再點有紅圈的推擠落點"
                 "（或輸入 e3e4）。"),
            Text("Three pushed two: your line moved one cell and the two white marbles went back one cell, to E7 "
                 "and E8. Three against two is a majority, and E8 was empty.",
                 "三推二：你的線前進一格，兩顆白子被推後一格，到了 E7、E8。三對二是多數，而且 E8 是空的。"),
            Text("That is legal, but it does not push the white marbles on E6 and E7.",
                 "這步合法，但沒有推動 E6、E7 上的白子。"),
            accept=("e3e4",)),),
    ),
    Lesson(
        "blocked", Text("Pushes that are blocked", "推不動的時候"),
        Text("Equal numbers never push (two cannot push two), and a push is blocked when your own marble stands "
             "right behind the other side's marbles. Try the pushes on E2 and C3 to see the engine refuse them.",
             "數量相等時推不動（二推不動二），對方棋子後方緊貼著自己的棋子時也推不動。"
             "試試從 E2 和 C3 推，看引擎怎麼拒絕。"),
        ("no-equal", "own-behind", "sumito", "broadside-no-push"), "abalone",
        position("a1 a2 a3 a4 a5 b1 e2 e3 c3 c4 c5 c7 g4 g5", "e4 e5 c6 g6 i5 i6 i7 i8 i9 h4 h5 h6 h7 h8"),
        (Step(
            Text("Only one of your three lines can push the white marble in front of it. Find it and push. (Moving "
                 "G4 and G5 sideways onto H4 and H5 pushes nothing: a broadside needs empty cells, try g4g5h4.)",
                 "你的三條線中只有一條推得動前面的白子。找出來，推過去。（把 G4、G5 橫移到 H4、H5 推不了任何東西："
                 "橫向移動需要空格，試試 g4g5h4。）"),
            Text("Two pushed one on row G. On row E two white marbles face your two (equal numbers never push), "
                 "and on row C your own marble on C7 stands behind the white one, which blocks the push.",
                 "G 列二推一成功。E 列是二對二（數量相等推不動），C 列的白子後面緊貼著你自己在 C7 的棋子，"
                 "所以推不動。"),
            Text("That move is legal, but it pushes nothing. Look for the line with more marbles than the white "
                 "ones in front of it and an empty cell behind them.",
                 "這步合法，但沒有推到任何棋子。找一條比前面白子多、白子後方又是空格的線。"),
            accept=("g4g5",), refused=("e2e3", "c3c4", "g4g5h4")),),
    ),
    Lesson(
        "three-max", Text("Three at most", "最多三顆"),
        Text("At most three of your marbles ever move. A fourth marble of yours behind the line does not help, "
             "and one in front blocks it.",
             "每次最多移動三顆自己的棋子。線後面的第四顆自己的棋子幫不上忙，擋在前面的則會擋住。"),
        ("three-max",), "abalone",
        position("a1 a2 a3 a4 a5 b1 b2 b3 b4 b5 e2 e3 e4 e5", "e6 i5 i6 i7 i8 i9 h4 h5 h6 h7 h8 h9 g5 g9"),
        (Step(
            Text("You have four marbles in a row, E2 to E5, against one white marble on E6. Push it with three "
                 "(pushing from E2 would move four, which is not allowed).",
                 "你有四顆棋子排成一排（E2 到 E5），前面是 E6 的一顆白子。用三顆去推"
                 "（從 E2 推會動到四顆，這是不允許的）。"),
            Text("E3, E4 and E5 pushed the white marble to E7; E2 stayed behind. Three is the most that moves.",
                 "E3、E4、E5 把白子推到 E7；E2 留在原地。一次最多只動三顆。"),
            Text("That move is legal, but it does not push the white marble on E6.",
                 "這步合法，但沒有推動 E6 上的白子。"),
            accept=("e3e4",), refused=("e2e3",),
            why={"e4e5": Text("That pushes the white marble with two (E4, E5), which is allowed too, but this time "
                              "push it with three: the line from E3.",
                              "這是用兩顆（E4、E5）推白子，這也可以，但這次請用三顆推：從 E3 開始的那條線。")}),),
    ),
    Lesson(
        "eject", Text("Pushing off the board", "推出棋盤"),
        Text("A marble pushed over the edge of the board is out of the game. Your own marbles can never be "
             "pushed off, not even by you.",
             "被推出棋盤邊緣的棋子就出局了。自己的棋子永遠不能被推出去，自己也不行。"),
        ("eject", "own-off"), "abalone",
        position("a1 a2 a3 a4 a5 b1 b2 b3 b4 b5 e7 e8 d7 d8", "e9 i5 i6 i7 i8 i9 h4 h5 h6 h7 g3 g4 g5 f2"),
        (Step(
            Text("Push the white marble on E9 off the board.",
                 "把 E9 上的白子推出棋盤。"),
            Text("E7 and E8 pushed E9 over the edge: it is out, and the counter under the board shows one white "
                 "marble pushed out. (Your line D7, D8 could not move that way: your own marble would leave the "
                 "board.)",
                 "E7、E8 把 E9 推出邊緣：它出局了，棋盤下方的計數顯示推出一顆白子。"
                 "（你的 D7、D8 不能往那個方向走：自己的棋子會離開棋盤。）"),
            Text("That move is legal, but no white marble went off the board.",
                 "這步合法，但沒有把白子推出棋盤。"),
            goal=_ejected, example="e7e8", refused=("d7d8",)),),
    ),
    Lesson(
        "win", Text("Winning", "獲勝"),
        Text("The first player to push out six of the other side's marbles wins. White has lost five already. "
             "(A side with no legal move at all would lose too, so a game can never stall; it has never happened "
             "in a real game.)",
             "先推出對方六顆棋子的一方獲勝。白方已經被推出五顆了。"
             "（完全無子可動的一方也判負，所以棋局不會卡住；實戰中從未發生過。）"),
        ("win", "no-moves", "eject"), "abalone",
        position("a1 a2 a3 a4 a5 b1 b4 b5 b6 c5 c6 c7 g5 h5", "i5 d1 d2 e1 e2 f2 f3 g3 g4"),
        (Step(
            Text("Win the game: push a sixth white marble off the board.",
                 "贏下這局：把第六顆白子推出棋盤。"),
            Text("G5 and H5 pushed I5 off the top edge: six white marbles are out, and Black wins.",
                 "G5、H5 把 I5 從上方邊緣推出去：白方已有六顆出局，黑方獲勝。"),
            Text("That move is legal, but the game goes on: push a white marble off the board.",
                 "這步合法，但棋局還沒結束：把一顆白子推出棋盤。"),
            goal=_won, example="g5h5"),),
        told=("no-moves",),
    ),
)

COURSE = Course("abalone", Text("Abalone", "Abalone 角力棋"), RULES, LESSONS)
