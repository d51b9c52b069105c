"""The arena (§1 Préparation, RULINGS "Arena"): a ring of peripheral zones plus the centre.

Zones ``0..n-1`` are the peripheral zones in seating order; zone ``n`` is the
centre. A peripheral zone touches its two ring neighbours and the centre; the
centre touches every peripheral zone. Ranged attacks reach exactly the zones
one movement point away.
"""

from __future__ import annotations

from bot.engine.text import Text
from bot.games.fighters.zones import Ring, Steps, UpToTwoElsewhere
from bot.games.fighters.zones import legal_steps as kit_steps

MOVES = UpToTwoElsewhere()
"""§2.4 Mouvement: up to the card's moves; two moves end on another zone."""


def adjacent(zone: int, n: int) -> list[int]:
    """Zones one movement point from ``zone`` in an arena of ``n`` peripheral zones."""
    return Ring(n).adjacent(zone)


def legal_steps(
    current: int,
    start: int,
    moves_total: int,
    moves_left: int,
    n: int,
    round_start: int | None = None,
) -> list[int]:
    """Zones the next movement point may reach (§2.4 Mouvement, the kit's ring and rule)."""
    steps = Steps(
        here=current, start=start, total=moves_total, left=moves_left, round_start=round_start
    )
    return kit_steps(Ring(n), MOVES, steps)


def zone_name(zones: list[str], zone: int, names: dict[str, str]) -> Text:
    """``Centre`` or ``Zone Agaric`` (a zone is the back of that fighter's card)."""
    if zone == len(zones):
        return Text(fr="Centre", en="Centre")
    who = names.get(zones[zone], zones[zone])
    return Text(fr=f"zone {who}", en=f"{who}'s zone")
