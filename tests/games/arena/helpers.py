"""Shared helpers: arranged positions and scripted dice for Arena! rule tests."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import bot.games.arena  # noqa: F401  (registers the game)
from bot.engine import Choice, Ctx
from bot.engine.events import AnyEvent
from bot.games.arena.board import Hex
from bot.games.arena.game import ArenaGame
from bot.games.arena.rules import begin_turn
from bot.games.arena.state import ArenaState, Fighter

GAME = ArenaGame()
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
COLOURS = ["red", "blue", "green", "yellow", "violet", "orange"]


class ScriptedRng:
    """Stands in for FairRng: hands out the dice a test scripted, in order."""

    def __init__(self, dice: Iterable[int] = ()) -> None:
        self.queue = list(dice)
        self.counter = 0

    def dice(self, count: int, sides: int = 6) -> tuple[list[int], list[int]]:
        if len(self.queue) < count:
            raise AssertionError(f"test asked for {count} dice, only {len(self.queue)} scripted")
        values, self.queue = self.queue[:count], self.queue[count:]
        idx = list(range(self.counter, self.counter + count))
        self.counter += count
        return values, idx

    def randint(self, lo: int, hi: int) -> int:
        return lo


def arrange(positions: list[Hex], acting: int = 0, **overrides: Any) -> ArenaState:
    """A state with fighters on ``positions``; ``acting`` starts its turn now.

    ``overrides`` maps ``"f<seat>"`` to a dict of Fighter fields.
    """
    fighters = [
        Fighter(seat=i, name=NAMES[i], colour=COLOURS[i], pos=p) for i, p in enumerate(positions)
    ]
    for key, fields in overrides.items():
        seat = int(key[1:])
        for k, v in fields.items():
            setattr(fighters[seat], k, v)
    n = len(positions)
    state = ArenaState(fighters=fighters, order=[(acting + i) % n for i in range(n)])
    begin_turn(state, Ctx(ScriptedRng()))  # type: ignore[arg-type]
    return state


def play(state: ArenaState, seat: int, *options: str, dice: Iterable[int] = ()) -> list[AnyEvent]:
    """Apply ``options`` in order for ``seat`` (each must be offered), rolling ``dice``."""
    rng = ScriptedRng(dice)
    ctx = Ctx(rng)  # type: ignore[arg-type]
    for opt in options:
        pending = GAME.pending(state)
        assert pending, f"nothing pending before {opt!r}"
        decision = pending[0]
        assert decision.seat == seat, (decision.seat, seat)
        offered = [o.id for o in decision.options]
        assert opt in offered, f"{opt!r} not offered at {decision.key}: {offered}"
        GAME.apply(state, Choice(seat=seat, key=decision.key, option=opt), ctx)
    assert rng.queue == [], f"unused scripted dice: {rng.queue}"
    return ctx.events


def offered(state: ArenaState) -> list[str]:
    return [o.id for o in GAME.pending(state)[0].options]


def kind(state: ArenaState) -> str:
    return GAME.pending(state)[0].kind
