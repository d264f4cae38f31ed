"""The JSON the HTTP API accepts and answers, as pydantic models (they are its OpenAPI schema).

Request models are bounded (string and list lengths) and refuse unknown fields; a request that
does not fit is answered 400 with a short message from :func:`validation_message`, never 422.
Response models allow extra fields, so a field added to an answer is not dropped silently.

>>> CreateGame.model_validate({"game": "abalone", "options": {"time_limit": 600}}).options
{'time_limit': 600}
>>> validation_message([{"loc": ("body", "seats", 1, "kind"), "type": "literal_error", "msg": "..."}])
'seat 1 must be {"kind": "human"} or {"kind": "ai", "level": ...}'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from fastapi import Path
from pydantic import BaseModel, ConfigDict, Field, JsonValue, StrictBool, StrictFloat, StrictInt, StringConstraints

from qipan.core.errors import brief, brief_text
from qipan.core.options import MAX_TEXT
from qipan.server.meta import available_games

Name = Annotated[str, StringConstraints(min_length=1, max_length=40)]
Text = Annotated[str, StringConstraints(max_length=200)]
OptionText = Annotated[str, StringConstraints(max_length=2 * MAX_TEXT)]
"""An option's text: an inline deck of up to MAX_TEXT characters, or a longer one that the option
itself refuses with a message naming it (beyond this, the short message of validation_message)."""
OptionValue = StrictBool | StrictInt | StrictFloat | OptionText
Number = int | float
Value = bool | int | float | str
Token = Annotated[str, StringConstraints(min_length=1, max_length=100)]
Nickname = Annotated[str, StringConstraints(max_length=200)]  # checked by qipan.server.names.check_name
NAME_HELP = "your nickname: 1..24 characters, no control or invisible characters (default: your side's name)"

GameId = Annotated[str, Path(max_length=64, description="the game's id (public)")]

GAME_NAMES: list[JsonValue] = list(available_games())

MAX_OPTIONS = 32
MAX_SEATS = 16
MAX_LINES = 5
"""Most engine lines an analysis request may ask for."""
MAX_ANALYSIS_TIME = 2
"""Most seconds an analysis request may ask for (it runs in an AI worker)."""
MAX_MOVE = 500
"""Longest move text a request may carry (as records and the engine protocol)."""

Seconds = Annotated[StrictInt, Field(gt=0, le=MAX_ANALYSIS_TIME)] | \
    Annotated[StrictFloat, Field(gt=0, le=MAX_ANALYSIS_TIME)]
MoveText = Annotated[str, StringConstraints(min_length=1, max_length=MAX_MOVE)]


class Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Answer(BaseModel):
    model_config = ConfigDict(extra="allow")


# -- requests ---------------------------------------------------------------------------------------


class SeatSpec(Request):
    kind: Literal["human", "ai"]
    level: Name | None = Field(None, description="AI level (ai seats; default easy): see /api/describe")


class GameSpec(Request):
    """A game and its configuration, as ``POST /api/describe`` takes it."""

    model_config = ConfigDict(json_schema_extra={"examples": [
        {"game": "abalone", "variant": "belgian-daisy", "options": {"time_limit": 600}},
        {"game": "chinese-checkers", "options": {"players": 3}},
    ]})

    game: Name = Field(description="a game name from /api/meta",
                       json_schema_extra={"enum": GAME_NAMES})  # others get 400 (unknown game)
    variant: Name | None = Field(None, description="a variant name from /api/meta (default: the first)")
    options: dict[Name, OptionValue | None] | None = Field(
        None, max_length=MAX_OPTIONS, description="option values by name, e.g. {\"time_limit\": 600}")


class ClockSpec(Request):
    """A time control: each player's clock starts with their first move (docs/server.md, Clocks)."""

    base: StrictInt | StrictFloat = Field(description="seconds on each clock: 1..604800")
    increment: StrictInt | StrictFloat = Field(0, description="seconds added after each move: 0..3600")


class CreateGame(GameSpec):
    """``POST /api/games``. A ``seed`` is refused: the server draws every game's secret itself."""

    seats: list[SeatSpec] | None = Field(
        None, max_length=MAX_SEATS, description="one entry per player (default: every seat human)")
    seat: StrictInt | None = Field(
        None, description="the creator's own seat, a human one (default: the first human seat); every other "
                          "human seat gets an invitation")
    name: Nickname | None = Field(None, description=NAME_HELP)
    public: StrictBool = Field(False, description="list the game in the lobby, where anyone may take a free seat "
                                                  "(default: invite-only, listed nowhere)")
    clock: ClockSpec | None = Field(None, description="the time control (default: untimed, or Abalone's time_limit "
                                                      "option)")
    hints: StrictBool = Field(False, description="the human may ask the engine for hints (only in a game with one "
                                                 "human seat and at least one AI seat)")


