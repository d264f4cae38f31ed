"""Seat tokens: random secrets handed out in invite links; the database keeps only their hashes.

>>> token = new_token()
>>> check_token(hash_token(token), token)
True
>>> check_token(hash_token(token), "guess")
False
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets


def new_token() -> str:
    """A fresh seat token (128 random bits, URL-safe)."""
    return secrets.token_urlsafe(16)


def new_game_id() -> str:
    """A short public game id (not a secret: anyone with it may watch)."""
    return secrets.token_urlsafe(8).replace("-", "x").replace("_", "y")


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def check_token(stored_hash: str | None, token: object) -> bool:
    """Whether ``token`` matches the stored hash (constant-time comparison)."""
    if stored_hash is None or not isinstance(token, str) or not token:
        return False
    return hmac.compare_digest(stored_hash, hash_token(token))


def derived_token(stored_hash: str, purpose: str) -> str:
    """A token derived from a seat's stored hash, e.g. the seat's token in a rematch.

    Only the server knows the hashes, so it alone can derive these; deriving them again gives the
    same tokens, which makes a rematch request idempotent across restarts."""
    digest = hmac.new(bytes.fromhex(stored_hash), purpose.encode("utf-8"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:16]).decode("ascii").rstrip("=")
