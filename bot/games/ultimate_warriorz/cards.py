"""Ultimate Warriorz card data: pydantic models and the loader for the TOML/JSON file.

The rule book prints no card values (RULINGS, "Card values"), so the project
authors its own (``cards.toml``) within the constraints of RULINGS.md (Ultimate
Warriorz); a group may load the values printed on its own cards through the
host option ``cards`` (a path) or ``card_data`` (an uploaded file's text).
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    field_validator,
    model_validator,
)

from bot.engine.text import Text
from bot.games.datafile import DATA_MAX, DataFile

DEFAULT_CARDS = Path(__file__).with_name("cards.toml")

Special = Literal[
    "powder-keg",
    "ghost-ring",
    "double-shot",
    "calumet",
    "kamikaze",
    "vampire",
    "spiked-pad",
    "cursed-net",
    "electroshock",
    "claymore",
    "terminotaure",
    "light-suit",
    "strike",
    "skull",
    "spear-whirl",
    "energy-armour",
]

# Préparation du Tribal Rumble: size (= starting HP) and colour; Bottes secrètes et
# objets magiques: each fighter's secret move and magic item.
FIGHTERS: dict[str, tuple[int, str, Special, Special]] = {
    "agaric": (5, "violet", "powder-keg", "ghost-ring"),
    "jojoba": (6, "green", "double-shot", "calumet"),
    "bonzai": (7, "blue", "kamikaze", "vampire"),
    "cactus": (8, "grey", "spiked-pad", "cursed-net"),
    "burdock": (9, "orange", "electroshock", "claymore"),
    "sorgho": (10, "black", "terminotaure", "light-suit"),
    "baobab": (13, "brown", "strike", "skull"),
    "zamioculcas": (16, "red", "spear-whirl", "energy-armour"),
}
NAMES: dict[str, str] = {
    "agaric": "Agaric",
    "jojoba": "Jojoba",
    "bonzai": "Bonzaï",
    "cactus": "Cactus",
    "burdock": "Burdock",
    "sorgho": "Sorgho",
    "baobab": "Baobab",
    "zamioculcas": "Zamioculcas",
}
CARDS_PER_FIGHTER = 8

# Dice counts the book prints on the special cards' texts: a card file may not
# contradict them ("tonnelet ... 3 dés", "trident (3 dés)", "les 2 dés d'attaque au
# corps à corps", "tir normal (4 dés)", "2 attaques ... (2 dés chacune)", "ses 3 dés").
BOOK_DICE: dict[str, dict[str, int]] = {
    "powder-keg": {"ranged": 3},
    "spiked-pad": {"melee": 3},
    "cursed-net": {"melee": 2},
    "strike": {"ranged": 4},
    "spear-whirl": {"melee": 2},
    "energy-armour": {"ranged": 3},
}
# Dice the rules compute (kamikaze from HP, Terminotaure from cards played, the
# claymore from a die): the file sets that stat to 0.
COMPUTED: dict[str, str] = {"kamikaze": "melee", "terminotaure": "melee", "claymore": "ranged"}
# Specials whose effect is an attack of this kind: the card must carry it.
NEEDS: dict[str, str] = {"double-shot": "ranged", "vampire": "melee", "electroshock": "melee"}

SPECIAL_NAMES: dict[str, Text] = {
    "powder-keg": Text(fr="Tonnelet de poudre", en="Powder keg"),
    "ghost-ring": Text(fr="Bague fantomatique", en="Ghost ring"),
    "double-shot": Text(fr="Double tir à l'arc", en="Double shot"),
    "calumet": Text(fr="Calumet shamanique", en="Shamanic calumet"),
    "kamikaze": Text(fr="Attaque kamikaze", en="Kamikaze attack"),
    "vampire": Text(fr="Baguettes vampiriques", en="Vampire chopsticks"),
    "spiked-pad": Text(fr="Coup d'épaulette à pointes", en="Spiked shoulder pad"),
    "cursed-net": Text(fr="Filet maléfique", en="Cursed net"),
    "electroshock": Text(fr="Electroshock", en="Electroshock"),
    "claymore": Text(fr="Claymore électrique", en="Electric claymore"),
    "terminotaure": Text(fr="Mise à mort Terminotaure", en="Terminotaure kill"),
    "light-suit": Text(fr="Habit ultra-luminique", en="Light suit"),
    "strike": Text(fr="« Strike »", en="Strike"),
    "skull": Text(fr="Crâne mystique", en="Mystic skull"),
    "spear-whirl": Text(fr="Vrombissement de lance", en="Spear whirl"),
    "energy-armour": Text(fr="Armure énergétique", en="Energy armour"),
}
SPECIAL_EFFECTS: dict[str, Text] = {
    "powder-keg": Text(
        fr="Tir de 3 dés qui touche TOUS les combattants de la zone ciblée.",
        en="A 3-dice shot that hits EVERY fighter in the targeted zone.",
    ),
    "ghost-ring": Text(
        fr="Tant qu'elle est active, Agaric ne peut pas être attaqué au tir.",
        en="While active, Agaric cannot be attacked by ranged attacks.",
    ),
    "double-shot": Text(
        fr="Deux tirs simultanés depuis la même zone, sur 2 cibles différentes.",
        en="Two simultaneous shots from the same zone, at 2 different targets.",
    ),
    "calumet": Text(
        fr="Tant qu'il est actif, Jojoba ne peut pas être attaqué au corps à corps.",
        en="While active, Jojoba cannot be attacked in melee.",
    ),
    "kamikaze": Text(
        fr="Dés de corps à corps = 8 - PV actuels (de 1 à 6).",
        en="Melee dice = 8 - current HP (1 to 6).",
    ),
    "vampire": Text(
        fr="Les PV perdus par la cible vont aux PV de Bonzaï (aucun PP).",
        en="HP the target loses go to Bonzaï's HP (no PP).",
    ),
    "spiked-pad": Text(
        fr="Trident (3 dés) sur un adversaire et, si vous voulez, épaulette (2 dés) sur un autre.",
        en="Trident (3 dice) on one opponent and, if you wish, shoulder pad (2 dice) on another.",
    ),
    "cursed-net": Text(
        fr="Avant l'attaque, 3 dés : si la somme >= taille de la cible, sa défense -2.",
        en="Before the attack, 3 dice: if the sum >= the target's size, its defence -2.",
    ),
    "electroshock": Text(
        fr="Si l'attaque blesse : la cible a -2 en initiative, Burdock +2, à leur prochaine action.",
        en="If it wounds: the target gets -2 initiative, Burdock +2, on their next action.",
    ),
    "claymore": Text(
        fr="Un dé fixe le nombre de dés du tir (1 à 6).",
        en="One die sets how many dice the shot rolls (1 to 6).",
    ),
    "terminotaure": Text(
        fr="Dés de corps à corps = cartes Action déjà jouées (celle-ci comprise).",
        en="Melee dice = action cards already played (this one included).",
    ),
    "light-suit": Text(
        fr="Tant qu'il est actif, qui attaque Sorgho lance 1 dé de moins.",
        en="While active, whoever attacks Sorgho rolls 1 die less.",
    ),
    "strike": Text(
        fr="Tir de 4 dés ; chaque dé peut être réaffecté à un autre combattant de la zone (un dé chacun).",
        en="A 4-dice shot; each die may be reassigned to another fighter of the zone (one die each).",
    ),
    "skull": Text(
        fr="Le crâne à un adversaire à portée de tir : il ne peut pas attaquer Baobab à sa prochaine action.",
        en="The skull to an opponent in shooting range: it cannot attack Baobab on its next action.",
    ),
    "spear-whirl": Text(
        fr="Une ou deux attaques de 2 dés sur 2 adversaires ; tant qu'elle est active, défense = 1 dé par attaque.",
        en="One or two 2-dice melee attacks on 2 opponents; while active, defence = 1 die per attack.",
    ),
    "energy-armour": Text(
        fr="+1 à chacun des 3 dés du tir.",
        en="+1 to each of the shot's 3 dice.",
    ),
}


class Card(BaseModel):
    """One action card (CARTE ACTION): initiative, move, melee and ranged dice, defence.

    Frozen, like the whole card set: live matches share one set per content and a
    move's state copy keeps it (issue 16 item 5).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(min_length=1, max_length=30, pattern=r"^[a-z0-9-]+$")
    initiative: int = Field(ge=1, le=8)
    move: int = Field(ge=0, le=2)
    melee: int = Field(ge=0, le=6)
    ranged: int = Field(ge=0, le=6)
    defence: int = Field(ge=2, le=6)
    special: Special | None = None
    fighter: str = ""


