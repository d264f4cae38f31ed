"""The engines' reasons for refusing a move, in 繁體中文.

The engines explain an illegal move in English (``Game.explain_illegal``); the tutorials show
the reason in the learner's language. :func:`in_chinese` translates the reasons the games give
(pattern by pattern, the names in them too) and says so plainly when it meets one it does not
know, keeping the engine's English.

>>> in_chinese("illegal move e2e3: 2 marbles cannot push 2: a push needs strict majority (2>1, 3>1, 3>2)")
'不合規則的一步 e2e3：2 顆推不動 2 顆：推擠必須以多推少（2>1、3>1、3>2）'
>>> print(in_chinese("cannot read move 'zz'"))
引擎的說明（英文）：cannot read move 'zz'
"""

from __future__ import annotations

import re

NAMES = {
    "black": "黑方", "white": "白方", "red": "紅方", "blue": "藍方", "green": "綠方", "yellow": "黃方",
    "purple": "紫方", "cyan": "青方",
    "crown": "王冠", "shield": "盾牌", "sword": "寶劍", "flag": "旗幟", "knight": "騎士", "hammer": "戰錘",
    "scale": "天秤",
    "wood": "木", "fire": "火", "earth": "土", "metal": "金", "water": "水",
    "peeked": "偷看", "challenged": "挑戰", "answer the challenge": "回答挑戰", "prove the boast": "證明誇口",
}


def _name(word: str) -> str:
    word = re.sub(r"\bplayer (\d) \(team ([AB])\)", r"玩家 \1（\2 隊）", word)
    word = re.sub(r"\bplayer (\d)", r"玩家 \1", word)
    return NAMES.get(word, word)


def _list(text: str) -> str:
    """A list such as "3 or 5" or "wood and metal", its words translated."""
    parts = re.split(r", | or | and ", text)
    return "、".join(_name(p) for p in parts)


NOW = "；現在可以走：{}"
PLAYER = r"(player \d(?: \(team [AB]\))?)"
"""A seat as the engines name it, with its team at the round table."""

