"""The Chinese Checkers course: steps, long jumps and chains, the race's end, and the 食棋
capture game (docs/games/chinese-checkers.md)."""

from __future__ import annotations

from typing import Any

from qipan.games.chinese_checkers.board import NEIGHBOURS, hole_index
from qipan.tutorials.lesson import Course, Lesson, Step, Text

RULES = {
    "board": Text("The star, its points and the hole names", "星形棋盤、六個角與洞的名稱"),
    "players": Text("Two, three, four or six players: their homes, and turns counter-clockwise in seat order",
                    "二、三、四或六人：各自的家，依座位逆時針輪流"),
    "pieces-15": Text("Fifteen pieces each, camps with the next hexagon row (option pieces=15)",
                      "每人十五顆，營地包含相鄰的六角形一排（pieces=15 選項）"),
    "step": Text("Step to a neighbouring hole", "走一步到相鄰的洞"),
    "jump": Text("Jump over a piece, near or far (long jumps)", "跳過一顆棋子，遠近皆可（長跳）"),
    "jump-adjacent": Text("Adjacent-only jumps (option jump=adjacent)", "只能跳過相鄰棋子（jump=adjacent 選項）"),
    "chain": Text("Chains of jumps in one move", "一步中連續跳躍"),
    "step-no-jump": Text("A step never combines with jumps", "走一步不能和跳躍合併"),
    "no-return": Text("A move that ends where it started is not a move", "回到起點的一步不算一步"),
    "start-hole": Text("While a piece jumps, its start hole is empty: a chain may jump across it or land on it",
                       "棋子跳躍時，它的起點是空的：連跳可以越過它，也可以落在它上面"),
    "chain-off": Text("One jump per move (option chain=false)", "每步只能跳一次（chain=false 選項）"),
    "other-corners": Text("Points that are neither home nor target (option other_corners)",
                          "既非己方家也非目標的角（other_corners 選項）"),
    "pass-only": Text("With other_corners=pass-only a chain may land in another point and jump on, never stop there",
                      "other_corners=pass-only 時，連跳可以落在別的角再跳走，但不能停在那裡"),
    "pass": Text("Pass when you have no move", "無路可走時必須讓過"),
    "all-pass": Text("When every player still racing passes in a row, the game ends",
                     "所有還在比賽的玩家連續讓過時，棋局結束"),
    "win": Text("Fill the opposite point to win", "佔滿對面的角即獲勝"),
    "blocked-target": Text("A full target at least half your own counts as filled",
                           "目標角已滿且至少一半是自己的棋子，也算佔滿"),
    "filled-by-other": Text("Anyone's move into the last empty hole of a target finishes its owner",
                            "任何人走進某目標角的最後一個空洞，都會讓該目標的主人抵達終點"),
    "blocked-target-off": Text("Without blocked_target, every hole of the target must be yours",
                               "關閉 blocked_target 時，目標角每個洞都必須是自己的棋子"),
    "play-on": Text("Playing on for the places (option play_on)", "繼續下完排出名次（play_on 選項）"),
    "move-limit": Text("The move limit ends the race (option max_moves)", "步數上限結束比賽（max_moves 選項）"),
    "capture": Text("食棋: jump an adjacent piece to capture it", "食棋：跳過相鄰的棋子把它吃掉"),
    "capture-compulsory": Text("食棋: captures are compulsory", "食棋：能吃就必須吃"),
    "capture-one": Text("食棋: one capture per move", "食棋：每步只吃一顆"),
    "capture-step": Text("食棋: a step when no capture is possible", "食棋：無子可吃時走一步"),
    "capture-hexagon": Text("食棋: every move stays on the central hexagon", "食棋：每一步都留在中央六角形內"),
    "capture-end": Text("食棋: the end when one piece is left", "食棋：只剩一顆時結束"),
    "capture-quiet": Text("食棋: 60 moves in a row without a capture end the game",
                          "食棋：連續 60 步無人吃子，棋局結束"),
    "capture-players": Text("食棋 with two to six players: most captures wins", "多人食棋（二到六人）：吃子最多者獲勝"),
}

ROW_LENGTHS = (1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1)
RED_HOME = "a1 b1 b2 c1 c2 c3 d1 d2 d3 d4"
BLUE_HOME = "n1 n2 n3 n4 o1 o2 o3 p1 p2 q1"


def rows(pieces: dict[str, str]) -> list[str]:
    """The state's rows from {mark: holes separated by spaces} (marks "1".."6", or "o")."""
    grid = [["."] * n for n in ROW_LENGTHS]
    for mark, holes in pieces.items():
        for hole in holes.split():
            grid["abcdefghijklmnopq".index(hole[0])][int(hole[1:]) - 1] = mark
    return ["".join(row) for row in grid]