class FighterData(BaseModel):
    """A fighter sheet (FICHE COMBATTANT) and its eight action cards."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    name: str
    size: int
    colour: str
    defence: int = Field(ge=2, le=6)
    """The sheet's defence, used until the fighter's first card is played."""
    cards: list[Card]

    @model_validator(mode="before")
    @classmethod
    def _owned_cards(cls, data: Any) -> Any:
        """Each card names its fighter (the file need not): set before the frozen cards exist."""
        owner = data.get("id") if isinstance(data, dict) else None
        if isinstance(owner, str) and isinstance(data.get("cards"), list):
            data = dict(data)
            data["cards"] = [
                {**c, "fighter": owner}
                if isinstance(c, dict)
                else c.model_copy(update={"fighter": owner})
                if isinstance(c, Card)
                else c
                for c in data["cards"]
            ]
        return data

    @field_validator("id")
    @classmethod
    def _known(cls, v: str) -> str:
        if v not in FIGHTERS:
            raise ValueError(f"unknown fighter {v!r} (expected one of {', '.join(FIGHTERS)})")
        return v

    @model_validator(mode="after")
    def _constraints(self) -> FighterData:
        size, colour, secret, item = FIGHTERS[self.id]
        if self.size != size:
            raise ValueError(f"{self.id}: size must be {size} (rule book)")
        if self.colour != colour:
            raise ValueError(f"{self.id}: colour must be {colour} (rule book)")
        if len(self.cards) != CARDS_PER_FIGHTER:
            raise ValueError(f"{self.id}: needs exactly 8 action cards, got {len(self.cards)}")
        specials = sorted(c.special for c in self.cards if c.special is not None)
        if specials != sorted([secret, item]):
            raise ValueError(
                f"{self.id}: exactly one secret-move card ({secret!r}) and one "
                f"magic-item card ({item!r}) are needed"
            )
        for c in self.cards:
            for stat, dice in BOOK_DICE.get(c.special or "", {}).items():
                if getattr(c, stat) != dice:
                    raise ValueError(f"{c.id}: {stat} must be {dice} dice, as the book prints it")
            computed = COMPUTED.get(c.special or "")
            if computed and getattr(c, computed) != 0:
                raise ValueError(
                    f"{c.id}: {c.special} dice are computed by the rules: {computed} = 0"
                )
            needed = NEEDS.get(c.special or "")
            if needed and getattr(c, needed) < 1:
                raise ValueError(f"{c.id}: {c.special} needs {needed} dice")
        return self


class CardSet(BaseModel):
    """The whole data file: the eight fighters and their 64 cards.

    Frozen: the rules never change it, so matches playing the same cards share one
    set in memory (:meth:`DataFile.shared`, issue 16 item 5).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    fighters: list[FighterData]

    @model_validator(mode="after")
    def _all_fighters(self) -> CardSet:
        ids = [f.id for f in self.fighters]
        if sorted(ids) != sorted(FIGHTERS):
            raise ValueError("the file must describe each of the eight fighters exactly once")
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
        """The cards by id, made on first use (the set never changes). A cached property,
        not a private attribute: pydantic reads those through its ``__getattr__``, which
        made each lookup cost about 3 µs (rules, AI and views look cards up by the dozen)."""
        return {c.id: c for f in self.fighters for c in f.cards}


