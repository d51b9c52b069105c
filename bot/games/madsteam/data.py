"""Madsteam data: pydantic models, the book's constraints, and the TOML/JSON loader.

The rule book prints only a few cards, so the project authors the rest
(``data.toml``) within RULINGS.md (Madsteam); every object the book names keeps
its printed effect. A group may load its own file (host option ``data``, or an
uploaded file in ``data_text``); the same validation applies.
"""

from __future__ import annotations

from collections import Counter
from functools import cached_property
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bot.engine.text import Text
from bot.games.datafile import DataFile

DEFAULT_DATA = Path(__file__).with_name("data.toml")

Resource = Literal["water", "food", "cans", "wood", "metal", "chips", "ammo"]
RESOURCES: list[str] = ["water", "food", "cans", "wood", "metal", "chips", "ammo"]
DENREES: list[str] = ["water", "food", "cans"]
"""Denrées feed and attract survivors (Phase d'Abri 1-2)."""
MATERIALS: list[str] = ["wood", "metal", "chips", "ammo"]
"""Ressources de fabrication (the book keeps them apart from the denrées)."""

Place = Literal["well", "armoury", "forest", "house_a", "house_b", "factory", "supermarket", "mine"]
PLACES: list[Place] = [
    "well",
    "armoury",
    "forest",
    "house_a",
    "house_b",
    "factory",
    "supermarket",
    "mine",
]
"""The ring of RULINGS (Puits - Armurerie - Forêt - Maison A - Maison B - Usine -
Supermarché - Mine - Puits), in that order, plus the path Puits - Forêt."""
HUNTING: list[str] = ["forest", "mine", "factory"]
HARVEST: dict[str, str] = {
    "well": "water",
    "armoury": "ammo",
    "forest": "wood",
    "mine": "metal",
    "factory": "chips",
}

# Objects the book names, with their printed effect (figures of pages 2-3, 6-7).
BOOK_OBJECTS: dict[str, tuple[str, str | None, str | None, int]] = {
    "Fusil à pompe": ("hunt", None, None, 1),
    "Piège à ours": ("hunt", None, None, 1),
    "Pioche": ("bonus", "mine", "metal", 2),
    "Décontamineur": ("bonus", "mine", "water", 1),
    "Méca-dog": ("search", None, None, 1),
    "Décrypteur": ("free_well", None, None, 0),
    "Arbalète": ("bonus", "forest", "food", 1),
    "Jerrican": ("bonus", "well", "water", 1),
    "Vision thermique": ("hunt_choice", None, None, 0),
    "Exosquelette": ("free_move", None, None, 0),
}


class Effect(BaseModel):
    """An object's effect or a room's power (see data.toml for the kinds)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal[
        "none",
        "bonus",
        "hunt",
        "search",
        "free_well",
        "hunt_choice",
        "free_move",
        "income",
        "comfort",
    ]
    place: Place | None = None
    resource: Resource | None = None
    amount: int = Field(default=0, ge=0, le=5)

    @model_validator(mode="after")
    def _complete(self) -> Effect:
        if self.kind == "bonus" and (self.place is None or self.resource is None):
            raise ValueError("a bonus names its place and resource")
        if self.kind == "income" and self.resource is None:
            raise ValueError("an income names its resource")
        if self.kind in ("bonus", "hunt", "search", "income", "comfort") and self.amount < 1:
            raise ValueError(f"{self.kind}: amount must be at least 1")
        return self


class ObjectCard(BaseModel):
    """An object: 3-icon repair cost, one effect, half of a coloured symbol."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z0-9-]+$")
    name: str
    name_en: str | None = None
    cost: list[Resource] = Field(min_length=3, max_length=3)
    effect: Effect
    symbol: str
    half: Literal["left", "right"]

    @cached_property
    def names(self) -> Text:
        """The card's name in both languages (``name_en`` falls back on the French one)."""
        return Text(fr=self.name, en=self.name_en or self.name)

    @model_validator(mode="after")
    def _effect_kind(self) -> ObjectCard:
        if self.effect.kind in ("none", "income", "comfort"):
            raise ValueError(f"{self.id}: {self.effect.kind} is a room power, not an object's")
        return self