def race(red: str, blue: str, *, green: str | None = None, ply: int = 20) -> dict[str, Any]:
    """A race position with red (player 1) to move; ``green`` makes it three players."""
    pieces = {"1": red, "2": blue} if green is None else {"1": red, "2": blue, "3": green}
    return {"rows": rows(pieces), "to_move": 0, "finished": [], "passes": 0, "ply": ply}


def capture(holes: str, *, taken: int) -> dict[str, Any]:
    """A 食棋 position for one player (solitaire) who has captured ``taken`` pieces."""
    return {"rows": rows({"o": holes}), "to_move": 0, "scores": [taken], "quiet": 0}


def _a_step(game: Any, before: Any, after: Any) -> bool:
    """Whether the move was a step: exactly one piece left a hole for a neighbouring one."""
    was, now = _pieces(game, before), _pieces(game, after)
    gone, came = set(was) - set(now), set(now) - set(was)
    return len(gone) == len(came) == 1 and hole_index(came.pop()) in NEIGHBOURS[hole_index(gone.pop())]


def _pieces(game: Any, state: Any) -> dict[str, int]:
    pieces: dict[str, int] = game.view(state, None)["pieces"]
    return pieces


def _red_won(game: Any, before: Any, after: Any) -> bool:
    return bool(game.to_move(after) is None and game.returns(after)[0] > 0)


def _red_finished(game: Any, before: Any, after: Any) -> bool:
    return 0 in game.view(after, None)["finished"]


def _blue_racing(game: Any, before: Any, after: Any) -> bool:
    """Whether the move brought a piece out of red's home (rows a to d) and left blue unfinished."""
    was, now = _pieces(game, before), _pieces(game, after)
    left = [hole for hole in set(was) - set(now) if hole[0] in "abcd"]
    return bool(left) and all(hole[0] not in "abcd" for hole in set(now) - set(was)) and \
        1 not in game.view(after, None)["finished"]


def _no_capture_left(game: Any, before: Any, after: Any) -> bool:
    return not _capture_ready(game, before, after)


def _capture_ready(game: Any, before: Any, after: Any) -> bool:
    """Whether a capture is possible after the move (a legal move that is no step)."""
    return any(hole_index(move.split("-")[1]) not in NEIGHBOURS[hole_index(move.split("-")[0])]
               for move in game.legal_texts(after))


