"""The match state of Mad Arena (pydantic, so dump/load are exact)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, ValidatorFunctionWrapHandler, field_validator

from bot.engine.text import Text
from bot.games.mad_arena.cards import Card, CardSet, FighterData, shared_card_set


class Trophy(BaseModel):
    """A trophy card (§3 Élimination): the victim's card in play, or its fighter card."""

    fighter: str
    card: str | None = None


class Fighter(BaseModel):
    id: str
    seat: int
    team: int
    hp: int
    zone: int
    round_zone: int | None = None
    """Where the fighter stood when the round began (§2.4: two moves end elsewhere)."""
    alive: bool = True
    hand: list[str] = Field(default_factory=list)
    discard: list[str] = Field(default_factory=list)
    removed: list[str] = Field(default_factory=list)
    """Used secret moves, out of the game for good (Bottes secrètes)."""
    in_play: str | None = None
    pick: str | None = None
    acted: bool = False
    played_since_refill: int = 0
    trophies: list[Trophy] = Field(default_factory=list)
    eliminated_by: str | None = None
    eliminated_round: int | None = None
    kick_used: bool = False


class Action(BaseModel):
    """The fighter acting now and what it has done so far (§2.4)."""

    fighter: str
    step: int = 0
    start_zone: int
    round_zone: int | None = None
    path: list[int] = Field(default_factory=list)
    moves_total: int = 0
    moves_left: int = 0
    melee_done: bool = False
    ranged_done: bool = False
    # A follow-up choice in progress: the strike's order, the dragon's split, the kick's throw.
    sub: Literal["strike-order", "dragon-split", "kick-throw"] | None = None
    sub_zone: int | None = None
    kicked: str | None = None


class LastAction(BaseModel):
    """What the image highlights: the last actor, its path and its targets."""

    fighter: str
    path: list[int] = Field(default_factory=list)
    targets: list[str] = Field(default_factory=list)
    zones: list[int] = Field(default_factory=list)


class MAState(BaseModel):
    mode: str
    seat_names: list[str]
    cards: CardSet
    zones: list[str]
    """Peripheral zones in ring order; each is named after the fighter whose card it is."""
    fighters: list[Fighter]
    teams: list[list[str]]
    dragon_first: Literal["blue", "red"] = "blue"
    round: int = 1
    phase: Literal["pick", "action", "over"] = "pick"
    countdown: int = 6
    action: Action | None = None
    net_on: str | None = None
    last: LastAction | None = None
    result_winners: list[int] = Field(default_factory=list)
    result_scores: dict[int, float] = Field(default_factory=dict)
    result_text: Text | None = None
    result_shared: bool = False

    @field_validator("cards", mode="wrap")
    @classmethod
    def _shared_cards(cls, value: Any, handler: ValidatorFunctionWrapHandler) -> CardSet:
        """Matches playing the same cards share one card set in memory (issue 16 item 5)."""
        return shared_card_set(value, handler)

    # --- helpers -----------------------------------------------------------------
    @property
    def centre(self) -> int:
        return len(self.zones)

    def f(self, fid: str) -> Fighter:
        for x in self.fighters:
            if x.id == fid:
                return x
        raise KeyError(fid)

    def data(self, fid: str) -> FighterData:
        return self.cards.fighter(fid)

    def card(self, cid: str) -> Card:
        return self.cards.card(cid)

    def name(self, fid: str) -> str:
        return self.cards.fighter(fid).name

    def alive(self) -> list[Fighter]:
        return [x for x in self.fighters if x.alive]
