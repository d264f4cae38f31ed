"""The Tellstones course: the six actions, answers, boasts and the variants
(docs/games/tellstones.md)."""

from __future__ import annotations

from typing import Any

from qipan.tutorials.lesson import Course, Lesson, Step, Text

RULES = {
    "setup": Text("Setup: a stone face up in the middle", "開局：中央一顆正面朝上的石頭"),
    "setup-options": Text("Options: the first stone, and who starts (or a random draw)",
                          "選項：第一顆石頭，以及誰先開始（或隨機決定）"),
    "place": Text("Place a stone at an end of the line", "放置：把石頭放在石列的一端"),
    "hide": Text("Hide a face-up stone", "蓋牌：把正面的石頭翻成背面"),
    "swap": Text("Swap two stones", "交換：兩顆石頭互換位置"),
    "peek": Text("Peek at a face-down stone", "偷看：看一顆背面的石頭"),
    "hidden": Text("Only face-up stones are public", "只有正面的石頭是公開的"),
    "challenge": Text("Challenge: name a face-down stone", "挑戰：要對方說出背面石頭"),
    "naming": Text("Naming a stone", "說出石頭的名字"),
    "nothing-fits": Text("An action that needs something absent is illegal", "缺少所需條件的動作不合規則"),
    "boast-believe": Text("Boast, and believe", "誇口與相信"),
    "boast-prove": Text("Doubt, and prove a boast", "懷疑與證明誇口"),
    "failed-proof": Text("One wrong name in a proof, and the boaster loses at once", "證明時錯一顆，誇口者立即落敗"),
    "counter-boast": Text("Counter-boast", "反誇口"),
    "peek-three": Text("Peeking up to three after the other side scores", "對方得分後可偷看至多三顆"),
    "three-points": Text("Three points win", "先得三分者獲勝"),
    "round-table": Text("The round table: two teams, a peek for the partner", "圓桌王策：兩隊，可讓隊友偷看"),
    "round-table-boasts": Text("The round table: the boaster answers a counter-boast; teammates prove in turn",
                               "圓桌王策：反誇口由誇口者回應；隊友輪流證明"),
    "round-table-peeks": Text("The round table: three peeks in all for the team, each for you or your partner",
                              "圓桌王策：全隊共偷看三顆，每顆由你或隊友看"),
    "two-lines": Text("Two lines", "畫下棋線：兩條石列"),
    "two-lines-scope": Text("Two lines: a swap stays within a line, a boast covers both",
                            "兩條石列：交換只在同一列內，誇口涵蓋兩列"),
    "two-lines-peeks": Text("Two lines: a series of peeks may pick its stones on either line",
                            "兩條石列：一串偷看可以任選兩列的石頭"),
}

Slots = list[str | None]


def table(*lines: str, variant: str | None = None, scores: tuple[int, int] = (0, 0), phase: str = "turn",
          actor: int = 0, turn_player: int = 0, turn: int = 6, catch_up: bool = False,
          challenged: str | None = None, boaster: int | None = None) -> dict[str, Any]:
    """A state: each line as seven comma-separated slots (a stone, ``-stone`` face down, or
    nothing), seat ``actor`` deciding; ``catch_up``: the learner (seat 0) may peek up to three."""
    seats = 4 if variant == "round-table" else 2
    slots: list[Slots] = [[name or None for name in line.split(",")] for line in lines]
    return {
        "lines": slots, "phase": phase, "scores": list(scores), "turn_player": turn_player, "actor": actor,
        # (an allowance waiting is taken up as the seat's turn begins: catch_up is then false again)
        "catch_up": [False] * seats, "turn": turn, "ply": turn + 2,
        "peek_allowance": 3 if catch_up else 1, "peeks_left": 0, "peeked": [], "challenged": challenged,
        "boaster": boaster, "winner": None, "end": None, "last": None,
    }


def _json(game: Any, state: Any) -> dict[str, Any]:
    data: dict[str, Any] = game.state_to_json(state)
    return data


