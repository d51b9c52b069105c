"""Typed arguments of Madsteam's options and decisions (the game reads these, never ids)."""

from __future__ import annotations

from bot.engine.decisions import Args
from bot.games.madsteam.data import Place


class PickShelter(Args):
    shelter: str


class KeepObject(Args):
    object: str


class PlaceHeroes(Args):
    """Set-up: where the 5 and the 3 lie (the two 4s take the other two places)."""

    five: Place
    three: Place


class Move(Args):
    hero: int
    place: Place
    free_move: bool = False
    """Uses an object's unlimited move (Exosquelette)."""


class Pump(Args):
    pump: bool


class Hunt(Args):
    """Hunt the gibier at this index of the place's stack (None: no hunt)."""

    index: int | None


class PayRecruits(Args):
    """Recrutement: pay the rest with cans and keep the last water, or spend that water."""

    keep_water: bool


class Resolve(Args):
    event: str | None


class Comfort(Args):
    resource: str


class About(Args):
    """What a question is about: which seat, and which hero when one acts."""

    seat: int
    hero: int | None = None