SEAT_OPTIONS_HELP = ("what you bring to your seat, by the names of the game's seat_options in /api/meta "
                     "(Sheng-Ke: {\"deck\": \"{...}\"}, your deck as JSON text); only before the first decision")


class ClaimRequest(Request):
    invite: Token = Field(description="the invitation code (from an invitation link's #invite=...)")
    name: Nickname | None = Field(None, description=NAME_HELP)
    options: dict[Name, OptionValue] | None = Field(None, max_length=MAX_OPTIONS, description=SEAT_OPTIONS_HELP)


class JoinRequest(Request):
    name: Nickname | None = Field(None, description=NAME_HELP)
    seat: StrictInt | None = Field(None, description="the free human seat to take (default: the first free one)")
    options: dict[Name, OptionValue] | None = Field(None, max_length=MAX_OPTIONS, description=SEAT_OPTIONS_HELP)


class InvitesRequest(Request):
    token: Token = Field(description="the seat token of the game's creator")


class RematchRequest(Request):
    token: Token = Field(description="any seat token of the finished game")
    seat: StrictInt | None = Field(None, description="ignored (the token names the seat)")
    name: Nickname | None = Field(None, description=NAME_HELP + "; default: your name in the finished game")


class PositionRequest(GameSpec):
    """``POST /api/position``: a position of a game (no live game needed), and a move to play there."""

    state: JsonValue = Field(None, description="a whole state as the engine protocol's state/load "
                                               "(default: the initial position)")
    move: MoveText | None = Field(None, description="a legal move (or chance outcome) to play; at a chance point "
                                                    "\"random\" draws one")


class AnalyseRequest(GameSpec):
    """``POST /api/analyse``: engine lines for the player to move in a position someone set up."""

    state: JsonValue = Field(description="a whole state as the engine protocol's state/load")
    lines: Annotated[StrictInt, Field(ge=1, le=MAX_LINES)] = Field(3, description=f"best moves wanted: 1..{MAX_LINES}")
    time: Seconds = Field(1.0, description=f"seconds of engine time: above 0, at most {MAX_ANALYSIS_TIME}")


class ReviewRequest(Request):
    token: Token | None = Field(None, description="the seat token of the player whose decision it is (required in "
                                                  "games of hidden information)")
    time: Seconds = Field(0.5, description=f"seconds of engine time: above 0, at most {MAX_ANALYSIS_TIME}")


class HintRequest(Request):
    token: Token = Field(description="your seat token")


# -- answers ----------------------------------------------------------------------------------------


class Error(Answer):
    error: str = Field(description="what is wrong, in a sentence")


class VariantInfo(Answer):
    name: str
    help: str
    defaults: dict[str, Value | None]


class OptionInfo(Answer):
    name: str
    type: Literal["int", "float", "bool", "str"]
    default: Value | None
    help: str
    choices: list[Value | None] | None
    minimum: Number | None
    maximum: Number | None
    local_file: bool
    seat: bool = Field(description="the choices are seat numbers counted from 0 (shown to people from 1)")


class PlayerRange(Answer):
    min: int
    max: int


class GameInfo(Answer):
    name: str
    title: str
    perfect_information: bool
    variants: list[VariantInfo]
    options: list[OptionInfo]
    players: int | PlayerRange
    levels: list[str]
    seat_options: list[str] = Field(description="options each player brings with their seat (join, claim)")


class Meta(Answer):
    games: list[GameInfo]


class Description(Answer):
    game: str
    variant: str
    options: dict[str, Value | None]
    num_players: int
    player_names: list[str]
    levels: list[str]
    time_limit: Number | None
    choices: dict[str, list[Value | None]] = Field(
        description="per option with choices, those this configuration accepts (the others unchanged)")


class SeatBase(Answer):
    """The fields of a seat in every answer that lists seats."""

    seat: int
    side: str = Field(description="the game's name for the seat (black, red, player 1, ...)")
    name: str = Field(description="its player's nickname, or the side when they gave none")
    kind: Literal["human", "ai"]
    level: str | None
    claimed: bool = Field(description="whether someone sits here (AI seats: always)")


class CreatedSeat(SeatBase):
    invite: str | None = Field(None, description="this seat's invitation code (seats the creator does not take)")
    url: str | None = Field(None, description="this seat's invitation link (the code is in the fragment)")


