"""Typed option and decision arguments: the rules read these, never option ids."""

from __future__ import annotations

from bot.engine.decisions import Args


class Lot(Args):
    """A person's choice of fighter(s) in the lobby order (§2 Attribution)."""

    index: int


class Place(Args):
    """Put a fighter on an empty zone (§3 step 2)."""

    zone: int


class PickCard(Args):
    """The action card chosen face down this round (§4.1)."""

    card: str


class Move(Args):
    """One movement point: into an adjacent zone (§4.3 Mouvement)."""

    zone: int


class Attack(Args):
    """An obliged attack (plain, or a special's) at one target."""

    obligation: int
    target: str


class Keg(Args):
    """Agaric's powder keg at a zone (every fighter there)."""

    obligation: int
    zone: int


class DoubleShot(Args):
    """Jojoba's double shot: two different targets (one if only one can be shot)."""

    obligation: int
    targets: list[str]


class GiveSkull(Args):
    """Baobab gives the skull token to an opponent in shooting range."""

    obligation: int
    target: str


class EndAction(Args):
    """End the action without the second attack a special allows (it is not obliged)."""


class CharmNo(Args):
    """Keep the lucky charm."""


class CharmFlip(Args):
    """Turn one attack die over (x becomes 7 - x)."""

    die: int


class CharmReroll(Args):
    """Make the attacker reroll dice (chosen next)."""


class Die(Args):
    """One die of an attack roll, by position."""

    die: int


class Fighter(Args):
    """What a decision is about: one fighter."""

    fighter: str


class RollRef(Args):
    """What a charm decision is about: a fighter and the roll against it."""

    fighter: str
    resolution: int
    roll: int


class Continue(Args):
    """Go on after a lucky charm's effect (the next secret questions open after this)."""
