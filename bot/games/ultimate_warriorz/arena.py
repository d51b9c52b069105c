"""The combat esplanade (ZONES DE COMBAT): 6 peripheral zones in a ring and the centre.

A peripheral zone touches its two ring neighbours and the centre; the centre
touches all six. Two zones that do not touch are at distance 2 (a long shot).
"""

from __future__ import annotations

CENTRE = 6
PERIPHERAL = list(range(6))
ZONES = [*PERIPHERAL, CENTRE]


def adjacent(zone: int) -> list[int]:
    """Zones one line away."""
    if zone == CENTRE:
        return list(PERIPHERAL)
    return sorted([(zone - 1) % 6, (zone + 1) % 6, CENTRE])


def distance(a: int, b: int) -> int:
    """0 (same zone), 1 (adjacent) or 2 (the farthest any two zones are)."""
    if a == b:
        return 0
    return 1 if b in adjacent(a) else 2
