"""Decisions pending in a match and the choices that answer them.

A :class:`Decision` belongs to one seat and lists every legal
:class:`Option`. Several decisions can be pending at once (simultaneous secret
picks; one seat controlling several fighters). ``key`` identifies a decision
across versions: a button made for it stays valid until that key is answered
or withdrawn, even while other seats answer theirs.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from bot.engine.text import Text

Timing = Literal["pick", "turn", "action", "reaction"]
"""Which deadline applies: card picks and turns, in-action choices, reactions."""


class Option(BaseModel):
    """One legal answer. ``id`` is what :class:`Choice` sends back.

    ``group`` lets a front end build a two-level menu (ship, then destination)
    from a flat list. ``stats`` holds the values a player needs to see on a
    button (a card's initiative, move...).
    """

    id: str
    label: Text
    group: Text | None = None
    detail: Text | None = None
    stats: dict[str, int | str] = Field(default_factory=dict)
    emoji: str | None = None
    style: Literal["primary", "secondary", "success", "danger"] = "secondary"
    row: int | None = None
    """Front-end layout hint: the button row (0-4) this option sits on, e.g. a hex
    compass (NW NE / W E / SW SE). Options without one are packed after."""


class Decision(BaseModel):
    """A question awaiting one seat's answer."""

    key: str
    seat: int
    kind: str
    prompt: Text
    options: list[Option]
    timing: Timing = "turn"
    secret: bool = False
    subject: str | None = None
    """The fighter/piece this decision is for, named in every prompt."""
    hint: Text | None = None
    """A line shown only in the private prompt (e.g. how to type the move instead)."""

    def option(self, option_id: str) -> Option | None:
        for opt in self.options:
            if opt.id == option_id:
                return opt
        return None


class Choice(BaseModel):
    """An answer: which seat, for which pending decision, which option."""

    seat: int
    key: str
    option: str