LESSONS = (
    Lesson(
        "first-step", Text("The star and a step", "星形棋盤與走一步"),
        Text("Your ten red pieces start in the bottom point (rows a to d); the goal is to bring them all into "
             "the opposite point, where blue starts. Rows are lettered a to q from bottom to top and holes "
             "numbered from the left, so the centre is i5. Red moves first.",
             "你的十顆紅子從下方的角（a 到 d 列）出發，目標是把它們全部帶進對面的角，也就是藍方的起點。"
             "橫列由下到上標為 a 到 q，洞由左往右編號，所以中心是 i5。紅方先走。"),
        ("board", "step"), "chinese-checkers", race(RED_HOME, BLUE_HOME, ply=0),
        (Step(
            Text("Step one of your front pieces (row d) to a neighbouring empty hole: click it, then a dot (or "
                 "type d2-e6).",
                 "把前排（d 列）的一顆棋子走到相鄰的空洞：點它，再點圓點（或輸入 d2-e6）。"),
            Text("A step: one piece to one of the six neighbouring holes. A move is written start-end.",
                 "這是走一步：一顆棋子走到六個相鄰洞之一。一步記作「起點-終點」。"),
            Text("That is a jump, not a step: this time move a front piece to a neighbouring hole.",
                 "那是跳，不是走一步：這次請把前排的棋子走到相鄰的洞。"),
            goal=_a_step, example="d2-e6"),),
    ),
    Lesson(
        "long-jump", Text("The long jump", "長跳"),
        Text("A piece may jump along a line over the first piece on it, mine or yours, however far, landing "
             "just as far beyond: the holes before and after the jumped piece must be empty.",
             "棋子可以沿直線跳過線上遇到的第一顆棋子（不論敵我、遠近），落在另一側同樣距離的洞；"
             "被跳棋子前後的洞都必須是空的。"),
        ("jump",), "chinese-checkers",
        race("a1 b1 b2 c1 c2 c3 d1 d3 d4 i5", "n2 n3 n4 o1 o2 o3 p1 p2 q1 k7"),
        (Step(
            Text("Your piece on i5 and the blue piece on k7 are on one line, two holes apart. Jump over it, "
                 "to the hole as far beyond.",
                 "你在 i5 的棋子和 k7 的藍子在同一直線上，相隔兩洞。跳過它，落在另一側同樣距離的洞。"),
            Text("i5 to m9: two holes to the blue piece, two holes beyond it. Long jumps carry pieces across the "
                 "board quickly.",
                 "i5 跳到 m9：到藍子兩洞，越過後再兩洞。長跳能讓棋子快速橫越棋盤。"),
            Text("That is legal, but it is not the jump over k7.", "這步合法，但不是跳過 k7。"),
            accept=("i5-m9",)),),
    ),
    Lesson(
        "adjacent-jump", Text("Adjacent jumps only", "只能跳相鄰的棋子"),
        Text("With the option jump=adjacent (the classic rule) a piece jumps only over a piece right next to "
             "it, into the hole right behind.",
             "選項 jump=adjacent（經典規則）下，棋子只能跳過緊鄰的棋子，落在它正後方的洞。"),
        ("jump-adjacent",), "chinese-checkers",
        race("a1 b1 b2 c1 c2 c3 d1 d3 d4 i5", "n3 n4 o1 o2 o3 p1 p2 q1 j6 i7"),
        (Step(
            Text("The long jump over i7 to i9 is not allowed here (try it). Jump over the adjacent piece on j6 "
                 "instead.",
                 "這裡不能長跳越過 i7 到 i9（試試看）。改為跳過相鄰在 j6 的棋子。"),
            Text("i5 over j6 to k7: the only kind of jump under this option.",
                 "i5 跳過 j6 到 k7：這個選項下唯一的跳法。"),
            Text("That is legal, but it is not the jump over j6.", "這步合法，但不是跳過 j6。"),
            accept=("i5-k7",), refused=("i5-i9",)),),
        options={"jump": "adjacent"},
    ),
    Lesson(
        "chain", Text("Chains of jumps", "連跳"),
        Text("After a jump the same piece may jump again, as often as it can, and stop on any landing. The move "
             "is written from where it starts to where it stops.",
             "跳一次之後，同一顆棋子可以繼續跳，能跳幾次就跳幾次，並可停在任一落點。記法只寫起點和終點。"),
        ("chain", "step-no-jump", "no-return"), "chinese-checkers",
        race("a1 b1 b2 c1 c2 c3 d1 d3 d4 i5", "n3 n4 o1 o2 o3 p1 p2 q1 j6 l8"),
        (Step(
            Text("Jump from i5 over j6 to k7, and on over l8 to m9, in one move (click i5, then the dot on m9; "
                 "or type i5-m9). A step never combines with jumps: stepping to i6 and jumping j6 from there to "
                 "k6 is no move (try i5-k6). Nor is a chain that comes back to where it started, such as i5 over "
                 "j6 to k7 and back over j6 to i5 (try i5-i5).",
                 "一步之內從 i5 跳過 j6 到 k7，再跳過 l8 到 m9（點 i5，再點 m9 的圓點；或輸入 i5-m9）。"
                 "走一步不能和跳躍合併：先走到 i6 再從那裡跳過 j6 到 k6 不算一步（試試 i5-k6）。"
                 "回到起點的連跳也不算，例如 i5 跳過 j6 到 k7 再跳回 i5（試試 i5-i5）。"),
            Text("Two jumps in one move: i5, k7, m9.", "一步連跳兩次：i5、k7、m9。"),
            Text("That is legal, but it does not end on m9.", "這步合法，但沒有停在 m9。"),
            accept=("i5-m9",), refused=("i5-k6", "i5-i5"),
            why={"i5-k7": Text("You stopped after the first jump: the chain could go on to m9.",
                               "你跳第一次就停了：還可以繼續跳到 m9。")}),),
    ),
    Lesson(
        "start-hole", Text("Across the start hole", "越過起點"),
        Text("While a piece jumps, the hole it started from is empty: a chain may jump across it, or land on it "
             "and jump on (it never jumps over itself). Only the end must differ from the start.",
             "棋子跳躍時，它出發的洞是空的：連跳可以越過它，也可以落在它上面再繼續跳（棋子不會跳過自己）。"
             "只有終點必須和起點不同。"),
        ("start-hole",), "chinese-checkers",
        race("a1 b1 b2 c1 c2 c3 d1 d3 d4 i5", "n1 n2 n3 n4 o1 o2 o3 j6 j7 i4"),
        (Step(
            Text("Take your piece on i5 to i1 in one move: over j6 to k7, over j7 to i7, then the long jump back "
                 "along row i over i4, which flies across i5 itself (click i5, then the dot on i1; or type i5-i1, "
                 "or the whole path i5-k7-i7-i1).",
                 "一步把 i5 的棋子帶到 i1：跳過 j6 到 k7，跳過 j7 到 i7，再沿 i 列長跳越過 i4，"
                 "這一跳正好飛越 i5 本身（點 i5，再點 i1 的圓點；或輸入 i5-i1，或完整路徑 i5-k7-i7-i1）。"),
            Text("i5, k7, i7, i1: the last jump crossed i5, empty since your piece left it. A path may even land on "
                 "its start and go on (i5-k7-i5-i3 is a path of the move i5-i3); only ending there is no move.",
                 "i5、k7、i7、i1：最後一跳越過了 i5，你的棋子離開後它就是空的。路徑甚至可以落回起點再繼續"
                 "（i5-k7-i5-i3 是 i5-i3 這一步的路徑）；只有停在起點才不算一步。"),
            Text("That is legal, but it does not end on i1.", "這步合法，但沒有停在 i1。"),
            accept=("i5-i1",), example="i5-k7-i7-i1",
            why={"i5-i7": Text("You stopped on i7: from there the long jump over i4 crosses i5, empty now, to i1.",
                               "你停在 i7：從那裡長跳越過 i4，經過現在空著的 i5，就能到 i1。")}),),
    ),
    Lesson(
        "one-jump", Text("One jump per move", "每步只跳一次"),
        Text("With the option chain=false a move is a step or a single jump: the chain stops after its first "
             "landing.",
             "選項 chain=false 下，一步只能是走一格或跳一次：跳第一次落下後就停止。"),
        ("chain-off",), "chinese-checkers",
        race("a1 b1 b2 c1 c2 c3 d1 d3 d4 i5", "n3 n4 o1 o2 o3 p1 p2 q1 j6 l8"),
        (Step(
            Text("The chain i5-m9 is not allowed here (try it). Jump from i5 over j6 to k7.",
                 "這裡不能連跳 i5-m9（試試看）。從 i5 跳過 j6 到 k7。"),
            Text("One jump, and the move is over: the jump over l8 waits for your next turn.",
                 "跳一次，這一步就結束了：跳過 l8 要等下一回合。"),
            Text("That is legal, but it is not the jump over j6.", "這步合法，但不是跳過 j6。"),
            accept=("i5-k7",), refused=("i5-m9",)),),
        options={"chain": False},
    ),
    Lesson(
        "other-corners", Text("The other points", "其他的角"),
        Text("The points that are neither your home nor your target may be closed: with other_corners=forbidden "
             "a piece may not enter them at all (with pass-only a chain may land there and jump on, but not "
             "stop).",
             "既非己方家也非目標的角可以被封閉：other_corners=forbidden 時棋子完全不能進入"
             "（pass-only 時連跳可以落在那裡再跳走，但不能停留）。"),
        ("other-corners",), "chinese-checkers",
        race("a1 b1 b2 c1 c2 c3 d1 d3 d4 f9", BLUE_HOME),
        (Step(
            Text("Step the piece on f9 towards your target (the top point) without entering the closed point on "
                 "the right (try f9-f10).",
                 "把 f9 的棋子朝目標（上方的角）走一步，但不要進入右邊封閉的角（試試 f9-f10）。"),
            Text("A step forward, still in the central hexagon.", "往前走了一步，仍在中央六角形內。"),
            Text("That is legal, but it does not step f9 forward (up the board).",
                 "這步合法，但不是讓 f9 往前（往上）走一步。"),
            accept=("f9-g8", "f9-g9"), refused=("f9-f10",)),),
        options={"other_corners": "forbidden"},
    ),
    Lesson(
        "pass-only", Text("Through a closed point", "穿過封閉的角"),
        Text("With other_corners=pass-only a chain may land in a point that is neither your home nor your target "
             "and jump on from there, but no move may end in it. (With forbidden it may not land there at all.)",
             "other_corners=pass-only 時，連跳可以落在既非己方家也非目標的角，再從那裡繼續跳，但任何一步都不能停在"
             "那裡。（forbidden 時連落下都不行。）"),
        ("pass-only",), "chinese-checkers",
        race("a1 b1 b2 c1 c2 c3 d1 d3 d4 f9", "n1 n2 n3 n4 o1 o2 o3 p1 f10 g10"),
        (Step(Text("Stopping in the point on the right is refused (try f9-f11). Jump from f9 over f10 into f11, in "
                   "that point, and on over g10 to h9 in the same move (f9-h9).",
                   "停在右邊的角是不行的（試試 f9-f11）。從 f9 跳過 f10 落在那個角裡的 f11，同一步再跳過 g10 到 h9"
                   "（f9-h9）。"),
              Text("f9, f11, h9: the chain touched the closed point and left it again, which pass-only allows.",
                   "f9、f11、h9：連跳碰到了封閉的角又離開，pass-only 允許這樣做。"),
              Text("That is legal, but it is not the chain through f11 to h9.",
                   "這步合法，但不是經過 f11 到 h9 的連跳。"),
              accept=("f9-h9",), refused=("f9-f11",)),),
        options={"other_corners": "pass-only"},
    ),
    Lesson(
        "pass", Text("No move: pass", "無路可走：讓過"),
        Text("Three players: blue and green have walled your home in, and every hole your pieces could step or "
             "jump to is taken. A player with no legal move must pass. The game takes two, three, four or six "
             "players (option players). The points are numbered 1 to 6 counter-clockwise from red's home at the "
             "bottom; players sit on points 1 and 4 with two, 1, 3 and 5 with three (as here), 1, 2, 4 and 5 with "
             "four, and on all six with six, each racing to the point opposite. Red moves first, then the others "
             "in seat order, counter-clockwise.",
             "三人對局：藍方和綠方把你的家圍住了，你的棋子能走或能跳到的洞全被佔住。無路可走的玩家必須讓過。"
             "本遊戲可以二、三、四或六人玩（players 選項）。六個角從下方紅方的家起逆時針編為 1 到 6；"
             "兩人坐第 1、4 角，三人坐第 1、3、5 角（如本局），四人坐第 1、2、4、5 角，六人坐滿六個角，"
             "各自奔向對面的角。紅方先走，其餘依座位逆時針輪流。"),
        ("pass", "players", "all-pass"), "chinese-checkers",
        race(RED_HOME, "e5 e6 e7 e8 e9 f4 f5 f6 f7 f8", green="f9 j1 k1 k2 l1 l2 l3 m1 m2 m3", ply=40),
        (Step(
            Text("You have no move. Pass (type pass, or use the Pass button).",
                 "你沒有棋可走。讓過（輸入 pass，或按讓過按鈕）。"),
            Text("You passed; blue moves next. If every player still racing passed in a row, nobody could move and "
                 "the game would end, the unfinished players sharing the places left.",
                 "你讓過了，輪到藍方。如果所有還在比賽的玩家連續讓過，就表示沒有人能動，棋局結束，"
                 "未抵達的玩家平分剩下的名次。"),
            Text("Pass is the only move here.", "這裡只能讓過。"),
            accept=("pass",)),),
        options={"players": 3}, told=("players", "all-pass"),
    ),
    Lesson(
        "finish", Text("Finishing, before the move limit", "在步數上限前抵達"),
        Text("You finish when every hole of the opposite point holds your own pieces; the first to finish wins. "
             "This game has a move limit of 100 moves in all (max_moves), and this is move 100: if nobody "
             "finishes now the race ends and the places are shared.",
             "當對面角的每個洞都是你的棋子時就抵達終點，先抵達者獲勝。這局的步數上限是總共 100 步（max_moves），"
             "現在是第 100 步：如果現在沒人抵達，比賽就結束，名次平分。"),
        ("win", "move-limit"), "chinese-checkers",
        race("n1 n2 n3 o1 o2 o3 p1 p2 q1 m8", "h2 h3 h4 h5 h6 h7 h8 h9 g3 g4", ply=99),
        (Step(
            Text("Fill the last hole of your target (n4) and win.", "填滿目標的最後一個洞（n4），贏下這局。"),
            Text("All ten pieces are home in the opposite point: red wins.", "十顆棋子全部到達對面的角：紅方獲勝。"),
            Text("That move does not finish, and it was the last before the limit: the race would end drawn.",
                 "這步沒有抵達終點，而且是上限前的最後一步：比賽會以平手結束。"),
            goal=_red_won, example="m8-n4"),),
        options={"max_moves": 100},
    ),
    Lesson(
        "blocked-target", Text("A blocked target", "被堵住的目標"),
        Text("Blue has parked three pieces in your target. When every hole of a target is full and at least half "
             "of them are your own, it counts as filled (the usual online rule against spoiling).",
             "藍方把三顆棋子停在你的目標角裡。當目標角每個洞都滿了，而且至少一半是你的棋子，就算佔滿"
             "（常見的線上規則，防止惡意堵塞）。"),
        ("blocked-target",), "chinese-checkers",
        race("n1 n2 n3 o1 o2 o3 m8 h5 h6 g5", "p1 p2 q1 h2 h3 h4 g3 g4 f4 f5"),
        (Step(
            Text("Fill the last empty hole of your target.", "填滿目標角最後一個空洞。"),
            Text("The target is full, seven of its ten pieces red: it counts as filled and red wins.",
                 "目標角滿了，十顆中有七顆是紅子：算是佔滿，紅方獲勝。"),
            Text("That is legal, but it does not fill your target.", "這步合法，但沒有填滿目標角。"),
            goal=_red_won, example="m8-n4"),),
    ),
    Lesson(
        "their-last-hole", Text("The last hole of their target", "對方目標的最後一個洞"),
        Text("Blue's target is your home. Nine of its ten holes are taken, six by blue pieces, three by your "
             "stragglers on d2, d3 and d4; only c2 is empty. Whoever fills the last empty hole of a target, "
             "anyone's piece, finishes its owner when at least half of it is the owner's own.",
             "藍方的目標就是你的家。十個洞中九個有棋子，六顆是藍子，三顆是你留在 d2、d3、d4 的落後棋子；"
             "只有 c2 是空的。不論是誰的棋子，只要填滿某目標角的最後一個空洞，而且其中至少一半是目標主人的棋子，"
             "目標的主人就抵達終點。"),
        ("filled-by-other",), "chinese-checkers",
        race("d2 d3 d4 n1 n2 n3 o1 o2 h5 g6", "a1 b1 b2 c1 c3 d1 h3 h4 f5 f6", ply=80),
        (Step(
            Text("Your piece on g6 could jump into c2 (try g6-c2 and see why not). Bring a straggler out of your "
                 "home instead: step d2, d3 or d4 up into the hexagon.",
                 "你在 g6 的棋子可以跳進 c2（試試 g6-c2，看看為什麼不行）。改為把落後的棋子帶出家："
                 "把 d2、d3 或 d4 往上走進六角形。"),
            Text("One straggler is out, and c2 stays empty: blue has not finished. Had a piece of yours filled c2, "
                 "blue would have won by your move.",
                 "一顆落後的棋子出來了，c2 仍是空的：藍方沒有抵達。要是你的棋子填了 c2，藍方就會因你這一步獲勝。"),
            Text("That leaves your stragglers in your home: step d2, d3 or d4 up into the hexagon.",
                 "那樣落後的棋子還留在家裡：把 d2、d3 或 d4 往上走進六角形。"),
            goal=_blue_racing, example="d2-e6",
            why={"g6-c2": Text("That fills c2, the last empty hole of blue's target: all ten holes full, six of them "
                               "blue, so blue finishes and wins, by your move.",
                               "那會填滿 c2，藍方目標的最後一個空洞：十個洞全滿，其中六顆是藍子，"
                               "所以藍方抵達終點獲勝，而且是因為你這一步。")}),),
    ),
    Lesson(
        "no-blocked-target", Text("Without the blocked-target rule", "不用堵塞規則時"),
        Text("With blocked_target=false (OpenSpiel's rule) every hole of your target must hold your own pieces. "
             "Blue has left three pieces in your target.",
             "blocked_target=false（OpenSpiel 的規則）時，目標角的每個洞都必須是你自己的棋子。"
             "藍方有三顆棋子留在你的目標角裡。"),
        ("blocked-target-off",), "chinese-checkers",
        race("n1 n2 n3 o1 o2 o3 m8 h5 h6 g5", "p1 p2 q1 h2 h3 h4 g3 g4 f4 f5"),
        (Step(
            Text("Fill the last empty hole of your target anyway (m8-n4).", "還是把目標角最後一個空洞填滿（m8-n4）。"),
            Text("The target is full, but three of its holes are blue's: without blocked_target that is no finish. "
                 "Blue's pieces must leave first, and nothing makes them.",
                 "目標角滿了，但有三個洞是藍子：關閉 blocked_target 時這不算抵達。"
                 "藍子必須先離開，而沒有規則逼它們離開。"),
            Text("That is legal, but it does not fill your target's last hole.",
                 "這步合法，但沒有填滿目標角的最後一個洞。"),
            accept=("m8-n4",)),),
        options={"blocked_target": False},
    ),
    Lesson(
        "fifteen", Text("Fifteen pieces", "十五顆棋子"),
        Text("With pieces=15 (two or three players only) each camp is the point plus the 5-hole row of the "
             "hexagon next to it: your target is rows n to q and m5 to m9. With four or six players such camps "
             "would overlap, so the option is refused.",
             "pieces=15（只限二或三人）時，每個營地是角加上相鄰的六角形那一排 5 個洞：你的目標是 n 到 q 列與 m5 到 m9。"
             "四人或六人時營地會重疊，所以不接受這個選項。"),
        ("pieces-15",), "chinese-checkers",
        race("n1 n2 n3 n4 o1 o2 o3 p1 p2 q1 m5 m6 m7 m8 l9",
             " ".join(f"f{i}" for i in range(1, 13)) + " g1 g2 g3", ply=60),
        (Step(
            Text("Fourteen of your fifteen pieces are in the target. Fill its last hole and win.",
                 "你十五顆棋子中有十四顆已在目標內。填滿最後一個洞，贏下這局。"),
            Text("m9 was the last hole of the fifteen: red wins.", "m9 是十五個洞的最後一個：紅方獲勝。"),
            Text("That does not fill the target: its last empty hole is m9, in the hexagon row.",
                 "這步沒有填滿目標：最後一個空洞是六角形那一排的 m9。"),
            goal=_red_won, example="l9-m9"),),
        options={"pieces": 15},
    ),
    Lesson(
        "play-on", Text("Playing on for places", "繼續爭名次"),
        Text("With play_on the game goes on after the first player finishes: the others race for second and "
             "third place, and finished players are skipped.",
             "開啟 play_on 時，第一位抵達後棋局繼續：其他人爭奪第二、第三名，已抵達的玩家會被跳過。"),
        ("play-on",), "chinese-checkers",
        race("n1 n2 n3 o1 o2 o3 p1 p2 q1 m8", "j10 k10 k11 l10 l11 l12 m10 m11 m12 m13",
             green="j1 k1 k2 l1 l2 l3 m1 m2 m3 m4"),
        (Step(
            Text("Finish: fill n4.", "抵達終點：填滿 n4。"),
            Text("Red is first; blue and green play on for second and third place.",
                 "紅方第一；藍方和綠方繼續爭奪第二、第三名。"),
            Text("That is legal, but it does not finish.", "這步合法，但沒有抵達終點。"),
            goal=_red_finished, example="m8-n4"),),
        options={"players": 3, "play_on": True},
    ),
    Lesson(
        "capture", Text("食棋: capturing", "食棋：吃子"),
        Text("食棋 is played on the central hexagon, all full but the centre. Pieces belong to nobody: a piece "
             "that jumps an adjacent piece into the empty hole right behind it captures it. Captures are "
             "compulsory: while one is possible, a step is refused.",
             "食棋在中央六角形上進行，除了中心以外全部放滿。棋子不屬於任何人：跳過相鄰棋子落到它正後方的空洞，"
             "就把它吃掉。能吃就必須吃：只要有子可吃，就不能走一步。"),
        ("capture", "capture-compulsory"), "chinese-checkers",
        {"rows": rows({"o": " ".join(
            [f"e{i}" for i in range(5, 10)] + [f"f{i}" for i in range(4, 10)] + [f"g{i}" for i in range(3, 10)]
            + [f"h{i}" for i in range(2, 10)] + ["i1", "i2", "i3", "i4", "i6", "i7", "i8", "i9"]
            + [f"j{i}" for i in range(2, 10)] + [f"k{i}" for i in range(3, 10)] + [f"l{i}" for i in range(4, 10)]
            + [f"m{i}" for i in range(5, 10)])}), "to_move": 0, "scores": [0], "quiet": 0},
        (Step(
            Text("Capture the piece on i4: jump from i3 over it into the empty centre (try the step i4-i5 first).",
                 "吃掉 i4 的棋子：從 i3 跳過它落到空著的中心（先試試走一步 i4-i5）。"),
            Text("i3 jumped i4 into i5: the piece on i4 is captured and you score a point.",
                 "i3 跳過 i4 落在 i5：i4 的棋子被吃掉，你得一分。"),
            Text("That capture takes another piece: jump from i3 over i4.", "那樣吃的是另一顆：請從 i3 跳過 i4。"),
            accept=("i3-i5",), refused=("i4-i5",)),),
        variant="capture", options={"players": 1},
    ),
    Lesson(
        "one-capture", Text("食棋: one capture per move", "食棋：每步只吃一顆"),
        Text("A 食棋 move captures one piece at most: a jump never chains on to a second capture, even when one "
             "is ready.",
             "食棋每步最多吃一顆：即使還能接著吃，跳躍也不能連續進行第二次吃子。"),
        ("capture-one",), "chinese-checkers", capture("i3 i4 i6", taken=57),
        (Step(Text("Capture i4 from i3, landing on i5 (going on over i6 to i7 in the same move is refused: try "
                   "i3-i7).",
                   "從 i3 吃掉 i4，落在 i5（同一步再跳過 i6 到 i7 是不行的：試試 i3-i7）。"),
              Text("One capture, and the move is over. The piece on i5 now stands next to i6.",
                   "吃一顆，這一步就結束了。i5 的棋子現在緊鄰 i6。"),
              Text("Capture i4 from i3.", "從 i3 吃掉 i4。"), accept=("i3-i5",), refused=("i3-i7",),
              why={"i4-i2": Text("That captures too, but leaves i2 and i6 far apart: no capture is left to finish "
                                 "with.", "這也是吃子，但留下的 i2 和 i6 相隔很遠：之後就沒有子可吃了。")}),
         Step(Text("Now the second capture, as a move of its own: leave one piece.",
                   "現在另走一步完成第二次吃子：只留下一顆。"),
              Text("One piece left: you have solved the solitaire.", "只剩一顆：你完成了單人食棋。"),
              Text("Capture the other piece.", "吃掉另一顆。"), goal=_red_won, example="i5-i7")),
        variant="capture", options={"players": 1},
    ),
    Lesson(
        "capture-end", Text("食棋: the last piece", "食棋：最後一顆"),
        Text("When no capture is possible, a move is a step to a neighbouring hole. Played alone, 食棋 is won by "
             "leaving exactly one piece; with several players, most captures wins. The game also ends after 60 "
             "moves in a row without a capture.",
             "無子可吃時，一步就是走到相鄰的洞。一個人玩時，剩下恰好一顆棋子就贏；多人對局時吃子最多者獲勝。"
             "連續 60 步沒有人吃子，棋局也會結束。"),
        ("capture-step", "capture-end"), "chinese-checkers", capture("i3 i5", taken=58),
        (Step(Text("Two pieces are left, apart: no capture. Step one so that they stand side by side.",
                   "只剩兩顆，彼此分開：無子可吃。走一步讓它們並排。"),
              Text("Now one can jump the other.", "現在其中一顆可以跳過另一顆了。"),
              Text("That step leaves no capture: bring the two pieces side by side.",
                   "這步之後無子可吃：讓兩顆棋子並排。"),
              goal=_capture_ready, example="i5-i4"),
         Step(Text("Capture, and leave one piece.", "吃子，只留下一顆。"),
              Text("One piece left: you have solved the solitaire.", "只剩一顆：你完成了單人食棋。"),
              Text("Capture the other piece.", "吃掉另一顆。"),
              goal=_red_won, example="i4-i2")),
        variant="capture", options={"players": 1},
    ),
    Lesson(
        "capture-quiet", Text("食棋: sixty quiet moves", "食棋：六十步無人吃子"),
        Text("A 食棋 game also ends after 60 moves in a row without a capture. Red leads blue 29 to 28, three "
             "pieces are left, and the last 58 moves captured nothing.",
             "食棋連續 60 步沒有人吃子，棋局也會結束。紅方以 29 比 28 領先藍方，場上剩三顆棋子，"
             "最近 58 步都沒有人吃子。"),
        ("capture-quiet", "capture-hexagon"), "chinese-checkers",
        {"rows": rows({"o": "h8 i9 j8"}), "to_move": 0, "scores": [29, 28], "quiet": 58},
        (Step(Text("Step a piece so that blue has no capture: then blue's step is the 60th without one, and the game "
                   "ends with you ahead. (Moves stay on the central hexagon: i9 cannot leave it, try i9-j10.)",
                   "走一步，讓藍方無子可吃：這樣藍方的下一步就是第 60 步無人吃子，棋局在你領先時結束。"
                   "（每一步都留在中央六角形內：i9 不能離開，試試 i9-j10。）"),
              Text("Blue had no capture and stepped i9 to i8: sixty moves without a capture, and the game is over. "
                   "Red wins 29 to 28.",
                   "藍方無子可吃，把 i9 走到 i8：六十步無人吃子，棋局結束。紅方以 29 比 28 獲勝。"),
              Text("After that step blue can capture, and must: 29 all, and the count of quiet moves starts again.",
                   "走了那步之後，藍方有子可吃，而且必須吃：29 比 29 平手，無人吃子的步數重新計算。"),
              goal=_no_capture_left, example="h8-g8", replies=("i9-i8",), refused=("i9-j10",)),),
        variant="capture", options={"players": 2},
    ),
    Lesson(
        "capture-players", Text("食棋 for two", "兩人食棋"),
        Text("食棋 takes one to six players (option players), moving in turn; the pieces still belong to nobody, "
             "and with two or more players the most captures wins (equal captures share the place). Red and "
             "blue have captured 29 pieces each, and two are left, side by side.",
             "食棋可以一到六人玩（players 選項），輪流走；棋子仍不屬於任何人，兩人以上時吃子最多者獲勝"
             "（吃子數相同則名次並列）。紅方和藍方各吃了 29 顆，只剩兩顆並排。"),
        ("capture-players",), "chinese-checkers",
        {"rows": rows({"o": "i3 i4"}), "to_move": 0, "scores": [29, 29], "quiet": 0},
        (Step(Text("Take the last capture and win 30 to 29.", "吃下最後一顆，以 30 比 29 獲勝。"),
              Text("One piece is left and the game is over: red captured 30, blue 29, and red wins.",
                   "只剩一顆，棋局結束：紅方吃了 30 顆，藍方 29 顆，紅方獲勝。"),
              Text("Capture.", "吃子。"), goal=_red_won, example="i3-i5"),),
        variant="capture", options={"players": 2},
    ),
)

COURSE = Course("chinese-checkers", Text("Chinese Checkers", "跳棋"), RULES, LESSONS)
