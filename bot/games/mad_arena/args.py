"""What Mad Arena's decisions and options mean, typed (``Option.args``, ``Decision.args``).

The rules and the AI read these, never an option id or a decision key: the ids
(``move-z3``, ``melee-cactus``...) stay exactly as older decision logs stored them,
but only as opaque keys.
"""

from __future__ import annotations

from bot.engine.decisions import Args


class ForFighter(Args):
    """A decision's subject: the fighter who picks a card or acts (one seat may run several)."""

    fighter: str


class PlayCard(Args):
    """§2.2: the action card chosen in secret this round."""

    card: str


class Move(Args):
    """§2.4 Mouvement: one movement point to an adjacent zone."""

    zone: int


class Free(Args):
    """Cactus's net: a movement point spent to get free, moving nowhere."""


class End(Args):
    """§2.4: the action is over (offered once every movement point is used)."""


class Melee(Args):
    """§2.4 Combat (same zone), or the melee secret move on the card in play."""

    target: str


class Ranged(Args):
    """§2.4 Tir (adjacent zone), or Cactus's net."""

    target: str


class Kick(Args):
    """The dragon's sandal kick (Règles spéciales du dragon), once per game."""

    target: str


class ZoneAttack(Args):
    """A ranged attack on a whole zone: Agaric's keg, Baobab's strike, the dragon's fire."""

    zone: int


class StrikeTarget(Args):
    """Baobab's strike: a fighter of the struck zone, put in the order the dice pass on."""

    target: str


class SplitDice(Args):
    """The dragon's split fire as older logs answered it: dice for the next fighter.

    Today the split is one allocation; this only reads those logs back.
    """

    dice: int


class Throw(Args):
    """The dragon's kick: the peripheral zone the kicked fighter is thrown to."""

    zone: int


ActionArgs = Move | Free | End | Melee | Ranged | Kick | ZoneAttack | Throw
"""Every one-option answer to an action decision (the strike order and the dragon's
split are whole answers: an :class:`~bot.engine.decisions.Order`, an allocation)."""
