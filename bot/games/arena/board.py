"""The hexagonal arena (book, "Matériel de jeu": 37 hexes in a hexagonal rosette).

Hexes use axial coordinates ``(q, r)`` with pointy-top hexes, so the six
neighbours are E, NE, NW, W, SW, SE. Players read hexes by a row letter
(A at the top to G at the bottom) and a number counted from the left of the
row, e.g. ``D4`` is the centre.
"""

from __future__ import annotations

from collections.abc import Iterator

from bot.engine.text import Text

Hex = tuple[int, int]

RADIUS = 3
CENTRE: Hex = (0, 0)

DIRECTIONS: dict[str, Hex] = {
    "e": (1, 0),
    "ne": (1, -1),
    "nw": (0, -1),
    "w": (-1, 0),
    "sw": (-1, 1),
    "se": (0, 1),
}
DIRECTION_LABELS: dict[str, Text] = {
    "e": Text(fr="→ E", en="→ E"),
    "ne": Text(fr="↗ NE", en="↗ NE"),
    "nw": Text(fr="↖ NO", en="↖ NW"),
    "w": Text(fr="← O", en="← W"),
    "sw": Text(fr="↙ SO", en="↙ SW"),
    "se": Text(fr="↘ SE", en="↘ SE"),
}

# The six starting corners, clockwise on the picture from the top-left one
# (book: "À chacun des 6 coins de la rosace se situe un point de départ").
CORNERS: list[Hex] = [(0, -3), (3, -3), (3, 0), (0, 3), (-3, 3), (-3, 0)]

# Which corners the seats take, in seat order, clockwise (RULINGS: 2 opposite,
# 3 alternate corners, 4 two opposite pairs, 5-6 corners).
SEAT_CORNERS: dict[int, list[int]] = {
    2: [0, 3],
    3: [0, 2, 4],
    4: [0, 1, 3, 4],
    5: [0, 1, 2, 3, 4],
    6: [0, 1, 2, 3, 4, 5],
}


def on_board(h: Hex) -> bool:
    q, r = h
    return max(abs(q), abs(r), abs(q + r)) <= RADIUS


def all_hexes() -> list[Hex]:
    """Every hex, row by row from the top, left to right."""
    out: list[Hex] = []
    for r in range(-RADIUS, RADIUS + 1):
        for q in range(max(-RADIUS, -RADIUS - r), min(RADIUS, RADIUS - r) + 1):
            out.append((q, r))
    return out


HEXES: list[Hex] = all_hexes()
assert len(HEXES) == 37


def step(h: Hex, direction: str) -> Hex:
    dq, dr = DIRECTIONS[direction]
    return (h[0] + dq, h[1] + dr)


def _neighbours(h: Hex) -> tuple[Hex, ...]:
    return tuple(n for d in DIRECTIONS if on_board(n := step(h, d)))


NEIGHBOURS: dict[Hex, tuple[Hex, ...]] = {h: _neighbours(h) for h in HEXES}
"""Each hex's neighbours on the board, in :data:`DIRECTIONS`' order. Computed once: the
path searches below visit tens of thousands of hexes for one fighter's move, and working
them out each time was most of a move's cost (issue 16: the event loop's work per click)."""


def neighbours(h: Hex) -> Iterator[Hex]:
    """The hexes next to ``h`` on the board, in :data:`DIRECTIONS`' order."""
    known = NEIGHBOURS.get(h)
    return iter(known if known is not None else _neighbours(h))


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


DISTANCES: dict[Hex, dict[Hex, int]] = {a: {b: distance(a, b) for b in HEXES} for a in HEXES}
"""``DISTANCES[a][b]`` is :func:`distance` between two hexes of the board."""


def adjacent(a: Hex, b: Hex) -> bool:
    return distance(a, b) == 1


def label(h: Hex) -> str:
    """Row letter and position in the row, e.g. ``(0, 0)`` -> ``D4``."""
    q, r = h
    first = max(-RADIUS, -RADIUS - r)
    return f"{'ABCDEFG'[r + RADIUS]}{q - first + 1}"


def longest_path(start: Hex, blocked: set[Hex], limit: int) -> int:
    """Length (<= ``limit``) of the longest simple path from ``start``.

    ``blocked`` holds hexes that may not be entered (occupied, knocked out,
    already visited). RULINGS: "Where no path of that exact length exists, the
    longest legal path is taken."
    """
    if limit <= 0:
        return 0
    seen = set(blocked)
    seen.add(start)
    return _longest(start, 0, limit, seen)


def _longest(h: Hex, depth: int, limit: int, seen: set[Hex]) -> int:
    """The longest a simple path ``depth`` steps long, now at ``h``, can grow (at most
    ``limit``), stopping at the first path that reaches it. A module function, not a
    closure calling itself: such a closure is a reference cycle per call, left to the
    garbage collector (issue 16 item 5)."""
    best = depth
    if best >= limit:
        return best
    for n in NEIGHBOURS[h]:
        if n not in seen:
            seen.add(n)
            best = max(best, _longest(n, depth + 1, limit, seen))
            seen.discard(n)
            if best >= limit:
                return best
    return best


def paths(start: Hex, blocked: set[Hex], length: int) -> Iterator[list[Hex]]:
    """Every simple path of exactly ``length`` steps from ``start`` (start excluded)."""
    seen = set(blocked)
    seen.add(start)
    yield from _extend(start, length, seen, [])


def _extend(h: Hex, length: int, seen: set[Hex], current: list[Hex]) -> Iterator[list[Hex]]:
    """The paths of :func:`paths` that go on from ``current``, now at ``h`` (a module
    function for the same reason as :func:`_longest`)."""
    if len(current) == length:
        yield list(current)
        return
    for n in NEIGHBOURS[h]:
        if n not in seen:
            seen.add(n)
            current.append(n)
            yield from _extend(n, length, seen, current)
            current.pop()
            seen.discard(n)
