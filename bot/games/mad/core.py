"""MAD's rules on a fast representation: tuples of ints, no pydantic.

A *position* is a tuple of 16 ints: the square of every ship, or ``EXILE``.
Ships 0-7 are red, 8-15 blue; ``ship % 8`` is the kind index into ``KINDS``.
Squares are ``row * cols + col`` with row 0 the red back row (drawn at the
bottom, named ``1``). The side to move is kept beside the position.

A *turn* is one of:
- ``(PASS,)`` (positioning turn only),
- ``(MOVE, ship, src, dst, bonus)`` with ``bonus`` ``None`` or a teleport,
- a teleport ``(PERM, ship_a, ship_b)`` or ``(ROT, s0, s1, s2)``.

The permutation and rotation follow "La permutation" and "La rotation" of the
rule book; the move follows "Le déplacement"; the bonus "Coup bonus".
Everything here is used by the game, the AI and perft alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Final

EXILE: Final = -1
RED: Final = 0
BLUE: Final = 1

KINDS: tuple[str, ...] = ("111", "112", "121", "211", "122", "212", "221", "222")
"""Kind index -> the ship's three numbers: sails, cannons, shields."""
KIND_INDEX = {k: i for i, k in enumerate(KINDS)}
SAILS = tuple(int(k[0]) for k in KINDS)
CANNONS = tuple(int(k[1]) for k in KINDS)
SHIELDS = tuple(int(k[2]) for k in KINDS)
CORVETTE = 0
CRUISER = 7
FRIGATES = (1, 2, 3)
DESTROYERS = (4, 5, 6)


def complement(kind: int) -> int:
    """(111, 222), (112, 221), (121, 212), (211, 122): index ``7 - kind``."""
    return 7 - kind


def group_of(kind: int) -> tuple[int, int, int] | None:
    if kind in FRIGATES:
        return FRIGATES
    if kind in DESTROYERS:
        return DESTROYERS
    return None


PASS = 0
MOVE = 1
PERM = 2
ROT = 3

Turn = tuple  # see module docstring
Position = tuple[int, ...]


@dataclass(frozen=True)
class Board:
    """A board's geometry: ``rows`` x ``cols``, neighbours and the printed start."""

    id: str
    rows: int
    cols: int
    neighbours: tuple[tuple[int, ...], ...]
    start: Position

    @property
    def size(self) -> int:
        return self.rows * self.cols

    def last_row(self, side: int) -> int:
        """The row nearest the opponent (RULINGS: red starts at the bottom)."""
        return self.rows - 1 if side == RED else 0

    def row(self, sq: int) -> int:
        return sq // self.cols

    def col(self, sq: int) -> int:
        return sq % self.cols

    def name(self, sq: int) -> str:
        """``a1`` for square 0: the column's letter and the row's number."""
        return _square_names(self.cols, self.rows)[sq]

    def square(self, name: str) -> int | None:
        name = name.strip().lower()
        if len(name) != 2 or name[0] not in "abcdef"[: self.cols] or not name[1].isdigit():
            return None
        row = int(name[1]) - 1
        if not 0 <= row < self.rows:
            return None
        return row * self.cols + "abcdef".index(name[0])


@cache
def _square_names(cols: int, rows: int) -> tuple[str, ...]:
    """Every square's name on a ``rows`` x ``cols`` board, by square (spelt once: a
    turn's options name squares a hundred times per decision)."""
    return tuple(f"{'abcdef'[sq % cols]}{sq // cols + 1}" for sq in range(rows * cols))


# The printed starting positions, red's rows from its back row (row 1) forward.
# Blue's rows are the same, mirrored across the middle of the board, as printed.
_START_ROWS: dict[str, list[list[str | None]]] = {
    "6x4": [
        ["221", "111", "222", "212"],
        ["121", "122", "211", "112"],
    ],
    "5x5": [
        ["221", "111", "211", "222", "212"],
        ["121", None, "122", None, "112"],
    ],
}
BOARD_IDS = ("6x4", "5x5")


@cache
def board(board_id: str) -> Board:
    """The 6 x 4 (6 rows of 4) or 5 x 5 board with its printed start position."""
    rows, cols = {"6x4": (6, 4), "5x5": (5, 5)}[board_id]
    neigh: list[tuple[int, ...]] = []
    for sq in range(rows * cols):
        r, c = divmod(sq, cols)
        out = []
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < rows and 0 <= cc < cols:
                out.append(rr * cols + cc)
        neigh.append(tuple(out))
    start = [EXILE] * 16
    for i, row in enumerate(_START_ROWS[board_id]):
        for c, code in enumerate(row):
            if code is None:
                continue
            k = KIND_INDEX[code]
            start[k] = i * cols + c  # red
            start[8 + k] = (rows - 1 - i) * cols + c  # blue, mirrored
    return Board(board_id, rows, cols, tuple(neigh), tuple(start))


# --- position queries ----------------------------------------------------------------


def occupancy(b: Board, pos: Position) -> list[int]:
    """Square -> ship id or -1."""
    occ = [-1] * b.size
    for ship, sq in enumerate(pos):
        if sq != EXILE:
            occ[sq] = ship
    return occ


def corvette_exiled(pos: Position) -> int | None:
    """The side whose corvette is exiled (the loser), if any."""
    if pos[CORVETTE] == EXILE:
        return RED
    if pos[8 + CORVETTE] == EXILE:
        return BLUE
    return None


def on_board_count(pos: Position) -> int:
    return sum(1 for sq in pos if sq != EXILE)


# --- teleports ----------------------------------------------------------------------


