"""What happened: events returned by every applied decision.

Events are plain data (JSON-able). ``visible_to`` is ``None`` for public
events, or the seats allowed to see a private one (a drawn card, a pick
before its reveal). :class:`RollEvent` is the one every die roll produces,
so a complete dice log can be printed and checked for every match.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from bot.engine.text import Text


class Event(BaseModel):
    """A generic event; ``text`` is what the log shows a reader."""

    type: str
    text: Text
    data: dict[str, Any] = Field(default_factory=dict)
    visible_to: list[int] | None = None
    kind: Literal["event"] = "event"

    def visible(self, seat: int | None) -> bool:
        return self.visible_to is None or (seat is not None and seat in self.visible_to)


class RollEvent(BaseModel):
    """One roll: who rolled, for what, the dice, the target number and the result.

    ``indices`` are the match draw numbers of each die, which is what makes
    every roll verifiable from the seed alone.
    """

    roller: str
    purpose: Text
    dice: list[int]
    indices: list[int]
    sides: int = 6
    target: int | None = None
    modifier: int = 0
    result: Text | None = None
    data: dict[str, Any] = Field(default_factory=dict)
    visible_to: list[int] | None = None
    kind: Literal["roll"] = "roll"

    @property
    def type(self) -> str:
        return "roll"

    def visible(self, seat: int | None) -> bool:
        return self.visible_to is None or (seat is not None and seat in self.visible_to)

    @property
    def text(self) -> Text:
        """One log line, e.g. ``Cactus rolls [4, 2, 6] for melee vs Agaric (target 4+): 2 hits``."""
        dice = ", ".join(str(d) for d in self.dice)
        mod = f" {self.modifier:+d}" if self.modifier else ""
        tgt_fr = f" (cible {self.target}+)" if self.target is not None else ""
        tgt_en = f" (target {self.target}+)" if self.target is not None else ""
        res_fr = f" : {self.result.fr}" if self.result else ""
        res_en = f": {self.result.en}" if self.result else ""
        return Text(
            fr=f"🎲 {self.roller} lance [{dice}]{mod} pour {self.purpose.fr}{tgt_fr}{res_fr}",
            en=f"🎲 {self.roller} rolls [{dice}]{mod} for {self.purpose.en}{tgt_en}{res_en}",
        )


AnyEvent = Event | RollEvent


def event_from_json(data: dict[str, Any]) -> AnyEvent:
    if data.get("kind") == "roll":
        return RollEvent.model_validate(data)
    return Event.model_validate(data)
