"""What MAD's options and decisions mean, typed (``Option.args``, ``Decision.args``).

The game, its AI and its notation read these, never an option id or a decision
key: ids stay the canonical notation (``b2-b4``, ``112=221``, ``draw``...) only
because old decision logs store them. Each turn argument converts to the fast
:data:`~bot.games.mad.core.Turn` tuple the rules, the AI and perft share
(:meth:`turn`), and :func:`turn_args` converts back.
"""

from __future__ import annotations

from bot.engine.decisions import Args
from bot.games.mad.core import MOVE, PASS, PERM, ROT, Turn


class Permutation(Args):
    """ "La permutation": two complementary ships of one side swap places (one may be in exile)."""

    ships: tuple[int, int]

    def turn(self) -> Turn:
        return (PERM, *self.ships)


class Rotation(Args):
    """ "La rotation" of the three frigates or three destroyers.

    ``ships[0]`` takes ``ships[1]``'s place, ``ships[1]`` takes ``ships[2]``'s,
    ``ships[2]`` takes ``ships[0]``'s (exile included).
    """

    ships: tuple[int, int, int]

    def turn(self) -> Turn:
        return (ROT, *self.ships)


Teleport = Permutation | Rotation


class Displacement(Args):
    """ "Le déplacement" of ``ship`` from square ``src`` to ``dst`` (expelling what stands there).

    ``bonus`` is the "Coup bonus" teleport involving that ship, played in the same
    turn after a one-square move onto the last row.
    """

    ship: int
    src: int
    dst: int
    bonus: Permutation | Rotation | None = None

    def turn(self) -> Turn:
        return (
            MOVE,
            self.ship,
            self.src,
            self.dst,
            None if self.bonus is None else self.bonus.turn(),
        )


class Pass(Args):
    """ "Tour de positionnement": keep the starting position."""

    def turn(self) -> Turn:
        return (PASS,)


TurnArgs = Displacement | Permutation | Rotation | Pass
"""One whole turn of the side to move."""


class ProposeTiebreak(Args):
    """ "Départage" by agreement: the side to move asks the other to stop the match."""


class TiebreakReply(Args):
    """The other side's answer to a tie-break proposal."""

    accept: bool


# --- what a decision is about ---------------------------------------------------------------
class TurnOf(Args):
    """The decision of the side to move: one turn, or a tie-break proposal."""

    side: int


class TiebreakQuestion(Args):
    """The decision asking the other side to accept ``proposer``'s tie-break.

    ``winner`` is who the tie-break would give the half victory to.
    """

    proposer: int
    winner: int


def teleport_args(t: Turn) -> Teleport:
    """The typed teleport of a core ``(PERM, a, b)`` / ``(ROT, x, y, z)`` tuple."""
    if t[0] == PERM:
        return Permutation(ships=(t[1], t[2]))
    if t[0] == ROT:
        return Rotation(ships=(t[1], t[2], t[3]))
    raise ValueError(f"not a teleport: {t!r}")


def turn_args(t: Turn) -> TurnArgs:
    """The typed arguments of a core turn tuple (inverse of ``.turn()``)."""
    if t[0] == PASS:
        return Pass()
    if t[0] == MOVE:
        _, ship, src, dst, bonus = t
        return Displacement(
            ship=ship, src=src, dst=dst, bonus=None if bonus is None else teleport_args(bonus)
        )
    return teleport_args(t)
