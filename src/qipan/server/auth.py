"""Seat tokens and invitations: random secrets the database keeps only as hashes.

A game's creator gets the token of their own seat; every other human seat starts as an
invitation, a single-use code that mints that seat's token when it is claimed. So nobody ever
holds a token for someone else's seat.

>>> token = new_token()
>>> check_token(hash_token(token), token)
True
>>> check_token(hash_token(token), "guess")
False
>>> records, token, invites = new_seats([{"kind": "human"}, {"kind": "human"}, {"kind": "ai", "level": "easy"}], 0)
>>> check_token(records[0]["token"], token), list(invites), records[1]["token"], records[2]["kind"]
(True, [1], None, 'ai')
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from typing import Any

SeatRecord = dict[str, Any]
"""One seat as the ``games.seats`` JSON stores it: ``kind`` ("human"/"ai"), ``level`` (AI),
``token`` (hash of the seat's token; None until claimed), ``invite`` (hash of its invitation
code; None if it never had one), ``creator`` (True on the seat of whoever created the game),
``name`` (its player's nickname, see :mod:`qipan.server.names`; None or absent: none given) and,
in a rematch, ``rematch_of`` (hash of the token of the finished game's seat whose holder may take
this one).
Rows written before invitations have only ``kind``, ``level`` and ``token``; before nicknames, no
``name``."""


def new_token() -> str:
    """A fresh seat token (128 random bits, URL-safe)."""
    return secrets.token_urlsafe(16)


def new_invite() -> str:
    """A fresh invitation code (128 random bits, URL-safe)."""
    return secrets.token_urlsafe(16)


def new_game_id() -> str:
    """A short public game id (not a secret: anyone with it may watch)."""
    return secrets.token_urlsafe(8).replace("-", "x").replace("_", "y")


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def check_token(stored_hash: str | None, token: object) -> bool:
    """Whether ``token`` matches the stored hash (constant-time comparison)."""
    if stored_hash is None or not isinstance(token, str) or not token or len(token) > 200:
        return False
    return hmac.compare_digest(stored_hash, hash_token(token))


def derived_token(token: str, purpose: str) -> str:
    """A token derived from a seat's token, e.g. its holder's token in the rematch.

    Keyed by the token itself, which the server never stores: whoever presents the token can
    have the derived one, again and again (a rematch request is idempotent across restarts),
    and nobody who reads the database can compute it.

    >>> derived_token("abc", "rematch") == derived_token("abc", "rematch") != derived_token("abd", "rematch")
    True
    """
    digest = hmac.new(token.encode("utf-8"), purpose.encode("utf-8"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:16]).decode("ascii").rstrip("=")


def new_seats(specs: list[dict[str, Any]], creator: int | None, name: str | None = None
              ) -> tuple[list[SeatRecord], str | None, dict[int, str]]:
    """The seat records of a new game: the ``creator``'s seat gets a token (and their nickname
    ``name``), every other human seat an invitation. Returns the records, the creator's token and
    each invited seat's code."""
    records: list[SeatRecord] = []
    token: str | None = None
    invites: dict[int, str] = {}
    for seat, spec in enumerate(specs):
        if spec["kind"] != "human":
            records.append({"kind": "ai", "level": spec.get("level"), "token": None})
        elif seat == creator:
            token = new_token()
            records.append(human_seat(token=hash_token(token), creator=True, name=name))
        else:
            invites[seat] = new_invite()
            records.append(human_seat(invite=hash_token(invites[seat])))
    return records, token, invites


def human_seat(token: str | None = None, invite: str | None = None, creator: bool = False,
               name: str | None = None) -> SeatRecord:
    """A human seat's record from the hashes of its token and invitation code, and its player's
    nickname."""
    return {"kind": "human", "level": None, "token": token, "invite": invite, "creator": creator, "name": name}


def claimed(record: SeatRecord) -> bool:
    """Whether someone sits in this seat, or it is kept for its player in a rematch (AI seats
    always count as taken)."""
    return record["kind"] != "human" or record.get("token") is not None or record.get("rematch_of") is not None
