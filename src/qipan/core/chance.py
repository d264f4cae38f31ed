"""Chance nobody can predict: a secret per game, and one keyed generator per chance event.

A game's secret (its ``seed``) is 256 bits from the operating system's CSPRNG. The chance event
at ply ``n`` draws from :func:`event_rng` ``(secret, "chance", n)``: a generator whose every bit
is SHA-256 of a key that is itself HMAC-SHA256 of the secret and the event's name. Observing any
number of outcomes says nothing about another event's outcome, nor about the secret, unless
SHA-256 is broken; and a record that holds the secret replays exactly. Local use (tests, the
arena, the engine protocol) may pass any integer or string as the seed instead; it is then as
predictable as the person who chose it wants.

>>> a = event_rng("my seed", "chance", 3).randrange(6)
>>> b = event_rng("my seed", "chance", 3).randrange(6)
>>> a == b and 0 <= a < 6
True
>>> len(new_secret())
64
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from typing import Any

from qipan.core.errors import GameError, brief

SECRET_BYTES = 32


def new_secret() -> str:
    """A fresh game secret: 256 bits from the OS CSPRNG, as 64 hex digits."""
    return secrets.token_hex(SECRET_BYTES)


MAX_SEED_CHARS = 128


def check_seed(seed: object) -> int | str:
    """A seed is a whole number or a string of at most 128 characters (GameError otherwise)."""
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise GameError(f"seed must be a whole number or a string, not {brief(seed, 40)}")
    if isinstance(seed, int) and not -(2**127) < seed < 2**127:
        raise GameError("seed must be a whole number of at most 38 digits")
    if isinstance(seed, str) and not 0 < len(seed) <= MAX_SEED_CHARS:
        raise GameError(f"seed must be a string of 1..{MAX_SEED_CHARS} characters")
    return seed


def _key_bytes(seed: int | str) -> bytes:
    return (str(seed) if isinstance(seed, int) else seed).encode("utf-8")


class KeyedRandom(random.Random):
    """A :class:`random.Random` whose bits come from SHA-256 in counter mode under ``key``.

    Every method of ``random.Random`` (``randrange``, ``choice``, ``sample``, ``shuffle``,
    ``random``) works, since they are built on :meth:`getrandbits` and :meth:`random`. There is no
    Mersenne Twister state to reconstruct from outputs."""

    def __init__(self, key: bytes):
        self._key = key
        self._block = 0
        self._pool = 0
        self._pool_bits = 0
        super().__init__()

    def seed(self, a: Any = None, version: int = 2) -> None:
        """Keyed generators are not reseeded (``random.Random.__init__`` calls this)."""

    def getstate(self) -> tuple[Any, ...]:
        return (self._key, self._block, self._pool, self._pool_bits)

    def setstate(self, state: tuple[Any, ...]) -> None:
        self._key, self._block, self._pool, self._pool_bits = state

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        while self._pool_bits < k:
            block = hashlib.sha256(self._key + self._block.to_bytes(8, "big")).digest()
            self._block += 1
            self._pool |= int.from_bytes(block, "big") << self._pool_bits
            self._pool_bits += 256
        value = self._pool & ((1 << k) - 1)
        self._pool >>= k
        self._pool_bits -= k
        return value

    def random(self) -> float:
        return self.getrandbits(53) * 2.0**-53


def event_key(seed: int | str, purpose: str, index: int) -> bytes:
    """HMAC-SHA256 of the game's seed and one event: ``purpose`` ("chance", "ai", ...) and index."""
    return hmac.new(_key_bytes(seed), f"{purpose}/{index}".encode(), hashlib.sha256).digest()


def event_rng(seed: int | str, purpose: str, index: int) -> KeyedRandom:
    """The generator for one event of a game (see :func:`event_key`)."""
    return KeyedRandom(event_key(seed, purpose, index))
