"""Scripted dice: a Ctx whose rolls come from a list, so a rule test's dice are exact."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.engine.dice import DiceState, FairRng
from bot.engine.events import RollEvent
from bot.engine.game import Ctx
from bot.engine.text import Text


class ScriptedRng(FairRng):
    """Stands in for FairRng: dice come from ``script`` in order; other draws
    (shuffles, ``randint``) use the real stream of seed ``scripted``."""

    def __init__(self, dice: Iterable[int] = ()) -> None:
        super().__init__(DiceState(seed="scripted"))
        self.script = list(dice)

    def dice(self, count: int, sides: int = 6) -> tuple[list[int], list[int]]:
        if len(self.script) < count:
            raise AssertionError(f"test asked for {count} dice, only {len(self.script)} scripted")
        values, self.script = self.script[:count], self.script[count:]
        start = self.state.counter
        self.state.counter += count
        return values, list(range(start, start + count))


class ScriptedCtx(Ctx):
    """A :class:`Ctx` rolling scripted dice; ``left()`` tells what the test did not use."""

    def __init__(self, dice: Iterable[int] = ()) -> None:
        self.scripted = ScriptedRng(dice)
        super().__init__(self.scripted)

    @property
    def script(self) -> list[int]:
        return self.scripted.script

    def left(self) -> list[int]:
        return list(self.scripted.script)

    def roll(
        self,
        count: int,
        roller: str,
        purpose: Text,
        target: int | None = None,
        sides: int = 6,
        modifier: int = 0,
        **data: Any,
    ) -> RollEvent:
        return super().roll(count, roller, purpose, target, sides, modifier, **data)