CARD_DATA_MAX = DATA_MAX
"""Largest inline card file accepted (bytes of UTF-8)."""

Kind = Literal["secret", "item"]


def special_kind(special: str) -> Kind:
    """Whether a special is a fighter's secret move (botte secrète) or magic item."""
    return "secret" if any(f[2] == special for f in FIGHTERS.values()) else "item"


CARD_FILE = DataFile(
    CardSet,
    DEFAULT_CARDS,
    Text(fr="de cartes", en="card"),
    inline_name="card_data",
    cache_default=True,  # frozen models: every match can share the project's cards
)


def parse_cards(
    text: str,
    *,
    json_format: bool | None = None,
    name: str = "card_data",
    limit: int | None = CARD_DATA_MAX,
) -> CardSet:
    """Validate card data given inline (TOML or JSON); ``json_format=None`` guesses."""
    return CARD_FILE.parse(text, json_format=json_format, name=name, limit=limit or 0)


def load_cards(path: str | Path | None = None, data: str | None = None) -> CardSet:
    """Load and validate card data; a bad file is a polite refusal.

    ``data`` (option ``card_data``) wins over ``path`` (option ``cards``); neither
    means the project's own file.
    """
    return CARD_FILE.load(path, data)


COLOURS_HEX: dict[str, str] = {
    "agaric": "#8e44ad",
    "jojoba": "#27ae60",
    "bonzai": "#2e86de",
    "cactus": "#8395a7",
    "burdock": "#e67e22",
    "sorgho": "#2d3436",
    "baobab": "#8b5a2b",
    "zamioculcas": "#c0392b",
}
"""The printed colour codes (§3), for the image."""
