"""The combat esplanade (ZONES DE COMBAT): 6 peripheral zones in a ring and the centre.

The board is the fighters kit's ring of six (:mod:`bot.games.fighters.zones`);
movement is exactly the card's value, never re-entering a zone occupied
earlier in the action (§4.3 Mouvement).
"""

from __future__ import annotations

from bot.games.fighters.zones import ExactNoRevisit, Ring

RING = Ring(6)
CENTRE = RING.centre
PERIPHERAL = RING.peripheral
ZONES = RING.zones
MOVES = ExactNoRevisit()
"""§4.3 Mouvement: one line per point, exactly the card's value, no zone entered twice."""


def adjacent(zone: int) -> list[int]:
    """Zones one line away, in ascending order."""
    return sorted(RING.adjacent(zone))


def distance(a: int, b: int) -> int:
    """0 (same zone), 1 (adjacent) or 2 (the farthest any two zones are: a long shot)."""
    return RING.distance(a, b)
