"""Provably fair randomness whose whole state lives in the match.

Draw number ``n`` of a match is derived from ``SHA-256(seed ":" n ":" k)``
(``k`` counts rejections so every value is exactly uniform). The match
publishes ``SHA-256(seed)`` when it starts and the seed when it ends; anyone
can then recompute every roll from the log (see :func:`verify_rolls`).
The state is just ``(seed, counter)``, so a snapshot captures it exactly.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable, Sequence
from typing import TypeVar

from pydantic import BaseModel

T = TypeVar("T")

_SPACE = 1 << 64


def new_seed() -> str:
    """A fresh secret seed (128 bits, hex)."""
    return secrets.token_hex(16)


def normalise_seed(seed: str | int) -> str:
    """Seeds are strings; integers given on a command line become their text."""
    return str(seed)


def seed_commitment(seed: str) -> str:
    """What is published when a match starts: SHA-256 of the seed, hex."""
    return hashlib.sha256(seed.encode()).hexdigest()


def draw_value(seed: str, index: int, sides: int) -> int:
    """The value (1..sides) of draw ``index``; a pure function of seed and index."""
    if sides < 1:
        raise ValueError("sides must be >= 1")
    limit = _SPACE - (_SPACE % sides)
    k = 0
    while True:
        digest = hashlib.sha256(f"{seed}:{index}:{k}".encode()).digest()
        x = int.from_bytes(digest[:8], "big")
        if x < limit:
            return x % sides + 1
        k += 1


class DiceState(BaseModel):
    """Serialisable RNG state: the seed and how many draws were used."""

    seed: str
    counter: int = 0


class FairRng:
    """Draws from a :class:`DiceState`, advancing its counter.

    Every draw (dice, shuffles, deals) uses the same counter, so a match's
    randomness is a single numbered stream that the log can be checked against.
    """

    def __init__(self, state: DiceState) -> None:
        self.state = state

    def draw(self, sides: int) -> tuple[int, int]:
        """One value in 1..sides and the draw index it came from."""
        index = self.state.counter
        self.state.counter += 1
        return draw_value(self.state.seed, index, sides), index

    def dice(self, count: int, sides: int = 6) -> tuple[list[int], list[int]]:
        values: list[int] = []
        indices: list[int] = []
        for _ in range(count):
            v, i = self.draw(sides)
            values.append(v)
            indices.append(i)
        return values, indices

    def randint(self, lo: int, hi: int) -> int:
        """Uniform integer in [lo, hi]."""
        v, _ = self.draw(hi - lo + 1)
        return lo + v - 1

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise ValueError("choice from an empty sequence")
        return items[self.randint(0, len(items) - 1)]

    def shuffle(self, items: Iterable[T]) -> list[T]:
        """A new list, shuffled by Fisher-Yates on the match stream."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.randint(0, i)
            out[i], out[j] = out[j], out[i]
        return out


def verify_rolls(seed: str, rolls: Iterable[tuple[list[int], list[int], int]]) -> list[int]:
    """Recompute each ``(dice, draw indices, sides)``; return positions that differ."""
    bad: list[int] = []
    for pos, (dice, indices, sides) in enumerate(rolls):
        if len(dice) != len(indices) or any(
            draw_value(seed, i, sides) != d for d, i in zip(dice, indices, strict=False)
        ):
            bad.append(pos)
    return bad