def _placed(game: Any, before: Any, after: Any) -> bool:
    def count(state: Any) -> int:
        return sum(slot is not None for line in _json(game, state)["lines"] for slot in line)
    return count(after) > count(before)


def _placed_on_b(game: Any, before: Any, after: Any) -> bool:
    def count(state: Any) -> int:
        return sum(slot is not None for slot in _json(game, state)["lines"][1])
    return count(after) > count(before)


def _peeking(game: Any, before: Any, after: Any) -> bool:
    return bool(_json(game, after)["phase"] == "peeking")


def _turn_over(game: Any, before: Any, after: Any) -> bool:
    return bool(_json(game, after)["turn_player"] != _json(game, before)["turn_player"])


def _challenged(game: Any, before: Any, after: Any) -> bool:
    return bool(_json(game, after)["phase"] == "answer-challenge")


REMEMBER = Text("That is not the stone asked for. In a game a wrong name is final; here, try again.",
                "這不是要說的那顆石頭。實戰中說錯就定案了；這裡可以再試一次。")

LESSONS = (
    Lesson(
        "place", Text("Placing a stone", "放置石頭"),
        Text("The game starts with one stone face up in the middle of the line (the scale, by tradition). The "
             "other six wait in the pool. Stones join the line only at its ends, so the line is always one "
             "unbroken row. (Two options change the start: first_stone names the middle stone, first_player the "
             "seat that starts, or random to draw it.)",
             "開局時，石列中央有一顆正面朝上的石頭（依慣例是天秤），其餘六顆在石池裡。"
             "石頭只能接在石列的兩端，所以石列永遠是連續的一排。"
             "（兩個選項可以改變開局：first_stone 指定中央的石頭，first_player 指定誰先開始，"
             "或設為 random 隨機抽出。）"),
        ("setup", "setup-options", "place"), "tellstones", table(",,,scale,,,", turn=0),
        (Step(
            Text("Place a stone from the pool next to the scale: click a pool stone, then a highlighted slot (or "
                 "type place crown 3).",
                 "從石池拿一顆石頭放在天秤旁邊：點石池裡的石頭，再點亮起的位置（或輸入 place crown 3）。"),
            Text("Your stone joined the line face up, right beside the scale. Everyone saw which stone it is.",
                 "你的石頭正面朝上接在天秤旁邊。大家都看到了它是哪一顆。"),
            Text("That is not a place move.", "這不是放置。"),
            goal=_placed, example="place crown 3", refused=("place crown 2",)),),
        told=("setup-options",),
    ),
    Lesson(
        "hide", Text("Hiding a stone", "蓋牌"),
        Text("Hiding turns a face-up stone face down; it keeps its slot. Everyone sees which stone you hid, so "
             "for now both of you know it.",
             "蓋牌把一顆正面的石頭翻成背面，位置不變。大家都看到你蓋的是哪一顆，所以此刻雙方都知道它。"),
        ("hide",), "tellstones", table(",,crown,scale,shield,,"),
        (Step(
            Text("Hide the crown on slot 3: click it, then Hide (or type hide 3).",
                 "把 3 號位的王冠蓋起來：點它，再點「蓋牌」（或輸入 hide 3）。"),
            Text("The crown is face down now. From here on, only memory says which stone is on 3.",
                 "王冠翻成背面了。從現在起，只能靠記憶知道 3 號位是哪一顆。"),
            Text("That is legal, but it does not hide the crown on slot 3.", "這步合法，但沒有把 3 號位的王冠蓋起來。"),
            accept=("hide 3",)),),
    ),
    Lesson(
        "swap", Text("Swapping stones", "交換石頭"),
        Text("Swap exchanges two stones of the line, whatever their faces; they keep their faces. It is how you "
             "muddle the other side's memory.",
             "交換讓石列上的兩顆石頭互換位置，正反面不變。這是擾亂對方記憶的方法。"),
        ("swap",), "tellstones", table(",,crown,-scale,-knight,,"),
        (Step(
            Text("The scale (slot 4) and the knight (slot 5) are face down. Swap them: click one, then the other "
                 "(or type swap 4 5).",
                 "天秤（4 號位）和騎士（5 號位）都是背面。交換它們：點一顆，再點另一顆（或輸入 swap 4 5）。"),
            Text("The knight is on 4 now and the scale on 5. Your opponent watched the swap: did they follow it?",
                 "現在騎士在 4 號位、天秤在 5 號位。對手看著你交換：他跟上了嗎？"),
            Text("That is legal, but it does not swap the stones on 4 and 5.",
                 "這步合法，但沒有交換 4 號和 5 號位的石頭。"),
            accept=("swap 4 5",)),),
    ),
    Lesson(
        "peek", Text("Peeking", "偷看"),
        Text("Peeking shows you a face-down stone; only you see it, and only once. The others see that you "
             "peeked, not what you saw. Only face-up stones are public.",
             "偷看讓你看一顆背面的石頭；只有你看得到，而且只看一次。其他人只知道你偷看了，不知道你看到什麼。"
             "只有正面的石頭是公開的。"),
        ("peek", "hidden"), "tellstones", table(",,crown,-scale,shield,,"),
        (Step(
            Text("Peek at the face-down stone on slot 4: click it, then Peek (or type peek 4).",
                 "偷看 4 號位背面的石頭：點它，再點「偷看」（或輸入 peek 4）。"),
            Text("It is the scale, shown in gold for you alone. After the next action the board will not show it "
                 "again: remember it.",
                 "是天秤，只有你看得到（以金色顯示）。下一個動作之後棋盤就不再顯示：請記住它。"),
            Text("That is legal, but it does not peek at the stone on slot 4.", "這步合法，但不是偷看 4 號位。"),
            accept=("peek 4",)),),
    ),
    Lesson(
        "challenge", Text("Challenging", "挑戰"),
        Text("A challenge points at a face-down stone; the other side must name it. It turns face up. If they "
             "name it right, they score a point; if wrong, you do.",
             "挑戰指定一顆背面的石頭，對方必須說出它是什麼。石頭隨即翻開。說對了對方得一分，說錯了你得一分。"),
        ("challenge",), "tellstones", table(",,-crown,scale,-knight,,"),
        (Step(
            Text("Your opponent has not seen the stone on slot 3 for a long time. Challenge it (click it, then "
                 "Challenge, or type challenge 3).",
                 "對手很久沒看過 3 號位的石頭了。挑戰它（點它，再點「挑戰」，或輸入 challenge 3）。"),
            Text("They named the flag, but it was the crown: you score 1 point. Had they named it right, the "
                 "point would have been theirs.",
                 "對手說是旗幟，但那是王冠：你得 1 分。要是他說對了，這一分就歸他。"),
            Text("That is legal, but it does not challenge the stone on slot 3.", "這步合法，但不是挑戰 3 號位。"),
            accept=("challenge 3",), replies=("name flag",)),),
    ),
    Lesson(
        "answer", Text("Answering a challenge", "回答挑戰"),
        Text("Your opponent challenges the stone on slot 4. A moment ago you watched it being hidden: it is the "
             "sword. Any of the seven stones may be named; a stone that shows face up elsewhere is simply wrong.",
             "對手挑戰 4 號位的石頭。你剛才看著它被蓋起來：它是寶劍。七種石頭都可以說；"
             "說一顆正面在別處的石頭就一定是錯的。"),
        ("naming", "challenge"), "tellstones",
        table(",,crown,-sword,-knight,,", phase="answer-challenge", turn_player=1, challenged="4"),
        (Step(
            Text("Name the stone on slot 4 (click its button, or type name sword).",
                 "說出 4 號位的石頭（點它的按鈕，或輸入 name sword）。"),
            Text("Right: the sword turns face up and you score 1 point.", "答對了：寶劍翻開，你得 1 分。"),
            REMEMBER, accept=("name sword",)),),
    ),
    Lesson(
        "boast", Text("Boasting", "誇口"),
        Text("A boast says: I know every face-down stone. The other side answers: believe (you score 1), doubt "
             "(you must prove it) or counter-boast.",
             "誇口是宣稱：我知道所有背面的石頭。對方回應：相信（你得 1 分）、懷疑（你必須證明）或反誇口。"),
        ("boast-believe",), "tellstones", table(",,-crown,-scale,-knight,,"),
        (Step(
            Text("Boast (click Boast, or type boast).", "誇口（點「誇口」，或輸入 boast）。"),
            Text("Your opponent believed you: you score 1 point without showing anything.",
                 "對手相信了你：你不必翻開任何石頭就得 1 分。"),
            Text("That is legal, but it is not a boast.", "這步合法，但不是誇口。"),
            accept=("boast",), replies=("believe",)),),
    ),
    Lesson(
        "prove", Text("Proving a boast", "證明誇口"),
        Text("If your boast is doubted you must name every face-down stone, from left to right. All right: you "
             "win at once, whatever the score. One wrong: you lose at once. You remember: 3 is the crown, 4 the "
             "scale, 5 the knight.",
             "誇口被懷疑時，你必須由左到右說出每一顆背面的石頭。全對：不論比分立即獲勝。錯一顆：立即落敗。"
             "你記得：3 號是王冠，4 號是天秤，5 號是騎士。"),
        ("boast-prove", "naming"), "tellstones", table(",,-crown,-scale,-knight,,"),
        (Step(Text("Boast.", "誇口。"),
              Text("Your opponent doubts you: now prove it, starting with the leftmost face-down stone.",
                   "對手懷疑你：現在由最左邊的背面石頭開始證明。"),
              Text("That is legal, but it is not a boast.", "這步合法，但不是誇口。"),
              accept=("boast",), replies=("doubt",)),
         Step(Text("Name the stone on slot 3.", "說出 3 號位的石頭。"),
              Text("Right: the crown turns face up.", "對了：王冠翻開。"), REMEMBER, accept=("name crown",)),
         Step(Text("Name the stone on slot 4.", "說出 4 號位的石頭。"),
              Text("Right: the scale turns face up.", "對了：天秤翻開。"), REMEMBER, accept=("name scale",)),
         Step(Text("Name the stone on slot 5.", "說出 5 號位的石頭。"),
              Text("All three right: you win the game at once, whatever the score.",
                   "三顆全對：不論比分，你立即獲勝。"),
              REMEMBER, accept=("name knight",))),
    ),
    Lesson(
        "doubt", Text("Doubting a boast", "懷疑誇口"),
        Text("Your opponent boasts. If you doubt, they must name every face-down stone from left to right: one "
             "wrong name and they lose at once, whatever the score. You watched the swaps: you think they lost "
             "track of the stone on 4.",
             "對手誇口了。你懷疑的話，他必須由左到右說出每一顆背面的石頭：錯一顆就立即落敗，不論比分。"
             "你一直看著交換：你認為他已經記不得 4 號位的石頭。"),
        ("failed-proof",), "tellstones",
        table(",,-crown,-scale,-knight,,", phase="answer-boast", turn_player=1, boaster=1),
        (Step(Text("Doubt the boast (click Doubt, or type doubt).", "懷疑這個誇口（點「懷疑」，或輸入 doubt）。"),
              Text("They named the crown on 3, right, then the knight on 4, but it is the scale: a failed proof, "
                   "and you win at once.",
                   "對手說 3 號是王冠，對了；再說 4 號是騎士，但那是天秤：證明失敗，你立即獲勝。"),
              Text("That is legal, but it is not a doubt: believing gives them the point without a proof.",
                   "這步合法，但不是懷疑：相信的話，對手不必證明就得分。"),
              accept=("doubt",), replies=("name crown", "name knight"),
              why={"counter": Text("That is legal, but a counter-boast puts you to the proof instead: doubt, and "
                                   "they must prove.",
                                   "這步合法，但反誇口會變成由你來證明：懷疑的話，就是對手必須證明。")}),),
    ),
    Lesson(
        "counter", Text("The counter-boast", "反誇口"),
        Text("Your opponent boasts. Instead of believing or doubting, you may counter-boast: \"so what, I know "
             "them too\". Now they answer you: believe (you score 1) or doubt (you must prove). A counter-boast "
             "cannot be countered.",
             "對手誇口。你可以不相信也不懷疑，而是反誇口：「那又怎樣，我也知道」。現在換對手回應你："
             "相信（你得 1 分）或懷疑（你必須證明）。反誇口不能再被反誇口。"),
        ("counter-boast",), "tellstones",
        table(",,-crown,-scale,-knight,,", phase="answer-boast", turn_player=1, boaster=1),
        (Step(
            Text("Counter-boast (click Counter-boast, or type counter).", "反誇口（點「反誇口」，或輸入 counter）。"),
            Text("Your opponent believed your counter-boast: you score 1 point.", "對手相信了你的反誇口：你得 1 分。"),
            Text("That is legal, but it is not a counter-boast.", "這步合法，但不是反誇口。"),
            accept=("counter",), replies=("believe",)),),
    ),
    Lesson(
        "peek-three", Text("Catching up: three peeks", "追分：偷看三顆"),
        Text("When the other side has just scored, in their last turn or in your own (they answered your "
             "challenge right, or you believed their counter-boast), your next turn may peek at up to three different "
             "face-down stones, one after another, and stop when you like. Each point against you gives you one such "
             "turn.",
             "對方剛得分時（在他上一回合，或在你自己的上一回合：他答對了你的挑戰，或你相信了他的反誇口），"
             "你的下一回合可以接連偷看至多三顆不同的背面石頭，隨時可以停止。每失一分，就得到一次這樣的回合。"),
        ("peek-three",), "tellstones", table(",,-crown,-scale,-knight,,", scores=(0, 1), catch_up=True),
        (Step(Text("Your opponent just scored. Peek at a face-down stone.", "對手剛得分。偷看一顆背面的石頭。"),
              Text("You may peek again: you still have two peeks.", "你還可以再偷看：還剩兩次。"),
              Text("That is legal, but it is not a peek.", "這步合法，但不是偷看。"),
              goal=_peeking, example="peek 3"),
         Step(Text("Peek at another face-down stone.", "再偷看另一顆背面的石頭。"),
              Text("One peek left.", "還剩一次偷看。"),
              Text("Peek at another stone this time.", "這次請偷看另一顆石頭。"),
              goal=_peeking, example="peek 4", refused=("peek 3",)),
         Step(Text("Peek at the last one, or stop.", "偷看最後一顆，或停止。"),
              Text("Your turn is over, and you know more than your opponent thinks.",
                   "你的回合結束了，你知道的比對手以為的還多。"),
              Text("End the series: peek at the last stone or stop.", "結束這一串偷看：看最後一顆或停止。"),
              goal=_turn_over, example="stop")),
    ),
    Lesson(
        "win", Text("Three points win", "三分獲勝"),
        Text("The first side to 3 points wins. You have 2.", "先得 3 分的一方獲勝。你已經有 2 分。"),
        ("three-points", "challenge"), "tellstones", table(",,-crown,scale,-knight,,", scores=(2, 1)),
        (Step(
            Text("Challenge one of the face-down stones for your third point.", "挑戰一顆背面的石頭，拿下第三分。"),
            Text("They named the flag, which is not in the line at all: you score your third point and win.",
                 "對手說是旗幟，但石列裡根本沒有旗幟：你拿到第三分，獲勝。"),
            Text("That is legal, but it is not a challenge.", "這步合法，但不是挑戰。"),
            goal=_challenged, example="challenge 3", replies=("name flag",)),),
    ),
    Lesson(
        "nothing-fits", Text("When an action is impossible", "不能做的動作"),
        Text("An action needs something to act on: a face-down stone to peek at, challenge or boast about, a "
             "face-up stone to hide, two stones to swap, a stone in the pool and room in the line to place.",
             "每個動作都需要對象：偷看、挑戰或誇口需要背面的石頭，蓋牌需要正面的石頭，交換需要兩顆石頭，"
             "放置需要石池裡有石頭、石列上有空位。"),
        ("nothing-fits",), "tellstones", table(",,,scale,,,", turn=0),
        (Step(Text("Only the scale is in the line, face up: nothing to peek at, challenge or boast about, and no "
                   "second stone to swap with (try boast, peek 4, challenge 4, swap 4 5). Hide the scale.",
                   "石列上只有正面的天秤：沒有可以偷看、挑戰或誇口的石頭，也沒有第二顆可交換"
                   "（試試 boast、peek 4、challenge 4、swap 4 5）。把天秤蓋起來。"),
              Text("The scale is face down. Your opponent peeked at it; your turn again.",
                   "天秤翻成背面了。對手偷看了它；又輪到你。"),
              Text("That is legal, but it does not hide the scale.", "這步合法，但沒有把天秤蓋起來。"),
              accept=("hide 4",), refused=("boast", "peek 4", "challenge 4", "swap 4 5"), replies=("peek 4",)),
         Step(Text("Now no stone is face up: there is nothing to hide (try hide 4). Place a stone.",
                   "現在沒有正面的石頭：沒有東西可蓋（試試 hide 4）。放置一顆石頭。"),
              Text("A stone from the pool joined the line.", "石池裡的一顆石頭接上了石列。"),
              Text("That is legal, but it is not a place move.", "這步合法，但不是放置。"),
              goal=_placed, example="place crown 3", refused=("hide 4",))),
    ),
    Lesson(
        "full-line", Text("A full line", "滿了的石列"),
        Text("All seven stones are in the line: the pool is empty and the line is full, so nothing can be placed.",
             "七顆石頭都在石列上：石池空了，石列也滿了，所以不能再放置。"),
        ("nothing-fits",), "tellstones", table("-crown,-shield,-sword,scale,-knight,-hammer,-flag"),
        (Step(Text("Placing is impossible (try place crown 1). Hide the scale, the last face-up stone.",
                   "不能放置了（試試 place crown 1）。把最後一顆正面的石頭天秤蓋起來。"),
              Text("Every stone is face down now: from here on the game is swaps, peeks, challenges and boasts.",
                   "現在每顆石頭都是背面：接下來只剩交換、偷看、挑戰和誇口。"),
              Text("That is legal, but it does not hide the scale.", "這步合法，但沒有把天秤蓋起來。"),
              accept=("hide 4",), refused=("place crown 1",)),),
    ),
    Lesson(
        "round-table", Text("The round table", "圓桌王策"),
        Text("Four players in two teams, seats alternating: you and player 3 against players 2 and 4. Points are "
             "team points, and a peek may be given to your partner instead: only they see the stone.",
             "四名玩家分兩隊，座位交錯：你和玩家 3 對玩家 2 和 4。分數以隊伍計算；偷看也可以讓給隊友："
             "只有隊友看得到那顆石頭。"),
        ("round-table",), "tellstones", table(",,crown,-scale,-knight,,", variant="round-table"),
        (Step(
            Text("Let your partner peek at the stone on slot 4 (type peek 4 partner, or click it and choose the "
                 "partner's peek).",
                 "讓隊友偷看 4 號位的石頭（輸入 peek 4 partner，或點它再選隊友偷看）。"),
            Text("Your partner saw the stone; you did not. Together you know it.",
                 "隊友看到了那顆石頭，你沒有。你們合起來知道它。"),
            Text("That is legal, but it is not your partner's peek at slot 4.", "這步合法，但不是讓隊友偷看 4 號位。"),
            accept=("peek 4 partner",)),),
        variant="round-table",
    ),
    Lesson(
        "round-table-boasts", Text("Round table: boasts", "圓桌王策：誇口"),
        Text("You are player 3 (team A, with player 1). Player 2 has boasted and you answer. A counter-boast is "
             "answered by the boaster, and a proof is named by the two teammates in turn, the one who must prove "
             "first. You and player 1 know the stones: crown, scale, knight.",
             "你是玩家 3（A 隊，隊友是玩家 1）。玩家 2 誇口了，由你回應。反誇口由誇口者回應；證明則由兩名隊友輪流"
             "說出，必須證明的人先說。你和玩家 1 都知道這些石頭：王冠、天秤、騎士。"),
        ("round-table-boasts",), "tellstones",
        table(",,-crown,-scale,-knight,,", variant="round-table", phase="answer-boast", turn_player=1, boaster=1,
              actor=2),
        (Step(Text("Counter-boast.", "反誇口。"),
              Text("Player 2, the boaster, answered your counter-boast: doubt. Prove it, from the left.",
                   "誇口的玩家 2 回應你的反誇口：懷疑。由左開始證明。"),
              Text("That is legal, but it is not a counter-boast.", "這步合法，但不是反誇口。"),
              accept=("counter",), replies=("doubt",)),
         Step(Text("Name the stone on slot 3.", "說出 3 號位的石頭。"),
              Text("Right. Your partner, player 1, named the next one: the scale on 4.",
                   "對了。接著由你的隊友玩家 1 說出下一顆：4 號位的天秤。"),
              REMEMBER, accept=("name crown",), replies=("name scale",)),
         Step(Text("Your turn again: name the stone on slot 5.", "又輪到你：說出 5 號位的石頭。"),
              Text("All three named right between you: team A wins at once.", "你們兩人合力全部說對：A 隊立即獲勝。"),
              REMEMBER, accept=("name knight",))),
        variant="round-table",
    ),
    Lesson(
        "round-table-peeks", Text("Round table: three peeks for the team", "圓桌王策：全隊偷看三顆"),
        Text("The other team has just scored. At the round table your catch-up peeks are the team's: up to three "
             "stones in all, each seen by you or by your partner, as you choose one by one. Your partner gets no "
             "second series from the same point.",
             "對方隊伍剛得分。圓桌王策中，追分的偷看屬於整隊：總共至多三顆，每顆由你或隊友看，一顆一顆由你決定。"
             "同一分不會再給隊友另一串偷看。"),
        ("round-table-peeks",), "tellstones",
        table(",,-crown,-scale,-knight,-flag,", variant="round-table", scores=(0, 1), catch_up=True),
        (Step(Text("Peek at the stone on slot 3 yourself.", "自己偷看 3 號位的石頭。"),
              Text("Two peeks left for the team.", "全隊還剩兩次偷看。"),
              Text("That is legal, but it is not your own peek at slot 3.", "這步合法，但不是你自己偷看 3 號位。"),
              accept=("peek 3",)),
         Step(Text("Give the next peek to your partner: another stone, for their eyes (peek 4 partner; the stone on "
                   "3 was peeked already in this series: try peek 3 partner).",
                   "把下一次偷看讓給隊友：另一顆石頭，只給隊友看（peek 4 partner；3 號位這一串已經看過了："
                   "試試 peek 3 partner）。"),
              Text("Your partner saw that one; you did not. One peek left.", "隊友看到了那一顆，你沒有。還剩一次。"),
              Text("Give this peek to your partner.", "把這次偷看讓給隊友。"),
              accept=("peek 4 partner", "peek 5 partner", "peek 6 partner"), refused=("peek 3 partner",)),
         Step(Text("Take the last peek yourself, at a stone neither of you has seen.",
                   "最後一次偷看你自己來，看一顆你們都還沒看過的石頭。"),
              Text("The team's three peeks are done, and the turn passes to player 2.",
                   "全隊的三次偷看用完了，輪到玩家 2。"),
              Text("That is legal, but it is not your own peek at a stone neither of you has seen.",
                   "這步合法，但不是你自己偷看一顆你們都還沒看過的石頭。"),
              accept=("peek 5", "peek 6"))),
        variant="round-table",
    ),
    Lesson(
        "two-lines", Text("Two lines", "兩條石列"),
        Text("In the two-lines variant there are lines a and b, each with its own pool of all seven stones. Every "
             "action is taken on one line of your choice; slots are named a1–a7 and b1–b7.",
             "畫下棋線變體有 a、b 兩條石列，各有一套七顆石頭的石池。每個動作選一條石列進行；"
             "位置名稱為 a1–a7 與 b1–b7。"),
        ("two-lines",), "tellstones",
        table(",,crown,-scale,-knight,,", ",,,scale,,,", variant="two-lines"),
        (Step(
            Text("Place a stone on line b, next to its scale (for example place crown b3).",
                 "在 b 列的天秤旁放一顆石頭（例如 place crown b3）。"),
            Text("Line b has its own pool: the crown was still free there, although line a holds one too.",
                 "b 列有自己的石池：雖然 a 列也有王冠，b 列的王冠仍然可以用。"),
            Text("That is legal, but it does not place a stone on line b.", "這步合法，但沒有在 b 列放石頭。"),
            goal=_placed_on_b, example="place crown b3"),),
        variant="two-lines",
    ),
    Lesson(
        "two-lines-boast", Text("Two lines: swaps and boasts", "兩條石列：交換與誇口"),
        Text("A swap stays within one line: a stone never changes lines. A boast covers the face-down stones of "
             "both lines, proven from left to right, line a before line b. You remember both face-down stones: "
             "each is a scale.",
             "交換只在同一條石列內進行：石頭不會換到另一列。誇口涵蓋兩條石列所有背面的石頭，證明時由左到右，"
             "先 a 列再 b 列。你記得兩顆背面的石頭：都是天秤。"),
        ("two-lines-scope",), "tellstones",
        table(",,,-scale,knight,,", ",,crown,-scale,,,", variant="two-lines"),
        (Step(Text("Swapping a4 with b4 is not allowed (try it). Boast.", "不能把 a4 和 b4 交換（試試看）。誇口。"),
              Text("Your opponent doubts you: name the face-down stone on a4 first, then the one on b4.",
                   "對手懷疑你：先說出 a4 背面的石頭，再說 b4 的。"),
              Text("That is legal, but it is not a boast.", "這步合法，但不是誇口。"),
              accept=("boast",), replies=("doubt",)),
         Step(Text("Name the stone on a4.", "說出 a4 的石頭。"), Text("Right: line b next.", "對了：接著是 b 列。"),
              REMEMBER, accept=("name scale",)),
         Step(Text("Name the stone on b4.", "說出 b4 的石頭。"),
              Text("Both lines proven: you win at once.", "兩條石列都證明了：你立即獲勝。"),
              REMEMBER, accept=("name scale",))),
        variant="two-lines",
    ),
    Lesson(
        "two-lines-peeks", Text("Two lines: peeks on either line", "兩條石列：兩列都能偷看"),
        Text("Your opponent has just scored, so you may peek at up to three stones. With two lines each peek of the "
             "series picks its stone afresh, on either line.",
             "對手剛得分，所以你可以偷看至多三顆石頭。兩條石列時，這一串的每次偷看都可以重新選石頭，哪一列都行。"),
        ("two-lines-peeks",), "tellstones",
        table(",,-crown,scale,-knight,,", ",,-sword,-scale,,,", variant="two-lines", scores=(0, 1), catch_up=True),
        (Step(Text("Peek at the stone on a3.", "偷看 a3 的石頭。"),
              Text("Two peeks left.", "還剩兩次偷看。"),
              Text("That is legal, but it is not the peek at a3.", "這步合法，但不是偷看 a3。"), accept=("peek a3",)),
         Step(Text("Now peek at a stone of line b.", "現在偷看 b 列的一顆石頭。"),
              Text("The series crossed to line b. One peek left.", "這一串偷看換到了 b 列。還剩一次。"),
              Text("Peek at a stone of line b this time.", "這次請偷看 b 列的石頭。"),
              accept=("peek b3", "peek b4")),
         Step(Text("You need not use the third peek: stop.", "第三次偷看不一定要用：停止。"),
              Text("Your turn is over, with one peek unused.", "你的回合結束了，還有一次偷看沒用。"),
              Text("That is legal, but this time stop.", "這步合法，但這次請停止。"), accept=("stop",))),
        variant="two-lines",
    ),
)

COURSE = Course("tellstones", Text("Tellstones", "泰爾石"), RULES, LESSONS)
