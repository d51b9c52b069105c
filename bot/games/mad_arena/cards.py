"""Mad Arena card data: pydantic models and the loader for the TOML/JSON file.

The rule book prints no card values, so the project authors its own
(``cards.toml``) within the constraints of RULINGS.md (Mad Arena); a group may
load the values printed on its own cards through the host option ``cards``.
"""

from __future__ import annotations

import hashlib
import json
import weakref
from collections.abc import Callable
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from bot.engine.text import Text
from bot.games.datafile import DATA_MAX, DataFile

DEFAULT_CARDS = Path(__file__).with_name("cards.toml")

SecretKind = Literal["powder-keg", "kamikaze", "net", "terminotaure", "finishing", "strike", "kick"]

# RULINGS (Mad Arena): sizes, colours, card counts and the secret move of each fighter.
FIGHTERS: dict[str, tuple[int, str, int, SecretKind]] = {
    "agaric": (5, "violet", 6, "powder-keg"),
    "bonzai": (7, "blue", 6, "kamikaze"),
    "cactus": (8, "green", 6, "net"),
    "burdock": (9, "bronze", 6, "finishing"),
    "sorgho": (10, "yellow", 6, "terminotaure"),
    "baobab": (13, "brown", 5, "strike"),
    "zamioculcas": (16, "red", 1, "kick"),
}
DRAGON = "zamioculcas"

# Dice counts the book itself prints (Bottes secrètes, Règles spéciales du
# dragon): a card file may not contradict them.
BOOK_DICE: dict[str, dict[str, int]] = {
    "powder-keg": {"ranged": 3},
    "net": {"ranged": 3},
    "finishing": {"melee": 5},
    "strike": {"ranged": 4},
    "kick": {"melee": 4, "ranged": 5},
}

# Which attack a secret move replaces (Bottes secrètes).
SECRET_STAT: dict[str, Literal["melee", "ranged"]] = {
    "powder-keg": "ranged",
    "kamikaze": "melee",
    "net": "ranged",
    "terminotaure": "melee",
    "finishing": "melee",
    "strike": "ranged",
    "kick": "melee",
}
SECRET_SHORT: dict[str, Text] = {
    "powder-keg": Text(fr="Tonnelet de poudre", en="Powder keg"),
    "kamikaze": Text(fr="Kamikaze", en="Kamikaze"),
    "net": Text(fr="Filet de ronces", en="Bramble net"),
    "terminotaure": Text(fr="Terminotaure", en="Terminotaure"),
    "finishing": Text(fr="Finishing", en="Finishing"),
    "strike": Text(fr="Strike", en="Strike"),
    "kick": Text(fr="Coup de sandale", en="Sandal kick"),
}
SECRET_NAMES: dict[str, Text] = {
    "powder-keg": Text(fr="Tonnelet de poudre", en="Powder keg"),
    "kamikaze": Text(fr="Attaque kamikaze", en="Kamikaze attack"),
    "net": Text(fr="Filet de ronces", en="Bramble net"),
    "terminotaure": Text(fr="Mise à mort du Terminotaure", en="Terminotaure kill"),
    "finishing": Text(fr="« Finishing »", en="Finishing"),
    "strike": Text(fr="« Strike »", en="Strike"),
    "kick": Text(fr="Coup de sandale « Dégage de là ! »", en="Sandal kick “Get out of here!”"),
}


