"""What each Arena! option means, typed: the game and the AI read these, never option ids.

Option ids stay as they always were (``garde``, ``sol``, ``solpick``, ``fight``,
``pickup``, ``rest``, ``pass``, a direction, ``atk<seat>``, ``end``): decision
logs store them. Whole moves add ``m<hex>`` (``mC4``) and ``m<hex>a<seat>``
(``mC4a1``: move to C4, then attack seat 1).
"""

from __future__ import annotations

from bot.engine.decisions import Args
from bot.games.arena.board import Hex
from bot.games.arena.postures import Posture


class TakePosture(Args):
    """A standing fighter takes ``posture`` for this turn ("Le tour de jeu")."""

    posture: Posture


class GetUp(Args):
    """A fighter on the ground gets up in ``posture``: the whole turn ("Se relever")."""

    posture: Posture


class StayDown(Args):
    """A fighter on the ground stays there to attack with 1 die (RULINGS)."""


class PickUp(Args):
    """Pick up the weapon lying on the fighter's own hex: the whole turn
    ("Ramasser son arme"), standing or, per RULINGS, without getting up."""


class Fight(Args):
    """Move the posture's exact hexes and attack once, in any order ("Bouger", "Attaquer")."""


class Rest(Args):
    """En garde and nothing else: +1 HP next turn if unharmed ("Reprendre des forces")."""


class Pass(Args):
    """No action is possible with this posture (walled in, no neighbour)."""


class Step(Args):
    """One hex of the move, to ``to``."""

    to: Hex


class Move(Args):
    """The whole rest of the move in one answer: along ``path`` (start excluded) to
    ``to``, then, with ``target``, an attack on that adjacent fighter ("Bouger",
    "Attaquer": move then attack). Applying it is exactly the single steps of
    ``path`` (and the attack) one after the other."""

    to: Hex
    """The destination: the hex the renderer marks with this option's label."""
    path: tuple[Hex, ...]
    target: int | None = None


class Attack(Args):
    """Attack the adjacent fighter of seat ``target`` ("Attaquer")."""

    target: int


class EndTurn(Args):
    """End a complete move without attacking."""


Action = Fight | PickUp | Rest | Pass
"""The second decision of a turn."""