class GibierKind(BaseModel):
    """``count`` gibier cards of one strength and food track."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    name_en: str | None = None
    strength: int = Field(ge=1, le=12)
    food: list[int] = Field(min_length=2)
    count: int = Field(ge=1)

    @cached_property
    def names(self) -> Text:
        """The card's name in both languages (``name_en`` falls back on the French one)."""
        return Text(fr=self.name, en=self.name_en or self.name)

    @model_validator(mode="after")
    def _growing(self) -> GibierKind:
        if any(b < a for a, b in zip(self.food, self.food[1:], strict=False)):
            raise ValueError(f"{self.name}: the food track grows with each kill")
        return self


class EventEffect(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["lose", "supply", "survivors", "feed"]
    resource: Resource | None = None
    place: Place | None = None
    amount: int = Field(ge=1, le=5)

    @model_validator(mode="after")
    def _complete(self) -> EventEffect:
        if self.kind == "lose" and self.resource is None:
            raise ValueError("lose names a resource")
        if self.kind == "supply" and self.place not in HARVEST:
            raise ValueError(
                "supply names a place with a supply (well, armoury, forest, mine, factory)"
            )
        return self


class EventCard(BaseModel):
    """An event: immediate effect (phase 1), resolution cost, survival points."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z0-9-]+$")
    name: str
    name_en: str | None = None
    effects: list[EventEffect] = Field(min_length=1)
    cost: dict[str, int]
    points: int = Field(ge=1, le=10)

    @cached_property
    def names(self) -> Text:
        """The card's name in both languages (``name_en`` falls back on the French one)."""
        return Text(fr=self.name, en=self.name_en or self.name)

    @model_validator(mode="after")
    def _cost(self) -> EventCard:
        if any(k not in RESOURCES for k in self.cost):
            raise ValueError(f"{self.id}: costs are in {', '.join(RESOURCES)}")
        if not self.cost or any(v < 1 for v in self.cost.values()):
            raise ValueError(f"{self.id}: a resolution costs something")
        if "food" in self.cost:
            raise ValueError(f"{self.id}: food is gone by step 4 (it perishes at step 2)")
        return self


class SearchKind(BaseModel):
    """``count`` search cards of house A or B giving these tokens (``comfort`` too)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    house: Literal["A", "B"]
    gives: dict[str, int]
    count: int = Field(ge=1)

    @model_validator(mode="after")
    def _known(self) -> SearchKind:
        if any(k not in (*RESOURCES, "comfort") or v < 1 for k, v in self.gives.items()):
            raise ValueError("a search card gives resources or comfort, 1 or more each")
        return self


class Room(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    name_en: str | None = None
    slots: int = Field(ge=1, le=6)
    cost: int = Field(ge=0, le=5)
    power: Effect

    @cached_property
    def names(self) -> Text:
        """The card's name in both languages (``name_en`` falls back on the French one)."""
        return Text(fr=self.name, en=self.name_en or self.name)

    @model_validator(mode="after")
    def _power(self) -> Room:
        if self.power.kind not in ("none", "income", "comfort", "bonus", "hunt"):
            raise ValueError(f"{self.name}: a room's power is none, income, comfort, bonus or hunt")
        return self


class Shelter(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z0-9-]+$")
    name: str
    name_en: str | None = None
    rooms: list[Room] = Field(min_length=8, max_length=8)

    @cached_property
    def names(self) -> Text:
        """The card's name in both languages (``name_en`` falls back on the French one)."""
        return Text(fr=self.name, en=self.name_en or self.name)

    @model_validator(mode="after")
    def _room_for_six(self) -> Shelter:
        if sum(r.slots for r in self.rooms) < 6:
            raise ValueError(f"{self.id}: the 6 starting survivors need 6 slots")
        return self


class Slot(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    value: int = Field(ge=1, le=5)
    cans: int = Field(ge=0, le=10)


class Supplies(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    water: int = Field(ge=0)
    wood: int = Field(ge=0)
    metal: int = Field(ge=0)
    chips: int = Field(ge=0)
    ammo: int = Field(ge=0)
    search: int = Field(ge=0)
    gibier: int = Field(ge=1)

    def of(self, resource: str) -> int:
        return int(getattr(self, resource))


class GameData(BaseModel):
    """The whole data file."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    supplies: dict[int, Supplies]
    supermarket: list[Slot] = Field(min_length=4, max_length=4)
    objects: list[ObjectCard]
    gibier: list[GibierKind]
    events: list[EventCard]
    search: list[SearchKind]
    shelters: list[Shelter] = Field(min_length=4, max_length=4)

    @model_validator(mode="after")
    def _book(self) -> GameData:
        if sorted(self.supplies) != [2, 3, 4]:
            raise ValueError("supplies are given for 2, 3 and 4 players")
        if len(self.objects) != 40:
            raise ValueError(f"the game has 40 objects, not {len(self.objects)}")
        ids = [o.id for o in self.objects]
        if len(set(ids)) != len(ids):
            raise ValueError("object ids must be unique")
        by_name = {o.name: o for o in self.objects}
        for name, (kind, place, res, amount) in BOOK_OBJECTS.items():
            o = by_name.get(name)
            if o is None:
                raise ValueError(f"the book's object {name!r} is missing")
            e = o.effect
            if (e.kind, e.place, e.resource) != (kind, place, res) or (
                amount and e.amount != amount
            ):
                raise ValueError(f"{name}: the effect must be the one the book prints")
        halves = Counter((o.symbol, o.half) for o in self.objects)
        symbols = {o.symbol for o in self.objects}
        if len(symbols) != 20 or any(
            halves[(s, "left")] != 1 or halves[(s, "right")] != 1 for s in symbols
        ):
            raise ValueError("20 symbols, each split in one left and one right half")
        if sum(g.count for g in self.gibier) != 36:
            raise ValueError("the game has 36 gibier cards")
        if len(self.events) != 10 or len({e.id for e in self.events}) != 10:
            raise ValueError("the game has 10 events with distinct ids")
        for house in ("A", "B"):
            n = sum(s.count for s in self.search if s.house == house)
            if n < max(s.search for s in self.supplies.values()):
                raise ValueError(f"house {house} needs at least as many search cards as it holds")
        for count, sup in self.supplies.items():
            usable = sum(g.count for g in self.gibier if count > 2 or g.strength != 2)
            if sup.gibier > usable:
                raise ValueError(f"{count} players: not enough gibier cards")
        if any(s.value not in (3, 4, 5) for s in self.supermarket):
            raise ValueError("a supermarket slot shows a meeple's value: 3, 4 or 5")
        if len({s.id for s in self.shelters}) != 4:
            raise ValueError("4 shelters with distinct ids")
        return self

    def obj(self, oid: str) -> ObjectCard:
        return self.objects_by_id[oid]

    def event(self, eid: str) -> EventCard:
        return self.events_by_id[eid]

    def shelter(self, sid: str) -> Shelter:
        return self.shelters_by_id[sid]

    # By id, made on first use: the data never changes once validated, and the rules,
    # views and AI look cards up by the dozen a step (a scan of the list each time).
    @cached_property
    def objects_by_id(self) -> dict[str, ObjectCard]:
        return {o.id: o for o in self.objects}

    @cached_property
    def events_by_id(self) -> dict[str, EventCard]:
        return {e.id: e for e in self.events}

    @cached_property
    def shelters_by_id(self) -> dict[str, Shelter]:
        return {s.id: s for s in self.shelters}


DATA_FILE = DataFile(
    GameData,
    DEFAULT_DATA,
    Text(fr="de données", en="data"),
    inline_name="data_text",
    limit_host_files=True,
    cache_default=True,  # frozen models: every match can share the project's data
)


def parse_data(text: str, *, json_format: bool | None = None, name: str = "data_text") -> GameData:
    """Validate data given inline (TOML, or JSON when it starts with ``{``)."""
    return DATA_FILE.parse(text, json_format=json_format, name=name)


def load_data(path: str | Path | None = None, text: str | None = None) -> GameData:
    """The inline text wins over the path; neither means the project's file."""
    return DATA_FILE.load(path, text)