class Card(BaseModel):
    """One action card. ``initiative`` is None only on the dragon's card (the gong sets it)."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1, max_length=30, pattern=r"^[a-z0-9-]+$")
    initiative: int | None = Field(default=None, ge=1, le=6)
    move: int = Field(ge=0, le=2)
    melee: int = Field(ge=0, le=6)
    ranged: int = Field(ge=0, le=6)
    defence: int = Field(ge=2, le=6)
    secret: SecretKind | None = None
    fighter: str = ""


class FighterData(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    name: str
    size: int
    colour: str
    base_defence: int = Field(ge=2, le=6)
    dragon: bool = False
    cards: list[Card]

    @field_validator("id")
    @classmethod
    def _known(cls, v: str) -> str:
        if v not in FIGHTERS:
            raise ValueError(f"unknown fighter {v!r} (expected one of {', '.join(FIGHTERS)})")
        return v

    @model_validator(mode="after")
    def _constraints(self) -> FighterData:
        size, colour, count, secret = FIGHTERS[self.id]
        if self.size != size:
            raise ValueError(f"{self.id}: size must be {size} (rule book)")
        if self.colour != colour:
            raise ValueError(f"{self.id}: colour must be {colour} (rule book)")
        if len(self.cards) != count:
            raise ValueError(
                f"{self.id}: needs exactly {count} action cards, got {len(self.cards)}"
            )
        if self.dragon != (self.id == DRAGON):
            raise ValueError(f"{self.id}: only Zamioculcas is the dragon")
        secrets = [c for c in self.cards if c.secret is not None]
        if len(secrets) != 1 or secrets[0].secret != secret:
            raise ValueError(f"{self.id}: exactly one card must be the secret move {secret!r}")
        for c in self.cards:
            c.fighter = self.id
            if self.dragon:
                if c.initiative is not None or c.move != 0:
                    raise ValueError("the dragon's card has no initiative (gong) and move 0")
            elif c.initiative is None:
                raise ValueError(f"{c.id}: initiative 1-6 is required")
            for stat, dice in BOOK_DICE.get(c.secret or "", {}).items():
                if getattr(c, stat) != dice:
                    raise ValueError(
                        f"{c.id}: {stat} must be {dice} dice, as the rule book prints it"
                    )
            if c.secret in ("kamikaze", "terminotaure") and c.melee != 0:
                raise ValueError(
                    f"{c.id}: {c.secret} dice are computed by the rules: set melee = 0"
                )
        return self


class CardSet(BaseModel):
    """The whole data file: the seven fighters and their 36 cards."""

    model_config = ConfigDict(extra="forbid")

    fighters: list[FighterData]

    @model_validator(mode="after")
    def _all_fighters(self) -> CardSet:
        ids = [f.id for f in self.fighters]
        if sorted(ids) != sorted(FIGHTERS):
            raise ValueError("the file must describe each of the seven fighters exactly once")
        card_ids = [c.id for f in self.fighters for c in f.cards]
        if len(set(card_ids)) != len(card_ids):
            raise ValueError("card ids must be unique")
        return self

    def fighter(self, fid: str) -> FighterData:
        for f in self.fighters:
            if f.id == fid:
                return f
        raise KeyError(fid)

    def card(self, cid: str) -> Card:
        return self.card_index[cid]

    @cached_property
    def card_index(self) -> dict[str, Card]:
        """The cards by id, made on first use: a set is never changed once validated
        (:func:`shared_card_set`), and rules, AI and views look cards up by the dozen (a
        scan of the 36 cards took 1-3 µs a lookup)."""
        return {c.id: c for f in self.fighters for c in f.cards}


CARD_DATA_MAX = DATA_MAX
"""Largest inline card file accepted (bytes of UTF-8): the seven fighters fit in a few KiB."""

CARD_FILE = DataFile(
    CardSet, DEFAULT_CARDS, Text(fr="de cartes", en="card"), inline_name="card_data"
)


def parse_cards(
    text: str,
    *,
    json_format: bool | None = None,
    name: str = "card_data",
    limit: int | None = CARD_DATA_MAX,
) -> CardSet:
    """Validate card data given inline (TOML or JSON) with the same models and book constraints."""
    return CARD_FILE.parse(text, json_format=json_format, name=name, limit=limit or 0)


def load_cards(path: str | Path | None = None, data: str | None = None) -> CardSet:
    """Load and validate card data; a bad file is a polite refusal.

    ``data`` (option ``card_data``: an uploaded file's text) wins over ``path``
    (option ``cards``: a file on the bot's host); neither means the project's file.
    """
    return CARD_FILE.load(path, data)


_SHARED: weakref.WeakValueDictionary[str, CardSet] = weakref.WeakValueDictionary()
"""Card sets in use, by a hash of their content (kept while a live match holds one)."""


def _content_key(data: Any) -> str | None:
    try:
        text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError):
        return None
    return hashlib.sha256(text.encode()).hexdigest()


def shared_card_set(value: Any, build: Callable[[Any], CardSet]) -> CardSet:
    """One card set object per content, shared by every live match that plays with it.

    Why (issue 16 item 5): a card set is about 47 kB in memory and every match holds
    one; most hold the project's file, groups their own upload. It is still dumped
    with each match's state, so a snapshot and a replay need nothing else; only the
    objects in memory are shared (card sets are never changed once validated).
    ``value`` is what the state is built from (stored JSON or a set), ``build`` the
    validation run when this content is not in use yet.
    """
    raw = value.model_dump(mode="json") if isinstance(value, CardSet) else value
    key = _content_key(raw)
    found = _SHARED.get(key) if key is not None else None
    if found is not None:
        return found
    cards = value if isinstance(value, CardSet) else build(value)
    canonical = _content_key(cards.model_dump(mode="json"))
    assert canonical is not None  # a validated set dumps to JSON
    found = _SHARED.get(canonical)
    if found is None:
        found = _SHARED.setdefault(canonical, cards)
    if key is not None and key != canonical:
        _SHARED[key] = found
    return found
