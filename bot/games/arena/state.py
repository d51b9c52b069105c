"""The match state of Arena!: fighters, round track, the turn being built, the last turn."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from bot.games.arena.board import Hex
from bot.games.arena.postures import Posture

Step = Literal["posture", "action", "fight"]


class Fighter(BaseModel):
    """One combatant: its hex, HP track, posture track and markers."""

    seat: int
    name: str
    colour: str
    pos: Hex
    hp: int = 7
    posture: Posture = "garde"
    """The posture chosen on its last turn ("en garde" at setup, book "Préparation" 4)."""
    down: bool = False
    disarmed: bool = False
    weapon_at: Hex | None = None
    out: bool = False
    """Knocked out (0 HP): its hex stays blocked for the rest of the match."""
    resting: bool = False
    attacked_while_resting: bool = False


class AttackRecord(BaseModel):
    """One attack, for the log, the picture and the tests."""

    attacker: int
    defender: int
    at: Hex
    attack_dice: list[int]
    defence_dice: list[int]
    attack_total: int
    defence_total: int
    hit: bool
    damage: int = 0
    attack_value: int | None = None
    """The posture-table values the wound was computed from ("Blessures")."""
    defence_value: int | None = None
    hp_after: int
    knocked_out: bool = False
    disarmed: bool = False
    attacker_fell: bool = False
    defender_fell: bool = False


class Turn(BaseModel):
    """The turn being built, one decision at a time."""

    number: int
    seat: int
    step: Step = "posture"
    posture: Posture | None = None
    stay_down: bool = False
    required: int = 0
    """Hexes the move must cross (exact length, or the longest legal path)."""
    path: list[Hex] = Field(default_factory=list)
    """Hexes visited this turn, the starting hex first."""
    attacked: bool = False
    choices: int = 0
    """How many fight choices were made: keeps decision keys unique."""
    attack: AttackRecord | None = None


class TurnRecord(BaseModel):
    """What the last finished turn did; the renderer highlights it."""

    seat: int
    round: int
    posture: str
    action: str
    path: list[Hex] = Field(default_factory=list)
    attack: AttackRecord | None = None
    healed: bool = False


class ArenaState(BaseModel):
    fighters: list[Fighter]
    order: list[int]
    """Seats in playing order: random first player, then clockwise (book "Début du jeu")."""
    round: int = 1
    index: int = 0
    turn: Turn | None = None
    last: TurnRecord | None = None
    healed_now: bool = False
    """The fighter whose turn it is regained 1 HP when it began (shown in the record)."""
    turns_played: int = 0
    finished: bool = False
    winner: int | None = None
