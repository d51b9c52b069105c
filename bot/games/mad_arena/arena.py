"""The arena (§1 Préparation, RULINGS "Arena"): a ring of peripheral zones plus the centre.

Zones ``0..n-1`` are the peripheral zones in seating order; zone ``n`` is the
centre. A peripheral zone touches its two ring neighbours and the centre; the
centre touches every peripheral zone. Ranged attacks reach exactly the zones
one movement point away.
"""

from __future__ import annotations

from bot.engine.text import Text


def adjacent(zone: int, n: int) -> list[int]:
    """Zones one movement point from ``zone`` in an arena of ``n`` peripheral zones."""
    if zone == n:
        return list(range(n))
    out: list[int] = []
    for z in ((zone - 1) % n, (zone + 1) % n):
        if z != zone and z not in out:
            out.append(z)
    out.append(n)
    return out


def is_adjacent(a: int, b: int, n: int) -> bool:
    return b in adjacent(a, n)


def legal_steps(
    current: int,
    start: int,
    moves_total: int,
    moves_left: int,
    n: int,
    round_start: int | None = None,
) -> list[int]:
    """Zones the next movement point may reach (§2.4 Mouvement).

    With two movement points the fighter may not come back on its steps (its
    last step must not end where its action started) and must end on a zone
    other than the one it stood on at the start of the round (``round_start``;
    the two differ only for a fighter the dragon kicked away before it acted).
    """
    steps = adjacent(current, n)
    if moves_total >= 2 and moves_left == 1:
        steps = [z for z in steps if z not in (start, round_start)]
    return steps


def zone_name(zones: list[str], zone: int, names: dict[str, str]) -> Text:
    """``Centre`` or ``Zone Agaric`` (a zone is the back of that fighter's card)."""
    if zone == len(zones):
        return Text(fr="Centre", en="Centre")
    who = names.get(zones[zone], zones[zone])
    return Text(fr=f"zone {who}", en=f"{who}'s zone")
