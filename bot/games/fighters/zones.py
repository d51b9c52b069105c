"""A ring of peripheral zones around a centre, and how a fighter may cross it.

Mad Arena (§1 Préparation, RULINGS "Arena") and Ultimate Warriorz (ZONES DE
COMBAT) share the board: peripheral zones ``0..n-1`` in a ring, zone ``n`` the
centre. A peripheral zone touches its two ring neighbours and the centre; the
centre touches every peripheral zone. The books differ only in how a fighter
spends its movement points, so that rule is a parameter (:class:`MoveRule`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True)
class Ring:
    """``size`` peripheral zones in a ring, and the centre (zone ``size``)."""

    size: int

    @property
    def centre(self) -> int:
        return self.size

    @property
    def peripheral(self) -> list[int]:
        return list(range(self.size))

    @property
    def zones(self) -> list[int]:
        return [*self.peripheral, self.centre]

    def adjacent(self, zone: int) -> list[int]:
        """Zones one movement point (one line) away: previous, next, then the centre.

        The centre's neighbours are every peripheral zone in ring order. A ring of
        one or two zones lists each neighbour once.
        """
        if zone == self.centre:
            return self.peripheral
        out: list[int] = []
        for z in ((zone - 1) % self.size, (zone + 1) % self.size):
            if z != zone and z not in out:
                out.append(z)
        out.append(self.centre)
        return out

    def is_adjacent(self, a: int, b: int) -> bool:
        return b in self.adjacent(a)

    def distance(self, a: int, b: int) -> int:
        """0 (same zone), 1 (adjacent) or 2: through the centre, no two zones are farther."""
        if a == b:
            return 0
        return 1 if self.is_adjacent(a, b) else 2


@dataclass(frozen=True)
class Steps:
    """Where a fighter stands in its movement during one action."""

    here: int
    start: int
    """The zone the action started on."""
    total: int
    """Movement points the action began with."""
    left: int
    """Movement points not spent yet."""
    visited: tuple[int, ...] = field(default=())
    """Zones occupied so far this action, the start included."""
    round_start: int | None = None
    """The zone the fighter stood on when the round began (it may differ from ``start``)."""


class MoveRule(Protocol):
    """A book's movement rule: may the next movement point enter ``zone``?"""

    @property
    def exact(self) -> bool:
        """True when every movement point must be spent (the action cannot stop early)."""
        ...

    def allows(self, zone: int, steps: Steps) -> bool: ...


@dataclass(frozen=True)
class UpToTwoElsewhere:
    """Mad Arena §2.4 Mouvement: up to the card's moves; two moves end on another zone.

    With two movement points the second may not end where the action started
    (no coming back on one's steps), nor on the zone the fighter stood on when
    the round began (the two differ for a fighter the dragon kicked away).
    """

    exact: bool = False

    def allows(self, zone: int, steps: Steps) -> bool:
        last_of_two = steps.total >= 2 and steps.left == 1
        return not (last_of_two and zone in (steps.start, steps.round_start))


@dataclass(frozen=True)
class ExactNoRevisit:
    """Ultimate Warriorz §4.3 Mouvement: exactly the card's value, one line per point,

    never entering a zone this fighter already occupied earlier in this action.
    """

    exact: bool = True

    def allows(self, zone: int, steps: Steps) -> bool:
        return zone not in steps.visited


def legal_steps(ring: Ring, rule: MoveRule, steps: Steps) -> list[int]:
    """The zones the next movement point may reach, in the ring's order; none once spent."""
    if steps.left <= 0:
        return []
    return [z for z in ring.adjacent(steps.here) if rule.allows(z, steps)]