class Created(Answer):
    id: str
    game: str
    seat: int | None = Field(description="the creator's seat (null when every seat is an AI)")
    token: str | None = Field(description="the creator's seat token (keep it secret)")
    url: str | None = Field(description="the creator's own seat link, for another device (token in the fragment)")
    seats: list[CreatedSeat]
    spectator_url: str


class Rematch(Created):
    seat: int = Field(description="the requester's seat in the new game")
    token: str = Field(description="the requester's seat token in the new game")
    url: str = Field(description="the requester's own seat link into the new game")


class Claimed(Answer):
    id: str
    seat: int = Field(description="the seat the invitation was for")
    token: str = Field(description="that seat's token, now yours (keep it secret)")
    url: str = Field(description="the seat's own link, for another device (token in the fragment)")


class Invitation(Answer):
    seat: int
    name: str
    invite: str
    url: str


class Invites(Answer):
    invites: list[Invitation] = Field(description="a new invitation for each seat nobody has claimed")


class SeatSummary(SeatBase):
    connected: bool


class Result(Answer):
    returns: list[Number]
    text: str
    reason: str | None = None


class Summary(Answer):
    id: str
    game: str
    variant: str
    options: dict[str, Any]
    seats: list[SeatSummary]
    status: Literal["playing", "finished", "unavailable"] = Field(
        description="unavailable: the server set the game aside because it cannot be resumed (see reason)")
    reason: str | None = Field(None, description="why an unavailable game cannot be played")
    result: Result | None
    moves: int
    created: Number
    public: bool = Field(False, description="listed in the lobby, where anyone may take a free seat")
    clock: dict[str, Number] | None = Field(None, description='the time control {"base", "increment"} (null: untimed)')
    hints: bool = Field(False, description="created with hints: its human may ask the engine for hints")
    hints_used: int = Field(0, description="hints its human has asked for")


class RecordMove(Answer):
    player: int | str
    move: str
    time: Number | None = None


class GameRecord(Answer):
    format: str
    id: str
    game: str
    variant: str
    options: dict[str, Any]
    seed: int | str | None
    players: list[str]
    started: Number | None
    moves: list[RecordMove]
    result: dict[str, Any] | None
    clock: dict[str, Number] | None = Field(None, description="the time control (absent: untimed)")
    clock_reset: dict[str, Any] | None = Field(None, description="the clocks the last takeback left (ply, time, left)")
    hints: bool = Field(False, description="played with hints on (absent: off)")


class PublicMove(Answer):
    ply: int
    player: int | str
    text: str


class Frame(Answer):
    type: Literal["frame"]
    game: str
    ply: int
    seat: None
    view: Any
    to_move: int | str | None
    last: PublicMove | None
    clocks: list[Number] | None
    result: Result | None = None
    seats: list[SeatSummary]


class Evaluation(Answer):
    """A position's worth for the player deciding (docs/analysis.md)."""

    value: float | None = Field(description="the engine's own number (search units)")
    win: float | None = Field(description="win probability 0..1 where it means something")
    balance: float | None = Field(description="a readable balance (marbles, moves ahead, points...)")
    unit: str | None = Field(description="what balance counts (marbles, moves, ...)")
    mate: int | None = Field(description="a forced result: +n wins in n own moves, -n loses in n")
    exact: bool = Field(description="from a solved table or a proven forced result")


class Line(Answer):
    move: str = Field(description="the first move, in the game's notation")
    evaluation: Evaluation
    pv: list[str] = Field(description="the principal variation, starting with move")


class Analysis(Answer):
    player: int = Field(description="the seat deciding: the analysis is from its view")
    lines: list[Line] = Field(description="best first")
    evaluation: Evaluation = Field(description="the position's, for player (the best line's)")
    method: str = Field(description="search, exact, playouts or terminal")
    depth: int | None
    nodes: int
    seconds: float


class Position(Answer):
    to_move: int | Literal["chance"] | None = Field(description="the seat to move, chance, or null when over")
    view: Any = Field(description="the view of the seat to move (a spectator's at a chance point or the end)")
    legal: list[str] = Field(description="legal moves, or at a chance point its outcomes (empty when they cannot be "
                                         "listed: ask for \"random\")")
    result: Result | None


class Stepped(Position):
    state: Any = Field(description="the whole state, for the next request")
    move: str | None = Field(None, description="the move played, in the game's notation")


class Analysed(Answer):
    position: Position
    analysis: Analysis | None = Field(description="null when nobody decides (a chance point, the end)")


class Reviewed(Answer):
    ply: int = Field(description="the decision after this many recorded actions")
    player: int
    move: str = Field(description="the move played")
    best: Line
    played: Line
    verdict: Literal["inaccuracy", "mistake", "blunder"] | None
    evaluation: Evaluation = Field(description="the position's, for player")