PATTERNS: tuple[tuple[str, str], ...] = (
    # The lessons' own bound on a try (qipan.tutorials.lesson.MAX_MOVE)
    (r"a move is at most (\d+) characters", "一步最多 {} 個字元"),
    # Abalone
    (r"(\w+) is empty; a broadside line must be (\w+)'s own marbles", "{} 是空的；側移的線必須全是{}自己的棋子"),
    (r"(\w+) is (\w+)'s; a broadside line must be (\w+)'s own marbles", "{} 是{}的棋子；側移的線必須全是{}自己的棋子"),
    (r"(\w+) is occupied; broadside moves need empty cells and never push",
     "{} 已有棋子；側移需要空格，而且永遠不能推擠"),
    (r"there is no (black|white) marble on (\w+)", "{}在 {} 上沒有棋子"),
    (r"at most three marbles move; a fourth of your own blocks the line",
     "最多只能移動三顆棋子；第四顆自己的棋子擋住了這條線"),
    (r"your own marble would leave the board", "你自己的棋子會離開棋盤"),
    (r"(\w+) would leave the board", "{} 會離開棋盤"),
    (r"a single marble cannot push \((\w+) is occupied\)", "單顆棋子不能推擠（{} 已有棋子）"),
    (r"(\d) marbles cannot push (\d): a push needs strict majority \(2>1, 3>1, 3>2\)",
     "{} 顆推不動 {} 顆：推擠必須以多推少（2>1、3>1、3>2）"),
    (r"(\w+) holds your own marble behind the opponent's, which blocks the push",
     "{} 有你自己的棋子緊貼在對方棋子後面，擋住了推擠"),
    # Tellstones
    (PLAYER + r" must (answer the challenge|prove the boast) by naming a stone: name crown, name shield, \.\.\.",
     "{}必須說出一顆石頭來{}：name crown、name shield……"),
    (PLAYER + r" must answer the boast: believe, doubt or counter",
     "{}必須回應誇口：believe（相信）、doubt（懷疑）或 counter（反誇口）"),
    (PLAYER + r" must answer the counter-boast: believe or doubt \(no counter-boast again\)",
     "{}必須回應反誇口：believe（相信）或 doubt（懷疑）（不能再反誇口）"),
    (r"nothing to answer now; it is " + PLAYER + r"'s turn to act", "現在沒有要回應的事；輪到{}行動"),
    (PLAYER + r" is still peeking: peek another face-down stone or stop",
     "{}還在偷看：再偷看另一顆背面的石頭，或停止（stop）"),
    (r"stop only ends a series of peeks", "stop 只用來結束一串偷看"),
    (r"this game has a single line", "這局只有一條石列"),
    (r"cannot read '(.+)': a swap exchanges two stones of the same line",
     "看不懂「{}」：交換只能交換同一條石列上的兩顆石頭"),
    (r"the line is full", "石列已滿"),
    (r"the (\w+) is already in the line, not in the pool", "{}已在石列上，不在石池裡"),
    (r"stones go directly left or right of the line: (.+)", "石頭只能放在石列緊鄰的左邊或右邊：{}"),
    (r"there is no stone on (\w+)", "{} 號位沒有石頭"),
    (r"the stone on (\w+) is face down already", "{} 號位的石頭已經是背面"),
    (r"swap needs two different stones", "交換需要兩顆不同的石頭"),
    (r"the stone on (\w+) is face up; only face-down stones can be (peeked|challenged)",
     "{} 號位的石頭是正面；只有背面的石頭可以{}"),
    (r"the stone on (\w+) was peeked already this turn", "{} 號位的石頭這回合已經偷看過了"),
    (r"only the round-table variant lets a teammate look", "只有圓桌王策變體可以讓隊友偷看"),
    (r"a boast needs at least one face-down stone", "誇口至少需要一顆背面的石頭"),
    # Chinese Checkers
    (r"the game is over", "棋局已經結束"),
    (r"you can only pass when you have no move, and (\w+) has (\d+)", "只有無路可走時才能讓過，而{}有 {} 步可走"),
    (r"passing is only for a player with no move; the capture game always has one",
     "只有無路可走的玩家才能讓過；食棋永遠有棋可走"),
    (r"the capture game is played on the central hexagon only \(rows e\.\.m, a 5-hole edge\)",
     "食棋只在中央六角形上進行（e 到 m 列，每邊 5 洞）"),
    (r"there is no piece on (\w+) to jump over", "{} 上沒有可以跳過的棋子"),
    (r"a piece steps to a neighbouring hole or jumps over an adjacent piece to capture it",
     "棋子只能走到相鄰的洞，或跳過相鄰的棋子把它吃掉"),
    (r"captures are compulsory and one is available \(e\.g\. (\S+)\)", "能吃就必須吃，現在就有子可吃（例如 {}）"),
    (r"the piece on (\w+) is (\w+)'s; (\w+) is to move", "{} 上的棋子是{}的；現在輪到{}"),
    (r"a move that ends where it started is not a move", "起點和終點相同不算一步"),
    (r"(\w+) is occupied; a move must end on an empty hole", "{} 已有棋子；一步必須停在空洞上"),
    (r"(\w+) is in point (\d), neither your home nor your target: a piece may jump through it but not stop there "
     r"\(other_corners=pass-only\)",
     "{} 在第 {} 角，既非你的家也非目標：棋子可以跳經但不能停留（other_corners=pass-only）"),
    (r"(\w+) is in point (\d), neither your home nor your target: a piece may not enter it "
     r"\(other_corners=forbidden\)", "{} 在第 {} 角，既非你的家也非目標：棋子不能進入（other_corners=forbidden）"),
    (r"no step or single jump leads from (\w+) to (\w+) \(chain=false: one jump per move\)",
     "沒有一步或單跳能從 {} 到 {}（chain=false：每步只能跳一次）"),
    (r"no step or chain of jumps over adjacent pieces leads from (\w+) to (\w+)",
     "沒有一步或跳過相鄰棋子的連跳能從 {} 到 {}"),
    (r"no step or chain of jumps leads from (\w+) to (\w+)", "沒有一步或連跳能從 {} 到 {}"),
    # (a whole jump path typed as the try: its quoted text is the learner's own)
    (r"path ('.*'(?: \(\d+ characters\))?): (\w+)-(\w+) is not a jump here; write the move as start-end "
     r"\(e\.g\. (\S+)\)", "路徑 {}：{}-{} 在這裡不是一次跳躍；請寫成起點-終點（例如 {}）"),
    (r"path ('.*'(?: \(\d+ characters\))?): one jump per move \(chain=false\); write the move as start-end",
     "路徑 {}：每步只能跳一次（chain=false）；請寫成起點-終點"),
    (r"path ('.*'(?: \(\d+ characters\))?): (\w+) is in point (\d), neither home nor target, where a piece may "
     r"not land \(other_corners=forbidden\)", "路徑 {}：{} 在第 {} 角，既非家也非目標，棋子不能落在那裡"
     "（other_corners=forbidden）"),
    # Kelighine
    (r"there is no piece on (\w+); the moves now are: (.+)", "{} 上沒有棋子" + NOW),
    (r"there is no piece on (\w+)", "{} 上沒有棋子"),
    (r"the piece on (\w+) belongs to " + PLAYER + r"; the moves now are: (.+)", "{} 上的棋子屬於{}" + NOW),
    (r"no unused die shows (\d) \(unused dice: (.+)\)", "沒有未使用的骰子是 {}（未使用的骰子：{}）"),
    (r"pieces move counter-clockwise only in version 1 \(write \+n\)", "第一版中棋子只能逆時針移動（寫 +n）"),
    (r"the piece on (\w+) may move clockwise only after completing its lap of this tier",
     "{} 上的棋子要先完成這一環的一圈，才能順時針移動"),
    (r"it is not a legal move here; the moves now are: (.+)", "這裡不能這樣走" + NOW),
    (r"a piece on a corner or start cell \((\w+)\) cannot promote; it enters A with a die",
     "角落或起點上的棋子（{}）不能晉升；它要用骰子進入 A 環"),
    (r"the piece on (\w+) has not completed its lap of tier ([ABC]), so it cannot promote",
     "{} 上的棋子還沒完成 {} 環一圈，不能晉升"),
    (r"(\w+) can only promote to (.+)", "{} 只能晉升到 {}"),
    (r"(\w+) is occupied, and a promotion can never push", "{} 已有棋子，而晉升永遠不能排擠"),
    (r"cannot read '(.+)': a promotion goes from a tier cell to a touching cell of the next tier "
     r"\(A4\^B2, B2\^C1, C3\^J\)", "看不懂「{}」：晉升只能從環上的格子走到下一環相鄰的格子（A4^B2、B2^C1、C3^J）"),
    (PLAYER + r" already has a piece in the middle of a lap of tier ([ABC]) \(one coin per tier\)",
     "{}已有一顆棋子正在繞 {} 環（每環一枚硬幣）"),
    (r"pass is only allowed when no die can be used; the moves now are: (.+)", "只有沒有骰子能用時才能讓過" + NOW),
    (PLAYER + r"'s piece pushed from (\w+) must first be placed: choose one of (.+) \(push:<cell>\)",
     "{}從 {} 被排擠的棋子要先安置：從 {} 中選一格（push:<格子>）"),
    (r"no piece is waiting to be placed after a push; the moves now are: (.+)", "沒有被排擠待安置的棋子" + NOW),
    (r"there is no double-1 choice to make now; the moves now are: (.+)", "現在沒有雙一要選擇" + NOW),
    (PLAYER + r" rolled a double 1 and must choose first: (.+)", "{}擲出雙一，必須先選擇：{}"),
    # Sheng-Ke
    (r"(\S+) \((\S+)\) is not in your hand; you hold (.+)", "{}（{}）不在你的手上；你手上有：{}"),
    (r"(\S+) is (wood|fire|earth|metal|water), but the dice call for (.+)", "{} 屬{}，但骰子要的是{}"),
    (r"(\w+) is orthogonally next to (\w+), placed this turn; the two cards of a turn may not touch",
     "{} 與本回合放在 {} 的牌上下左右相鄰；同一回合的兩張牌不能相鄰"),
    (r"(\w+) is occupied by (\S+)", "{} 已被{}佔據"),
    (r"(\w+) is occupied", "{} 已有棋子"),
    (r"(甲|乙) must first name the element of a 6: pick (.+)", "{}必須先為 6 選定元素：pick {}"),
    (r"(甲|乙) must place a card now \(the dice call for (.+)\)", "{}現在必須召喚一張牌（骰子要的是{}）"),
    (r"that would leave your other die without a card or a legal cell; placing is compulsory, so place both "
     r"cards when you can", "這樣會讓另一顆骰子沒有牌或沒有合法的格子可放；召喚是強制的，能放兩張就必須兩張都放"),
    (r"no such card or cell", "沒有這張牌或這個格子"),
    (r"it is not a legal move here", "這裡不能這樣走"),
)

_COMPILED = tuple((re.compile(pattern + r"\Z"), template) for pattern, template in PATTERNS)
_ILLEGAL = re.compile(r"illegal move (.+?): (.*)\Z", re.DOTALL)
UNKNOWN = "引擎的說明（英文）："


def translate(reason: str) -> str | None:
    """``reason`` (without the "illegal move X: " head) in Chinese, or None when unknown."""
    for pattern, template in _COMPILED:
        found = pattern.match(reason)
        if found:
            return template.format(*(_list(g) if ("," in g or " or " in g or " and " in g) else _name(g)
                                     for g in found.groups()))
    return None


def in_chinese(message: str) -> str:
    """An engine's refusal (``illegal move X: reason``, or a bare reason) in Chinese; an unknown
    reason is kept in English behind a Chinese note that says so."""
    head = _ILLEGAL.match(message)
    reason = head.group(2) if head else message
    said = translate(reason)
    if said is None:
        return UNKNOWN + message
    said = re.sub(r"(玩家 \d)(?=[\u4e00-\u9fff])", r"\1 ", said)  # (a space between a number and 漢字)
    return f"不合規則的一步 {head.group(1)}：{said}" if head else said
