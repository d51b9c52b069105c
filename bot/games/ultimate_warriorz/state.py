"""The match state of Ultimate Warriorz (pydantic, so dump/load are exact)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, ValidatorFunctionWrapHandler, field_validator

from bot.engine.text import Text
from bot.games.ultimate_warriorz.cards import CARD_FILE, CardSet

Phase = Literal["draft", "place", "pick", "act", "over"]
AttackKind = Literal["melee", "ranged", "stones"]


class Fighter(BaseModel):
    """One fighter in play and the tokens in front of it (§3 Préparation)."""

    id: str
    seat: int
    team: int
    size: int
    hp: int
    zone: int | None = None
    alive: bool = True
    hand: list[str] = Field(default_factory=list)
    played: list[str] = Field(default_factory=list)
    """Cards played, in order; the last one is the active card (§4.3)."""
    pick: str | None = None
    """This round's card, face down until its initiative is called (§4.1-4.2)."""
    acted: bool = False
    pp: int = 0
    first_wound: bool = True
    """The big 'first wound' token is still on its HP side (worth 3 PP to whoever takes it)."""
    trophies: list[str] = Field(default_factory=list)
    charm: bool = True
    """The lucky charm token, usable once per match (PORTE-BONHEUR)."""
    shock: int = 0
    """An Electroshock token (+2 / -2) for its next action."""
    skull: bool = False
    """Holds Baobab's skull: may not attack Baobab (Crâne mystique)."""
    eliminated_by: str | None = None
    eliminated_round: int | None = None

    @property
    def active(self) -> str | None:
        return self.played[-1] if self.played else None


class Obligation(BaseModel):
    """An attack the active card obliges (§4.3: a value above 0 means the player MUST)."""

    kind: Literal["melee", "ranged", "skull"]
    dice: int = 0
    special: str | None = None
    """The special it carries (powder keg, strike...), None for a plain attack."""
    part: str | None = None
    """For two-attack specials: trident / pad (spiked pad), first / second (spear whirl)."""
    group: str | None = None
    """Obligations of one group must hit different opponents."""
    optional: bool = False
    """The second attack a special allows ("peut"): the card's melee value obliges only one."""
    done: bool = False
    targets: list[str] = Field(default_factory=list)


class Action(BaseModel):
    """The fighter acting now and what it has done so far (§4.3)."""

    fighter: str
    card: str
    moves_left: int
    visited: list[int] = Field(default_factory=list)
    obligations: list[Obligation] = Field(default_factory=list)
    step: int = 0


class Roll(BaseModel):
    """One attack roll against one target, awaiting the charm and its resolution."""

    attacker: str | None
    """None for the stones (nobody scores)."""
    target: str
    kind: AttackKind
    dice: list[int]
    modifier: int = 0
    """Added to each die: -1 long shot, +1 energy armour."""
    defence: int
    special: str | None = None
    card: str | None = None
    """The attacker's card (vampire, electroshock read it)."""
    charm: Literal["none", "ask", "reroll", "no", "flip", "rerolled"] = "none"
    flipped: int | None = None
    rerolled: list[int] = Field(default_factory=list)
    primary: bool = False
    """The strike's main target."""
    roller: str = ""
    """Who rolls the dice in the log: the attacker, or the victim for the stones."""


class Resolution(BaseModel):
    """Rolls made together (a powder keg, a double shot) and the strike's reassignment."""

    id: int
    rolls: list[Roll]
    strike_zone: int | None = None
    strike_others: list[str] = Field(default_factory=list)
    strike_done: bool = False
    assigned: dict[str, int] = Field(default_factory=dict)
    """Strike: fighter -> index of the reassigned die."""


class UWState(BaseModel):
    mode: str
    cards: CardSet
    seat_names: list[str]
    seat_ai: list[bool]
    lots: list[list[str]]
    teams: list[list[str]]
    choose: bool = False
    phase: Phase = "draft"
    draft_seat: int = 0
    seat_lots: dict[int, int] = Field(default_factory=dict)
    fighters: list[Fighter] = Field(default_factory=list)
    round: int = 1
    countdown: int | None = None
    action: Action | None = None
    resolution: Resolution | None = None
    next_roll: int = 1
    hold: int | None = None
    """A seat asked to continue after a charm's effect, before new secret questions open."""
    hold_step: int = 0
    last: list[Text] = Field(default_factory=list)
    """What the last action did, for the image."""
    result_winners: list[int] = Field(default_factory=list)
    result_fighters: list[str] = Field(default_factory=list)
    result_text: Text | None = None
    result_scores: dict[int, float] = Field(default_factory=dict)
    result_shared: bool = False

    @field_validator("cards", mode="wrap")
    @classmethod
    def _shared_cards(cls, value: Any, handler: ValidatorFunctionWrapHandler) -> CardSet:
        """Matches playing the same cards share one frozen card set (issue 16 item 5)."""
        return CARD_FILE.shared(value, handler)

    def fighter(self, fid: str) -> Fighter:
        for f in self.fighters:
            if f.id == fid:
                return f
        raise KeyError(fid)

    def alive(self) -> list[Fighter]:
        return [f for f in self.fighters if f.alive]
