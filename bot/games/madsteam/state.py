"""The match state of Madsteam (pydantic, so dump/load are exact)."""

from __future__ import annotations

import weakref
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidatorFunctionWrapHandler, field_validator

from bot.engine.text import Text
from bot.games.madsteam.data import DATA_FILE, GameData, Place

HERO_VALUES = [3, 4, 4, 5]
"""Mise en place : each clan's heroes are the meeples 3, 4, 4 and 5."""

Phase = Literal[
    "shelter-pick", "setup", "events", "harvest", "shelter", "resolve", "comfort", "over"
]
Step = Literal["feed", "recruit", "pay", "repair", "done"]


def _free_slots() -> list[int | None]:
    return [None] * 4


class Hero(BaseModel):
    value: int
    place: Place
    standing: bool = False
    """Standing: played this round (pressure hits only standing heroes)."""


class Gibier(BaseModel):
    """A gibier card in play. Frozen: a kill takes it off its stack, nothing changes it,
    so every live match shares one object per card content (issue 16 item 5)."""

    model_config = ConfigDict(frozen=True)

    name: str
    name_en: str | None = None
    strength: int
    food: list[int]

    @property
    def names(self) -> Text:
        return Text(fr=self.name, en=self.name_en or self.name)


_GIBIER: weakref.WeakValueDictionary[tuple[str, str | None, int, tuple[int, ...]], Gibier] = (
    weakref.WeakValueDictionary()
)
"""Gibier cards in use by some live match, by content."""


def shared_gibier(g: Gibier) -> Gibier:
    """The one object in use for this card's content (``g`` itself if it is the first)."""
    return _GIBIER.setdefault((g.name, g.name_en, g.strength, tuple(g.food)), g)


class Player(BaseModel):
    name: str
    shelter: str | None = None
    rooms: list[int] = Field(default_factory=lambda: [0] * 8)
    """Survivors in each of the shelter's 8 rooms."""
    res: dict[str, int] = Field(default_factory=dict)
    comfort: int = 4
    heroes: list[Hero] = Field(default_factory=list)
    drawn: list[str] = Field(default_factory=list)
    """The two objects drawn at set-up, until one is kept (private)."""
    inactive: list[str] = Field(default_factory=list)
    active: list[str] = Field(default_factory=list)
    used: list[str] = Field(default_factory=list)
    """Active objects already used this round (once per round)."""
    kills: dict[int, int] = Field(default_factory=dict)
    """Gibier killed by strength: the next kill of that strength reads further on its track."""
    resolved: list[str] = Field(default_factory=list)
    rooms_set: bool = False
    heroes_set: bool = False
    to_lose: int = 0
    losses_asked: int = 0
    pay_due: int = 0
    """Recruits' price still to pay when the clan chooses between its last water and cans."""
    step: Step = "done"

    def has(self, r: str) -> int:
        return self.res.get(r, 0)

    def add(self, r: str, n: int) -> None:
        self.res[r] = self.res.get(r, 0) + n

    @property
    def survivors(self) -> int:
        return sum(self.rooms)


class Arrival(BaseModel):
    """A hero that just arrived: pressure first, then the place's action."""

    seat: int
    hero: int
    place: Place
    stage: Literal["pressure", "act", "hunt-pick", "hunt-alloc", "house", "well"] = "pressure"
    defenders: dict[int, int] = Field(default_factory=dict)
    """Seats still to answer a pressure, with the difference each must cover."""
    target: int | None = None
    """Index in the place's gibier stack being hunted."""


class MSState(BaseModel):
    data: GameData
    players: list[Player]
    round: int = 0
    phase: Phase = "shelter-pick"
    pick_turn: int = 0
    first: int = 0
    """Who holds the first-player token (Supermarché)."""
    round_first: int = 0
    """Who began this round's harvest (the token may move during it)."""
    turn: int = 0
    moves: int = 0
    """Heroes moved this round: keys of harvest decisions."""
    token_taken: bool = False
    supply: dict[str, int] = Field(default_factory=dict)
    search: dict[str, list[dict[str, int]]] = Field(default_factory=dict)
    search_aside: dict[str, list[dict[str, int]]] = Field(default_factory=dict)
    house_objects: dict[str, list[str]] = Field(default_factory=dict)
    object_deck: list[str] = Field(default_factory=list)
    gibier: dict[str, list[Gibier]] = Field(default_factory=dict)
    """Stacks on the forest, the mine and the factory; the last card is the visible top."""
    slots: list[int | None] = Field(default_factory=lambda: _free_slots())
    event_deck: list[str] = Field(default_factory=list)
    events_active: list[str] = Field(default_factory=list)
    feed_extra: int = 0
    arrival: Arrival | None = None
    resolve_order: list[int] = Field(default_factory=list)
    comfort_left: list[int] = Field(default_factory=list)
    summary: list[Text] = Field(default_factory=list)
    """This round's public lines (pressure exchanges, hunts), for the view."""
    winners: list[int] = Field(default_factory=list)
    scores: dict[int, int] = Field(default_factory=dict)
    shared: bool = False

    @field_validator("data", mode="wrap")
    @classmethod
    def _shared_data(cls, value: Any, handler: ValidatorFunctionWrapHandler) -> GameData:
        """Matches playing the same data file share one frozen copy (issue 16 item 5)."""
        return DATA_FILE.shared(value, handler)

    @field_validator("gibier")
    @classmethod
    def _shared_gibier(cls, value: dict[str, list[Gibier]]) -> dict[str, list[Gibier]]:
        """The stacks hold the one shared card of each content (issue 16 item 5)."""
        return {place: [shared_gibier(g) for g in stack] for place, stack in value.items()}

    @property
    def n(self) -> int:
        return len(self.players)