def teleports(pos: Position, side: int) -> list[Turn]:
    """Every permutation and rotation ``side`` may play now.

    Permutation: both complementary ships on board or exactly one.
    Rotation: all three (two cyclic directions) or exactly two on board (two
    variants: which of the two goes to exile). FAQ: all three ships move; two
    exiled frigates forbid the rotation.
    """
    base = side * 8
    out: list[Turn] = []
    for k in range(4):
        a, b = base + k, base + 7 - k
        if pos[a] != EXILE or pos[b] != EXILE:
            out.append((PERM, a, b))
    for g in (FRIGATES, DESTROYERS):
        s0, s1, s2 = base + g[0], base + g[1], base + g[2]
        if (pos[s0] == EXILE) + (pos[s1] == EXILE) + (pos[s2] == EXILE) <= 1:
            out.append((ROT, s0, s1, s2))
            out.append((ROT, s0, s2, s1))
    return out


def teleports_with(pos: Position, ship: int) -> list[Turn]:
    """The teleports involving ``ship`` (the bonus move must use that ship)."""
    side, kind = divmod(ship, 8)
    out: list[Turn] = []
    for t in teleports(pos, side):
        if ship in t[1:]:
            out.append(t)
    return out


def apply_teleport(pos: Position, t: Turn) -> Position:
    p = list(pos)
    if t[0] == PERM:
        a, b = t[1], t[2]
        p[a], p[b] = pos[b], pos[a]
    else:
        # (ROT, x, y, z): x takes y's place, y takes z's place, z takes x's place.
        x, y, z = t[1], t[2], t[3]
        p[x], p[y], p[z] = pos[y], pos[z], pos[x]
    return tuple(p)


# --- displacements ------------------------------------------------------------------


def destinations(b: Board, pos: Position, occ: list[int], ship: int) -> list[int]:
    """Squares ``ship`` can reach by a displacement ("Le déplacement").

    1 square, or 1-2 for two sails; orthogonal only; the intermediate square
    must be free; no going back to the start; the arrival square is free or
    holds an enemy whose shields <= our cannons (then the move ends there).
    Grid parity makes 1- and 2-square destinations disjoint.
    """
    src = pos[ship]
    side = ship >> 3
    kind = ship & 7
    cannons = CANNONS[kind]
    out: list[int] = []
    neigh = b.neighbours
    for n in neigh[src]:
        o = occ[n]
        if o == -1:
            out.append(n)
            if SAILS[kind] == 2:
                for m in neigh[n]:
                    if m == src or m in out:
                        continue
                    o2 = occ[m]
                    if o2 == -1 or ((o2 >> 3) != side and SHIELDS[o2 & 7] <= cannons):
                        out.append(m)
        elif (o >> 3) != side and SHIELDS[o & 7] <= cannons:
            out.append(n)
    return out


def apply_move(pos: Position, occ: list[int], ship: int, dst: int) -> Position:
    p = list(pos)
    victim = occ[dst]
    if victim != -1:
        p[victim] = EXILE
    p[ship] = dst
    return tuple(p)


def via_square(b: Board, pos: Position, src: int, dst: int) -> int | None:
    """The free square a two-square displacement from ``src`` to ``dst`` passes through.

    "La case intermédiaire doit être libre": straight, the middle square; an L,
    a free corner (when both are free, the one beside ``src`` in its column,
    i.e. the path that starts along the column). ``None`` for one square.
    """
    if is_one_step(b, src, dst):
        return None
    occ = occupancy(b, pos)
    for m in b.neighbours[src]:
        if m in b.neighbours[dst] and occ[m] == -1:
            if b.col(m) == b.col(src) or b.row(src) == b.row(dst):
                return m
    for m in b.neighbours[src]:
        if m in b.neighbours[dst] and occ[m] == -1:
            return m
    return None


def is_one_step(b: Board, src: int, dst: int) -> bool:
    return abs(b.row(src) - b.row(dst)) + abs(b.col(src) - b.col(dst)) == 1


def turns(b: Board, pos: Position, side: int, positioning: bool) -> list[tuple[Turn, Position]]:
    """Every legal turn of ``side`` with the position it leads to.

    Positioning turn: pass, permutation or rotation, no displacement.
    Otherwise: one displacement (plus, after a one-square move onto the last
    row, optionally one bonus teleport involving that ship, unless the move
    exiled a corvette: the game is over), or one teleport. No pass.
    Nothing is legal once a corvette is exiled.
    """
    if corvette_exiled(pos) is not None:
        return []
    out: list[tuple[Turn, Position]] = []
    if positioning:
        out.append(((PASS,), pos))
        for t in teleports(pos, side):
            out.append((t, apply_teleport(pos, t)))
        return out
    occ = occupancy(b, pos)
    base = side * 8
    last = b.last_row(side)
    cols = b.cols
    for ship in range(base, base + 8):
        src = pos[ship]
        if src == EXILE:
            continue
        for dst in destinations(b, pos, occ, ship):
            new = apply_move(pos, occ, ship, dst)
            out.append(((MOVE, ship, src, dst, None), new))
            if dst // cols == last and is_one_step(b, src, dst) and corvette_exiled(new) is None:
                for t in teleports_with(new, ship):
                    out.append(((MOVE, ship, src, dst, t), apply_teleport(new, t)))
    for t in teleports(pos, side):
        out.append((t, apply_teleport(pos, t)))
    return out


def successors(b: Board, pos: Position, side: int, positioning: bool) -> set[Position]:
    """The distinct positions reachable in one turn (what perft counts)."""
    return {p for _, p in turns(b, pos, side, positioning)}