class Hint(Answer):
    analysis: Analysis
    ply: int = Field(description="the position analysed: after this many recorded actions")


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` entry documenting these error codes (each answers :class:`Error`)."""
    return {code: {"model": Error, "description": ERROR_CODES[code]} for code in codes}


ERROR_CODES = {
    400: "bad input (the reason is in error)",
    403: "a bad seat token, or a request from another web site (Origin)",
    404: "no such game, ply or path",
    408: "the request body was not received in time",
    409: "the game's status does not allow it",
    413: "request body too large",
    415: "the request body is not JSON",
    429: "too many requests or connections from this client (see Retry-After)",
    431: "too many request headers",
    503: "the server is at a limit that frees itself (its connection limit, or as many games between AIs as it "
         "allows; see Retry-After), or cannot use its database right now",
}

EDGE = (408, 413, 429, 431, 503)
"""Codes the edge may answer to any request (caps, limits)."""
CHANGES = (*EDGE, 403, 415)
"""Codes the edge may answer to any request that changes state (Origin, content type too)."""


# -- 400 messages -----------------------------------------------------------------------------------

LEVEL_HINT = '{"kind": "human"} or {"kind": "ai", "level": ...}'
FIELD_MESSAGES = {
    "game": '"game" must be a game name (see /api/meta)',
    "variant": '"variant" must be a string (a variant name) or left out',
    "clock": '"clock" must be {"base": seconds, "increment": seconds} (base 1..604800, increment 0..3600) or null',
    "options": f'"options" must be an object like {{"time_limit": 600}} with at most {MAX_OPTIONS} entries',
    "seats": f'seats must be a list like [{{"kind": "human"}}, {{"kind": "ai", "level": "easy"}}] '
             f"(at most {MAX_SEATS})",
    "token": '"token" must be a seat token (a string)',
    "seat": '"seat" must be a seat number or left out',
    "invite": '"invite" must be an invitation code (a string)',
    "status": 'status must be "open", "playing" or "finished" (or left out for every public game)',
    "name": '"name" must be a nickname: a string of 1..24 characters',
    "public": '"public" must be true or false',
    "download": "download must be 1 or 0",
    "limit": "limit must be 1..1000",
    "ply": "ply must be a whole number",
    "game_id": "game ids are at most 64 characters",
    "hints": '"hints" must be true or false',
    "state": '"state" must be a game state as JSON (as the engine protocol\'s state command answers)',
    "move": f'"move" must be a move in the game\'s notation: a string of 1..{MAX_MOVE} characters',
    "lines": f'"lines" must be a whole number 1..{MAX_LINES}',
    "time": f'"time" must be a number of seconds above 0 and at most {MAX_ANALYSIS_TIME}',
}


def validation_message(problems: Sequence[Any]) -> str:
    """One short sentence about the first problem pydantic found in a request (no input echoed)."""
    if not problems:
        return "bad request"
    problem = problems[0]
    loc = [part for part in problem.get("loc", ()) if part not in ("body", "query", "path")]
    kind = problem.get("type", "")
    if not loc:
        return "the request body must be a JSON object"
    top = loc[0]
    if kind == "missing":
        return FIELD_MESSAGES.get(str(top), f'"{brief_text(str(top), 40)}" is required')
    if kind == "extra_forbidden":
        if top == "seed":
            return '"seed" is not accepted: the server draws every game\'s secret itself'
        if top == "seats" and len(loc) > 2 and isinstance(loc[1], int):
            return f"seat {loc[1]}: unknown field {brief(loc[-1], 40)}"
        if top == "clock" and len(loc) > 1:
            return f"clock: unknown field {brief(loc[-1], 40)}; it has base and increment (seconds)"
        return f"unknown field {brief(loc[-1], 40)}"
    if top == "seats" and len(loc) > 1 and isinstance(loc[1], int):
        if len(loc) > 2 and loc[2] == "level":
            return f"seat {loc[1]}: level must be an AI level name (a string)"
        return f"seat {loc[1]} must be {LEVEL_HINT}"
    if top == "options" and len(loc) > 1:
        return (f"option {brief(loc[1], 40)}: values must be numbers, true/false or strings of at most {MAX_TEXT} "
                "characters")
    if isinstance(top, str) and top in FIELD_MESSAGES:
        return FIELD_MESSAGES[top]
    where = ".".join(brief_text(p, 40) if isinstance(p, str) else str(p) for p in loc)
    return f"{where}: {brief_text(str(problem.get('msg', 'invalid')), 80)}"
