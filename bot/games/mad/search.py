"""MAD's fast search: a mutable board with make/unmake, integer moves, Zobrist keys.

Why: the tuple generator of :mod:`bot.games.mad.core` copies a position per
move and the old search evaluated every child from scratch, about 40 000
nodes/s. Here one position is kept in two lists (ship -> square, square ->
ship) changed in place and restored; a move is one ``int``; the static
evaluation and the Zobrist key are updated incrementally per move; moves are
ordered by the transposition-table move, captures by victim value, killer
moves and a history table. ``core.py`` stays the authority on the rules: the
generator here is checked against it position by position and by perft
(``tests/games/mad/test_ai_search.py``).

Below the root, :func:`search` runs the C port of :class:`Searcher` (``searchcore.c``,
:data:`CORE`) where it was built: the same nodes in the same order, quicker than this
module compiled, with the interpreter lock released. This module stays the reference
the port is compared with (``tests/games/mad/test_search_core.py``) and what runs where
no C compiler was found.

Move codes (``side`` is known from the node):

- a displacement: ``ship | dst << 4 | (t + 1) << 9`` where ``t`` is the index in
  :attr:`Tables.teleports` of the bonus teleport (``t + 1 = 0``: no bonus);
- a teleport alone: ``TELEPORT + t``;
- the positioning pass: ``PASS_CODE``.

Scores are from the side to move: a win ``WIN - plies`` (the nearer, the
better; a loss the farther the better, so a lost position is played out), a
tie-break half victory ``HALF``, else the static evaluation, which adds the
tie-break's pressure (see :data:`TB_PRESSURE`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Final, Protocol

from bot.games.mad.core import (
    BLUE,
    CANNONS,
    DESTROYERS,
    EXILE,
    FRIGATES,
    KINDS,
    MOVE,
    PASS,
    PERM,
    RED,
    ROT,
    SAILS,
    SHIELDS,
    Board,
    Position,
    Turn,
    board,
)
from bot.games.mad.native import load_core
from bot.games.mad.state import TIEBREAK_TURNS

WIN: Final = 1_000_000
MATE_ZONE: Final = WIN - 1_000
"""Scores beyond this are wins or losses in a known number of turns."""
INF: Final = 2 * WIN
HALF: Final = 4_000
"""A tie-break half victory: worth more than any material edge, less than a win."""
VALUE = {
    "111": 0,
    "112": 320,
    "121": 300,
    "211": 300,
    "122": 520,
    "212": 500,
    "221": 480,
    "222": 900,
}
VALUES: Final = tuple(VALUE[k] for k in KINDS)
TB_WINDOW: Final = 16
TB_START: Final = TIEBREAK_TURNS - TB_WINDOW
TB_PRESSURE: Final = tuple(
    0 if s < TB_START else HALF * (s - TB_START + 1) // (TB_WINDOW + 1)
    for s in range(TIEBREAK_TURNS + 1)
)
"""Départage pressure: from ``TB_START`` quiet turns on, the side that would win the
tie-break gains up to almost ``HALF`` as the 40th turn nears, so every level, even
one that cannot see the 40th turn, seeks an expulsion in time when it would lose
the tie-break, and avoids one (a capture resets the count) when it would win it."""
QDEPTH: Final = 4
"""Plies of captures searched beyond the horizon."""
TELEPORT: Final = 8192
PASS_CODE: Final = TELEPORT + 64
MAX_PLY: Final = 256
"""Deeper than any search reaches (a line of captures is at most 14 plies past the horizon)."""


CAPTURE_ORDER: Final = WIN + 1_000
"""Added to a capture's order (minus its victim's value) so that the capture sorts as a
non-negative ``int``: ``(order << 13) | code`` sorts as the pair ``(order, code)`` did
(codes are below 2**13), with no tuple to build or compare."""
TT_SCORE: Final = 2 * INF
TT_DEPTH: Final = 128
"""Added to a stored score and depth so that a table entry packs into one non-negative
``int``: ``(score + TT_SCORE) << 24 | (depth + TT_DEPTH) << 16 | (flag + 1) << 14 |
(move + 1)`` (moves are below 2**14, depths within ``TT_DEPTH`` of 0: :func:`search`
goes at most ``TT_DEPTH - 1`` deep, scores within ``TT_SCORE``): no tuple per entry."""
TELEPORT_CODES: Final = tuple(TELEPORT + i for i in range(8))
KEY_BITS: Final = 62
"""Bits of a Zobrist key: compiled, an ``int`` below 2**62 is a machine word and a key
made of them stays one (XOR), where 64-bit keys were Python objects at every move."""


class _Stop(Exception):
    """The node or time budget is spent."""


CORE: ModuleType | None = load_core()
"""The C port of the search below the root (``bot.games.mad.searchcore``), or None where
it was not built (or was built from another ``searchcore.c``). Not ``Final``: tests set
it to None to run the search as a machine without a C compiler would."""
STOPS: Final[tuple[type[BaseException], ...]] = (_Stop,) if CORE is None else (_Stop, CORE.Stop)
"""What a search raises when its budget is spent, in Python or in C."""


@dataclass(frozen=True)
class Tables:
    """Everything about one board the search looks up, precomputed once."""

    board: Board
    neighbours: tuple[tuple[int, ...], ...]
    two_steps: tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]
    """Square -> (two-square destination, the free middle squares that lead there)."""
    row: tuple[int, ...]
    last_row: tuple[int, int]
    full: int
    """The mask of every square."""
    adj_mask: tuple[int, ...]
    adj_list: tuple[tuple[tuple[int, int], ...], ...]
    """Square -> (neighbour, its bit)."""
    reach2: tuple[dict[int, int], ...]
    """[square][mask of its free neighbours] -> mask of the squares two steps away through them."""
    last_mask: tuple[int, int]
    two_cannons: tuple[bool, ...]
    """Two cannons expel any ship, one cannon only one-shield ships (shields are 1 or 2)."""
    weak: tuple[bool, ...]
    """One-shield ships."""
    two_sails: tuple[bool, ...]
    cycle_pairs: tuple[tuple[tuple[int, ...], ...], ...]
    """Per side, per teleport: the complementary pairs (by their lower ship) whose value it
    changes."""
    teleports: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
    """Per side, the 8 teleports as cycles: ship ``i`` takes the square of ship ``i + 1``."""
    teleports_with: tuple[tuple[int, ...], ...]
    """Ship -> indices of its side's teleports that involve it."""
    pair_value: tuple[tuple[int, ...], ...]
    """[ship][(sq + 1) * W + partner_sq + 1]: the red-view value of a complementary pair."""
    width: int
    zobrist: tuple[tuple[int, ...], ...]
    z_side: int
    z_positioning: int
    z_streak: tuple[int, ...]
    z_winner: tuple[int, int]


def _teleport_cycles(side: int) -> tuple[tuple[int, ...], ...]:
    """The order of ``core.teleports``: 4 permutations, then 2 rotations per group."""
    base = side * 8
    out: list[tuple[int, ...]] = [(base + k, base + 7 - k) for k in range(4)]
    for g in (FRIGATES, DESTROYERS):
        s0, s1, s2 = base + g[0], base + g[1], base + g[2]
        out.append((s0, s1, s2))
        out.append((s0, s2, s1))
    return tuple(out)


def _ship_value(b: Board, ship: int, sq: int) -> int:
    """Material, advance and centre for ships, the corvette kept home (for the ship's side)."""
    kind = ship & 7
    v = VALUES[kind]
    r, c = divmod(sq, b.cols)
    adv = r if ship < 8 else b.rows - 1 - r
    if kind == 0:
        return v + 12 * (1 - adv)
    return v + 6 * adv + (4 if 0 < c < b.cols - 1 else 0)


@cache
def tables(board_id: str) -> Tables:
    b = board(board_id)
    n = b.size
    w = n + 1
    two: list[tuple[tuple[int, tuple[int, ...]], ...]] = []
    for src in range(n):
        dests: dict[int, list[int]] = {}
        for m in b.neighbours[src]:
            for d in b.neighbours[m]:
                if d != src:
                    dests.setdefault(d, []).append(m)
        two.append(tuple((d, tuple(ms)) for d, ms in sorted(dests.items())))
    adj_mask = tuple(sum(1 << m for m in b.neighbours[q]) for q in range(n))
    reach2: list[dict[int, int]] = []
    for q in range(n):
        ns = b.neighbours[q]
        table: dict[int, int] = {}
        for subset in range(1 << len(ns)):
            free = 0
            reach = 0
            for i, m in enumerate(ns):
                if subset >> i & 1:
                    free |= 1 << m
                    reach |= adj_mask[m]
            table[free] = reach & ~(1 << q)
        reach2.append(table)
    last_mask = tuple(
        sum(1 << q for q in range(n) if q // b.cols == b.last_row(side)) for side in (RED, BLUE)
    )
    tel = (_teleport_cycles(RED), _teleport_cycles(BLUE))
    cycle_pairs = tuple(
        tuple(tuple(sorted({s if (s & 7) < 4 else s ^ 7 for s in cyc})) for cyc in cycles)
        for cycles in tel
    )
    with_ship = tuple(tuple(i for i, cyc in enumerate(tel[s >> 3]) if s in cyc) for s in range(16))
    pair: list[tuple[int, ...]] = []
    for s in range(16):
        p = s ^ 7
        sgn = 1 if s < 8 else -1
        row: list[int] = []
        for a in range(-1, n):
            for c in range(-1, n):
                v = 0
                if a >= 0:
                    v += _ship_value(b, s, a)
                elif c >= 0:
                    v += VALUES[s & 7] // 8  # exiled, can be recalled by permutation
                if c >= 0:
                    v += _ship_value(b, p, c)
                elif a >= 0:
                    v += VALUES[p & 7] // 8
                row.append(sgn * v)
        pair.append(tuple(row))
    rng = random.Random("mad-zobrist")
    zob = tuple(tuple(rng.getrandbits(KEY_BITS) for _ in range(w)) for _ in range(16))
    return Tables(
        board=b,
        neighbours=b.neighbours,
        two_steps=tuple(two),
        row=tuple(sq // b.cols for sq in range(n)),
        last_row=(b.last_row(RED), b.last_row(BLUE)),
        full=(1 << n) - 1,
        adj_mask=adj_mask,
        adj_list=tuple(tuple((m, 1 << m) for m in b.neighbours[q]) for q in range(n)),
        reach2=tuple(reach2),
        last_mask=(last_mask[0], last_mask[1]),
        two_cannons=tuple(CANNONS[s & 7] == 2 for s in range(16)),
        weak=tuple(SHIELDS[s & 7] == 1 for s in range(16)),
        cycle_pairs=cycle_pairs,
        two_sails=tuple(SAILS[s & 7] == 2 for s in range(16)),
        teleports=tel,
        teleports_with=with_ship,
        pair_value=tuple(pair),
        width=w,
        zobrist=zob,
        z_side=rng.getrandbits(KEY_BITS),
        z_positioning=rng.getrandbits(KEY_BITS),
        z_streak=tuple(rng.getrandbits(KEY_BITS) for _ in range(TIEBREAK_TURNS + 1)),
        z_winner=(rng.getrandbits(KEY_BITS), rng.getrandbits(KEY_BITS)),
    )


def red_score(t: Tables, pos: Position) -> int:
    """The static evaluation from red's side, computed from scratch (the search keeps it
    up to date move by move; tests compare the two)."""
    w = t.width
    total = 0
    for s in (0, 1, 2, 3, 8, 9, 10, 11):
        total += t.pair_value[s][(pos[s] + 1) * w + pos[s ^ 7] + 1]
    return total


def zobrist(t: Tables, pos: Position) -> int:
    h = 0
    for s in range(16):
        h ^= t.zobrist[s][pos[s] + 1]
    return h


@dataclass
class SearchResult:
    turn: Turn | None
    score: int
    depth: int
    nodes: int
    seconds: float


_CODES: dict[int, tuple[int, ...]] = {}
"""(mask of destinations << 4 | ship) -> the displacement codes, filled as met."""


def _codes(ship: int, mask: int) -> tuple[int, ...]:
    out = []
    while mask:
        low = mask & -mask
        mask ^= low
        out.append(ship | (low.bit_length() - 1) << 4)
    return tuple(out)


class Arena:
    """One position, mutable: ``sq`` (ship -> square or ``EXILE``), ``occ`` (square ->
    ship or -1), bit masks of the occupied squares (``om``), of each side (``sm``) and of
    each side's one-shield ships (``wm``: what one cannon can expel), with the Zobrist
    key ``h`` and the red-view evaluation ``score``."""

    __slots__ = ("t", "sq", "occ", "om", "sm", "wm", "h", "score")

    def __init__(self, t: Tables, pos: Position) -> None:
        self.t = t
        self.sq = list(pos)
        self.occ = [-1] * t.board.size
        self.om = 0
        self.sm = [0, 0]
        self.wm = [0, 0]
        for s, q in enumerate(pos):
            if q != EXILE:
                self.occ[q] = s
                bit = 1 << q
                self.om |= bit
                self.sm[s >> 3] |= bit
                if t.weak[s]:
                    self.wm[s >> 3] |= bit
        self.h = zobrist(t, pos)
        self.score = red_score(t, pos)

    def position(self) -> Position:
        return tuple(self.sq)

    def legal_teleports(self, side: int) -> list[int]:
        """Permutation: not both exiled; rotation: at most one of the three exiled."""
        if self.sm[side].bit_count() == 8:
            return [0, 1, 2, 3, 4, 5, 6, 7]
        sq = self.sq
        out = []
        for i, cyc in enumerate(self.t.teleports[side]):
            exiled = 0
            for s in cyc:
                if sq[s] < 0:
                    exiled += 1
            if exiled < 2:
                out.append(i)
        return out

    def gen(self, side: int, pos_turn: bool) -> tuple[list[int], list[int]]:
        """(captures, the enemy corvette first then by victim value; other moves),
        the turns of ``core.turns``."""
        tel = self.legal_teleports(side)
        quiet: list[int] = []
        if pos_turn:
            quiet.append(PASS_CODE)
            self._teleport_codes(tel, quiet)
            return [], quiet
        t = self.t
        sq = self.sq
        occ = self.occ
        free = t.full ^ self.om
        em = self.sm[side ^ 1]
        ew = self.wm[side ^ 1]
        last = t.last_mask[side]
        adjm = t.adj_mask
        reach2 = t.reach2
        two_cannons = t.two_cannons
        two_sails = t.two_sails
        codes = _CODES
        caps: list[int] = []  # (order + CAPTURE_ORDER) << 13 | code
        for ship in range(side * 8, side * 8 + 8):
            src = sq[ship]
            if src < 0:
                continue
            capm = em if two_cannons[ship] else ew
            adj = adjm[src]
            fm = adj & free
            if fm:
                # The displacements to a set of free squares, as codes (cached by set).
                key = fm << 4 | ship
                c = codes.get(key)
                if c is None:
                    c = codes[key] = _codes(ship, fm)
                quiet.extend(c)
                lm = fm & last
                if lm:
                    for i in t.teleports_with[ship]:
                        if i in tel:
                            for code in _codes(ship, lm):
                                quiet.append(code | (i + 1) << 9)
            cm = adj & capm
            while cm:
                low = cm & -cm
                cm ^= low
                d = low.bit_length() - 1
                o = occ[d] & 7
                v = CAPTURE_ORDER - VALUES[o] - (WIN if o == 0 else 0)
                code = ship | d << 4
                caps.append(v << 13 | code)
                if low & last and o:
                    for i in t.teleports_with[ship]:
                        if i in tel:
                            caps.append((v + 1) << 13 | code | (i + 1) << 9)
            if two_sails[ship]:
                r2 = reach2[src][fm]
                m = r2 & free
                if m:
                    key = m << 4 | ship
                    c = codes.get(key)
                    if c is None:
                        c = codes[key] = _codes(ship, m)
                    quiet.extend(c)
                m = r2 & capm
                while m:
                    low = m & -m
                    m ^= low
                    d = low.bit_length() - 1
                    o = occ[d] & 7
                    v = CAPTURE_ORDER - VALUES[o] - (WIN if o == 0 else 0)
                    caps.append(v << 13 | ship | d << 4)
        self._teleport_codes(tel, quiet)
        caps.sort()
        return [c & 8191 for c in caps], quiet

    @staticmethod
    def _teleport_codes(tel: list[int], quiet: list[int]) -> None:
        """The legal teleports' codes after ``quiet``'s (all eight at once: no new ints)."""
        if len(tel) == 8:
            quiet.extend(TELEPORT_CODES)
        else:
            for i in tel:
                quiet.append(TELEPORT + i)

    # --- make / unmake -------------------------------------------------------------
    def cycle(self, side: int, teleport: int) -> None:
        """Play ``side``'s teleport number ``teleport`` (of :attr:`Tables.teleports`): ship
        ``i`` takes the square of ship ``i + 1``; updates key and score. The occupied
        squares stay the same (one ship in for one out)."""
        t = self.t
        ships = t.teleports[side][teleport]
        sq = self.sq
        occ = self.occ
        pv = t.pair_value
        w = t.width
        z = t.zobrist
        weak = t.weak
        wm = self.wm[side]
        if len(ships) == 2:
            # A permutation: one pair, exactly one of its ships has one shield.
            a, b = ships
            sa = sq[a]
            sb = sq[b]
            lo = a if (a & 7) < 4 else b
            before = pv[lo][(sq[lo] + 1) * w + sq[lo ^ 7] + 1]
            sq[a] = sb
            sq[b] = sa
            if sb >= 0:
                occ[sb] = a
            if sa >= 0:
                occ[sa] = b
            self.h ^= z[a][sa + 1] ^ z[a][sb + 1] ^ z[b][sb + 1] ^ z[b][sa + 1]
            if sa >= 0:
                wm ^= 1 << sa
            if sb >= 0:
                wm ^= 1 << sb
            self.wm[side] = wm
            self.score += pv[lo][(sq[lo] + 1) * w + sq[lo ^ 7] + 1] - before
            return
        # A rotation: x takes y's place, y takes z's, z takes x's; three pairs change.
        x, y, zz = ships
        pairs = t.cycle_pairs[side][teleport]
        sx = sq[x]
        sy = sq[y]
        sz = sq[zz]
        score = self.score
        for a in pairs:
            score -= pv[a][(sq[a] + 1) * w + sq[a ^ 7] + 1]
        sq[x] = sy
        sq[y] = sz
        sq[zz] = sx
        if sy >= 0:
            occ[sy] = x
        if sz >= 0:
            occ[sz] = y
        if sx >= 0:
            occ[sx] = zz
        self.h ^= (
            z[x][sx + 1]
            ^ z[x][sy + 1]
            ^ z[y][sy + 1]
            ^ z[y][sz + 1]
            ^ z[zz][sz + 1]
            ^ z[zz][sx + 1]
        )
        for s_, old, new in ((x, sx, sy), (y, sy, sz), (zz, sz, sx)):
            if weak[s_]:
                if old >= 0:
                    wm ^= 1 << old
                if new >= 0:
                    wm ^= 1 << new
        self.wm[side] = wm
        for a in pairs:
            score += pv[a][(sq[a] + 1) * w + sq[a ^ 7] + 1]
        self.score = score

    def uncycle(self, side: int, teleport: int) -> None:
        """Undo :meth:`cycle` (squares and masks: the caller restores key and score)."""
        ships = self.t.teleports[side][teleport]
        sq = self.sq
        occ = self.occ
        weak = self.t.weak
        n = len(ships)
        old = [sq[s] for s in ships]
        wm = self.wm[side]
        for i, s in enumerate(ships):
            o = old[i]
            new = old[(i - 1) % n]
            sq[s] = new
            if new >= 0:
                occ[new] = s
                if weak[s]:
                    wm ^= 1 << new
            if o >= 0 and weak[s]:
                wm ^= 1 << o
        self.wm[side] = wm

    def displace(self, ship: int, dst: int) -> int:
        """Move ``ship`` to ``dst``, exiling the enemy there; returns the victim or -1."""
        t = self.t
        sq = self.sq
        occ = self.occ
        pv = t.pair_value
        w = t.width
        z = t.zobrist
        src = sq[ship]
        victim = occ[dst]
        side = ship >> 3
        p = sq[ship ^ 7] + 1
        score = self.score - pv[ship][(src + 1) * w + p] + pv[ship][(dst + 1) * w + p]
        h = self.h ^ z[ship][src + 1] ^ z[ship][dst + 1]
        bs = 1 << src
        bd = 1 << dst
        self.sm[side] ^= bs | bd
        if t.weak[ship]:
            self.wm[side] ^= bs | bd
        if victim >= 0:
            vp = sq[victim ^ 7] + 1
            score += pv[victim][vp] - pv[victim][(dst + 1) * w + vp]
            h ^= z[victim][dst + 1] ^ z[victim][0]
            sq[victim] = -1
            self.sm[side ^ 1] ^= bd
            if t.weak[victim]:
                self.wm[side ^ 1] ^= bd
            self.om ^= bs
        else:
            self.om ^= bs | bd
        occ[src] = -1
        occ[dst] = ship
        sq[ship] = dst
        self.h = h
        self.score = score
        return victim

    def undisplace(self, ship: int, src: int, dst: int, victim: int) -> None:
        """Undo :meth:`displace` (squares and masks: the caller restores key and score)."""
        sq = self.sq
        occ = self.occ
        weak = self.t.weak
        side = ship >> 3
        bs = 1 << src
        bd = 1 << dst
        sq[ship] = src
        occ[src] = ship
        self.sm[side] ^= bs | bd
        if weak[ship]:
            self.wm[side] ^= bs | bd
        if victim >= 0:
            sq[victim] = dst
            occ[dst] = victim
            self.sm[side ^ 1] ^= bd
            if weak[victim]:
                self.wm[side ^ 1] ^= bd
            self.om ^= bs
        else:
            occ[dst] = -1
            self.om ^= bs | bd

    def make(self, code: int, side: int) -> tuple[int, int]:
        """Play ``code``; returns (source square, victim) for :meth:`unmake`."""
        if code >= TELEPORT:
            if code != PASS_CODE:
                self.cycle(side, code - TELEPORT)
            return -1, -1
        ship = code & 15
        src = self.sq[ship]
        victim = self.displace(ship, (code >> 4) & 31)
        bonus = code >> 9
        if bonus:
            self.cycle(side, bonus - 1)
        return src, victim

    def unmake(self, code: int, side: int, src: int, victim: int, h: int, score: int) -> None:
        if code >= TELEPORT:
            if code != PASS_CODE:
                self.uncycle(side, code - TELEPORT)
        else:
            bonus = code >> 9
            if bonus:
                self.uncycle(side, bonus - 1)
            self.undisplace(code & 15, src, (code >> 4) & 31, victim)
        self.h = h
        self.score = score

    def turn_of(self, code: int, side: int) -> Turn:
        """The ``core`` turn tuple of a move code (before it is played)."""
        t = self.t
        if code == PASS_CODE:
            return (PASS,)
        if code >= TELEPORT:
            return _teleport_turn(t.teleports[side][code - TELEPORT])
        ship = code & 15
        bonus = code >> 9
        tele = None if not bonus else _teleport_turn(t.teleports[side][bonus - 1])
        return (MOVE, ship, self.sq[ship], (code >> 4) & 31, tele)


def _teleport_turn(cyc: tuple[int, ...]) -> Turn:
    return (PERM, *cyc) if len(cyc) == 2 else (ROT, *cyc)


def turns(b: Board, pos: Position, side: int, positioning: bool) -> list[tuple[Turn, Position]]:
    """``core.turns`` through the fast generator (what the tests compare)."""
    if pos[0] == EXILE or pos[8] == EXILE:
        return []
    bd = Arena(tables(b.id), pos)
    caps, quiet = bd.gen(side, positioning)
    out = []
    for code in caps + quiet:
        turn = bd.turn_of(code, side)
        h, score = bd.h, bd.score
        src, victim = bd.make(code, side)
        out.append((turn, bd.position()))
        bd.unmake(code, side, src, victim, h, score)
    return out


class Searcher:
    """Negamax alpha-beta with principal-variation windows, a transposition table keyed
    by Zobrist, killer and history move ordering and a capture quiescence.

    The tie-break count travels along every line: ``streak`` quiet turns and the side
    ``winner`` that would win the tie-break now; a line reaching the 40th quiet turn
    ends there with a half victory (Départage)."""

    def __init__(
        self,
        b: Board,
        pos: Position,
        positioning: bool,
        node_budget: int | None,
        time_budget: float | None,
    ) -> None:
        self.t = tables(b.id)
        self.bd = Arena(self.t, pos)
        self.positioning = positioning
        self.node_budget = node_budget if node_budget is not None else 1 << 62
        self.deadline = None if time_budget is None else time.perf_counter() + time_budget
        self.nodes = 0
        self.limit = self.node_budget if self.deadline is None else min(self.node_budget, 1024)
        """The node count at which :meth:`_check` runs next."""
        self.tt: dict[int, int] = {}
        """Key -> the entry packed as :data:`TT_DEPTH` says."""
        self.killers: list[list[int]] = [[-1, -1] for _ in range(MAX_PLY)]
        self.history: tuple[list[int], list[int]] = ([0] * (PASS_CODE + 1), [0] * (PASS_CODE + 1))

    @property
    def h(self) -> int:
        return self.bd.h

    @property
    def score(self) -> int:
        return self.bd.score

    def make(self, code: int, side: int) -> tuple[int, int]:
        return self.bd.make(code, side)

    def unmake(self, code: int, side: int, src: int, victim: int, h: int, score: int) -> None:
        self.bd.unmake(code, side, src, victim, h, score)

    def _check(self) -> None:
        """Called when ``nodes`` passes ``limit``: stop when the node budget is spent or
        the clock is past the deadline, else look at the clock again 1024 nodes later."""
        if self.nodes > self.node_budget:
            raise _Stop
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise _Stop
        self.limit = min(self.node_budget, self.nodes + 1024)

    def quiesce(
        self, alpha: int, beta: int, ply: int, side: int, streak: int, winner: int, qd: int
    ) -> int:
        self.nodes += 1
        if self.nodes > self.limit:
            self._check()
        bd = self.bd
        stand = bd.score if side == RED else -bd.score
        if streak >= TB_START:
            p = TB_PRESSURE[streak]
            stand += p if winner == side else -p
        if stand >= beta or qd == 0:
            return stand
        if stand > alpha:
            alpha = stand
        t = self.t
        sq = bd.sq
        occ = bd.occ
        free = t.full ^ bd.om
        em = bd.sm[side ^ 1]
        ew = bd.wm[side ^ 1]
        corvette = 1 << sq[8 - 8 * side]
        adjm = t.adj_mask
        reach2 = t.reach2
        two_cannons = t.two_cannons
        two_sails = t.two_sails
        caps: list[int] = []  # (1000 - victim's value) << 9 | ship << 5 | square
        for ship in range(side * 8, side * 8 + 8):
            src = sq[ship]
            if src < 0:
                continue
            capm = em if two_cannons[ship] else ew
            adj = adjm[src]
            tg = adj & capm
            if two_sails[ship]:
                tg |= reach2[src][adj & free] & capm
            if tg:
                if tg & corvette:
                    return WIN - ply - 1
                while tg:
                    low = tg & -tg
                    tg ^= low
                    d = low.bit_length() - 1
                    caps.append((1000 - VALUES[occ[d] & 7]) << 9 | ship << 5 | d)
        if not caps:
            return alpha
        caps.sort()
        # Captures are made and unmade in place here (the hottest loop): squares, masks
        # and score; the key is not needed below (no table lookups in quiescence).
        score = bd.score
        om = bd.om
        sm = bd.sm
        wm = bd.wm
        e = side ^ 1
        sm_own, sm_enemy, wm_own, wm_enemy = sm[side], sm[e], wm[side], wm[e]
        pv = t.pair_value
        w = t.width
        weak = t.weak
        for cap in caps:
            ship = cap >> 5 & 15
            d = cap & 31
            src = sq[ship]
            victim = occ[d]
            p = sq[ship ^ 7] + 1
            vp = sq[victim ^ 7] + 1
            pvs = pv[ship]
            pvv = pv[victim]
            child_score = (
                score
                - pvs[(src + 1) * w + p]
                + pvs[(d + 1) * w + p]
                + pvv[vp]
                - pvv[(d + 1) * w + vp]
            )
            # The child stands on its static score (the tie-break count is back to 0)
            # when that is enough for a cut or it may search no deeper: no call then.
            child = child_score if side else -child_score
            if child >= -alpha or qd == 1:
                self.nodes += 1
                s = -child
            else:
                bs = 1 << src
                bd_ = 1 << d
                bd.score = child_score
                bd.om = om ^ bs
                sm[side] = sm_own ^ bs ^ bd_
                sm[e] = sm_enemy ^ bd_
                if weak[ship]:
                    wm[side] = wm_own ^ bs ^ bd_
                if weak[victim]:
                    wm[e] = wm_enemy ^ bd_
                sq[victim] = -1
                occ[src] = -1
                occ[d] = ship
                sq[ship] = d
                s = -self.quiesce(-beta, -alpha, ply + 1, e, 0, side, qd - 1)
                sq[ship] = src
                occ[src] = ship
                sq[victim] = d
                occ[d] = victim
                bd.score = score
                bd.om = om
                # Only the masks the capture changed are put back: storing an int in a
                # list makes an object of it, compiled too.
                sm[side] = sm_own
                sm[e] = sm_enemy
                if weak[ship]:
                    wm[side] = wm_own
                if weak[victim]:
                    wm[e] = wm_enemy
            if s >= beta:
                return s
            if s > alpha:
                alpha = s
        return alpha

    def negamax(
        self,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        side: int,
        turn_no: int,
        streak: int,
        winner: int,
        null_ok: bool = True,
    ) -> int:
        """Principal-variation alpha-beta; the transposition-table move is tried before
        the other moves are even generated (it often cuts the node off alone).

        Two usual prunings, both off near the tie-break (the count must stay exact)
        and on the positioning turns: a null move (let the opponent play twice, a
        shallower search; if we still stay above ``beta`` the node is cut) and late
        move reductions (quiet moves late in the order are first searched one turn
        shallower, and again at full depth only when they look better than ``alpha``)."""
        bd = self.bd
        sq = bd.sq
        if sq[0] < 0:
            return WIN - ply if side == BLUE else -(WIN - ply)
        if sq[8] < 0:
            return WIN - ply if side == RED else -(WIN - ply)
        if streak >= TIEBREAK_TURNS:
            return HALF if winner == side else -HALF
        pos_turn = self.positioning and turn_no < 2
        if depth <= 0 and not pos_turn:
            return self.quiesce(alpha, beta, ply, side, streak, winner, QDEPTH)
        self.nodes += 1
        if self.nodes > self.limit:
            self._check()
        t = self.t
        key = bd.h
        if side:
            key ^= t.z_side
        if pos_turn:
            key ^= t.z_positioning
        if streak + depth >= TB_START:
            # Only then can the tie-break count change a score below this node.
            key ^= t.z_streak[streak] ^ t.z_winner[winner]
        entry = self.tt.get(key)
        tt_move = -1
        if entry is not None:
            tt_move = (entry & 16383) - 1
            if (entry >> 16 & 255) - TT_DEPTH >= depth:
                e_flag = (entry >> 14 & 3) - 1
                e_score = (entry >> 24) - TT_SCORE
                if e_score > MATE_ZONE:
                    e_score -= ply
                elif e_score < -MATE_ZONE:
                    e_score += ply
                if e_flag == 0:
                    return e_score
                if e_flag < 0 and e_score <= alpha:
                    return e_score
                if e_flag > 0 and e_score >= beta:
                    return e_score
        other = 1 - side
        prune = not pos_turn and streak + depth + 2 < TB_START
        if (
            null_ok
            and prune
            and depth >= 3
            and beta - alpha == 1
            and beta < MATE_ZONE
            and (bd.score if side == RED else -bd.score) >= beta
        ):
            r = 3 if depth >= 6 else 2
            s = -self.negamax(
                depth - 1 - r, -beta, -beta + 1, ply + 1, other, turn_no + 1, streak, winner, False
            )
            if s >= beta:
                return beta if s > MATE_ZONE else s
        a0 = alpha
        best = -INF
        best_move = -1
        h, score = bd.h, bd.score
        child_depth = depth - 1
        reduce = prune and depth >= 3
        searched = 0
        leaf = child_depth <= 0 and not (self.positioning and turn_no + 1 < 2)
        occ = bd.occ
        om = bd.om
        sm = bd.sm
        wm = bd.wm
        sm_own, sm_enemy, wm_own, wm_enemy = sm[side], sm[other], wm[side], wm[other]
        pv = t.pair_value
        w = t.width
        z = t.zobrist
        weak = t.weak
        killers = self.killers[ply]
        hist = self.history[side]
        moves: list[int] = []
        if tt_move >= 0 and (tt_move >= TELEPORT or sq[tt_move & 15] >= 0):
            moves.append(tt_move)
        generated = False
        i = 0
        while True:
            if i == len(moves):
                if generated:
                    break
                generated = True
                caps, quiet = bd.gen(side, pos_turn)
                if caps and (bd.occ[(caps[0] >> 4) & 31] & 7) == 0:
                    best = WIN - ply - 1  # the enemy corvette falls (listed first)
                    best_move = caps[0]
                    break
                quiet.sort(key=hist.__getitem__, reverse=True)
                for k in (killers[1], killers[0]):
                    if k != -1 and k in quiet:
                        quiet.remove(k)
                        quiet.insert(0, k)
                rest = caps + quiet
                if moves and tt_move in rest:
                    rest.remove(tt_move)
                moves = rest
                i = 0
                if not moves:
                    break
            code = moves[i]
            i += 1
            if code < 512:
                # A displacement without bonus, made in place (the hot path).
                ship = code & 15
                d = code >> 4
                src = sq[ship]
                victim = occ[d]
                p = sq[ship ^ 7] + 1
                pvs = pv[ship]
                zs = z[ship]
                bs = 1 << src
                bdd = 1 << d
                new_score = score - pvs[(src + 1) * w + p] + pvs[(d + 1) * w + p]
                new_h = h ^ zs[src + 1] ^ zs[d + 1]
                sm[side] = sm_own ^ bs ^ bdd
                if weak[ship]:
                    wm[side] = wm_own ^ bs ^ bdd
                if victim >= 0:
                    vp = sq[victim ^ 7] + 1
                    pvv = pv[victim]
                    new_score += pvv[vp] - pvv[(d + 1) * w + vp]
                    new_h ^= z[victim][d + 1] ^ z[victim][0]
                    sm[other] = sm_enemy ^ bdd
                    if weak[victim]:
                        wm[other] = wm_enemy ^ bdd
                    sq[victim] = -1
                    bd.om = om ^ bs
                else:
                    bd.om = om ^ bs ^ bdd
                occ[src] = -1
                occ[d] = ship
                sq[ship] = d
                bd.h = new_h
                bd.score = new_score
            elif TELEPORT <= code < PASS_CODE:
                src = victim = -1
                bd.cycle(side, code - TELEPORT)
            else:
                src, victim = bd.make(code, side)
            if victim >= 0:
                c_streak, c_winner = 0, side
            else:
                c_streak, c_winner = streak + 1, winner
            if (
                leaf
                and sq[0] >= 0
                and sq[8] >= 0
                and c_streak < TIEBREAK_TURNS
                and (bd.score if other == RED else -bd.score)
                + (
                    0
                    if c_streak < TB_START
                    else (TB_PRESSURE[c_streak] if c_winner == other else -TB_PRESSURE[c_streak])
                )
                >= -alpha
            ):
                # The child's quiescence would stop at once on its static score
                # (what it returns): skip the call, count the node.
                s = (-bd.score if other == RED else bd.score) - (
                    0
                    if c_streak < TB_START
                    else (TB_PRESSURE[c_streak] if c_winner == other else -TB_PRESSURE[c_streak])
                )
                self.nodes += 1
            elif best == -INF:
                s = -self.negamax(
                    child_depth, -beta, -alpha, ply + 1, other, turn_no + 1, c_streak, c_winner
                )
            else:
                s = alpha + 1
                if reduce and searched >= 3 and victim < 0 and code not in killers:
                    s = -self.negamax(
                        child_depth - 1,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        other,
                        turn_no + 1,
                        c_streak,
                        c_winner,
                    )
                if s > alpha:
                    s = -self.negamax(
                        child_depth,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        other,
                        turn_no + 1,
                        c_streak,
                        c_winner,
                    )
                if alpha < s < beta:
                    s = -self.negamax(
                        child_depth, -beta, -s, ply + 1, other, turn_no + 1, c_streak, c_winner
                    )
            searched += 1
            if code < 512:
                sq[ship] = src
                occ[src] = ship
                if victim >= 0:
                    sq[victim] = d
                    occ[d] = victim
                else:
                    occ[d] = -1
                bd.om = om
                sm[side] = sm_own  # only the masks the move changed (see quiesce)
                if weak[ship]:
                    wm[side] = wm_own
                if victim >= 0:
                    sm[other] = sm_enemy
                    if weak[victim]:
                        wm[other] = wm_enemy
                bd.h = h
                bd.score = score
            elif TELEPORT <= code < PASS_CODE:
                bd.uncycle(side, code - TELEPORT)
                bd.h = h
                bd.score = score
            else:
                bd.unmake(code, side, src, victim, h, score)
            if s > best:
                best = s
                best_move = code
                if s > alpha:
                    alpha = s
                    if alpha >= beta:
                        if victim < 0:
                            if killers[0] != code:
                                killers[1] = killers[0]
                                killers[0] = code
                            hist[code] += depth * depth
                        break
        flag = 0 if a0 < best < beta else (-1 if best <= a0 else 1)
        stored = best
        if stored > MATE_ZONE:
            stored += ply
        elif stored < -MATE_ZONE:
            stored -= ply
        self.tt[key] = (
            (stored + TT_SCORE) << 24
            | (depth + TT_DEPTH) << 16
            | (flag + 1) << 14
            | (best_move + 1)
        )
        return best

    def root_moves(self, side: int, pos_turn: bool) -> list[tuple[int, Turn, Position]]:
        """Root moves, one per resulting position (two turns to one position are one move),
        ordered by the static score of what they lead to."""
        bd = self.bd
        caps, quiet = bd.gen(side, pos_turn)
        seen: set[Position] = set()
        scored: list[tuple[int, int, Turn, Position]] = []
        h, score = bd.h, bd.score
        for i, code in enumerate(caps + quiet):
            turn = bd.turn_of(code, side)
            src, victim = bd.make(code, side)
            p = bd.position()
            if p not in seen:
                seen.add(p)
                if bd.sq[8 - side * 8] < 0:
                    s = WIN
                elif bd.sq[side * 8] < 0:
                    s = -WIN
                else:
                    s = bd.score if side == RED else -bd.score
                scored.append((-s, i, turn, p))
            bd.unmake(code, side, src, victim, h, score)
        scored.sort(key=lambda x: (x[0], x[1]))
        codes = caps + quiet
        return [(codes[i], turn, p) for _, i, turn, p in scored]


class Tree(Protocol):
    """What :func:`search`'s root loop needs below the root: a :class:`Searcher` or the C
    core (``searchcore.Core``) on the same position."""

    @property
    def nodes(self) -> int: ...

    @property
    def h(self) -> int: ...

    @property
    def score(self) -> int: ...

    def make(self, code: int, side: int) -> tuple[int, int]: ...

    def unmake(self, code: int, side: int, src: int, victim: int, h: int, score: int) -> None: ...

    def negamax(
        self,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        side: int,
        turn_no: int,
        streak: int,
        winner: int,
    ) -> int: ...


@cache
def core_tables(board_id: str) -> object:
    """The board's :class:`Tables` and the search's constants, copied once into the C core."""
    assert CORE is not None
    t = tables(board_id)
    return CORE.Tables(
        size=t.board.size,
        width=t.width,
        full=t.full,
        adj_mask=t.adj_mask,
        last_mask=t.last_mask,
        two_cannons=t.two_cannons,
        weak=t.weak,
        two_sails=t.two_sails,
        teleports=t.teleports,
        teleports_with=t.teleports_with,
        cycle_pairs=t.cycle_pairs,
        pair_value=t.pair_value,
        zobrist=t.zobrist,
        z_side=t.z_side,
        z_positioning=t.z_positioning,
        z_streak=t.z_streak,
        z_winner=t.z_winner,
        values=VALUES,
        tb_pressure=TB_PRESSURE,
        win=WIN,
        mate_zone=MATE_ZONE,
        inf=INF,
        half=HALF,
        capture_order=CAPTURE_ORDER,
        tt_score=TT_SCORE,
        tt_depth=TT_DEPTH,
        tb_start=TB_START,
        tiebreak_turns=TIEBREAK_TURNS,
        qdepth=QDEPTH,
        teleport=TELEPORT,
        pass_code=PASS_CODE,
        max_ply=MAX_PLY,
    )


def _tree(s: Searcher, b: Board, pos: Position, native: bool | None) -> Tree:
    """``s`` itself, or the C core on the same position with what is left of its budgets."""
    if native is False or (native is None and CORE is None):
        return s
    if CORE is None:
        raise RuntimeError("MAD's search core is not built here (`pip install -e .`)")
    left = None if s.deadline is None else s.deadline - time.perf_counter()
    tree: Tree = CORE.Core(core_tables(b.id), pos, s.positioning, s.node_budget, left)
    return tree


def search(
    b: Board,
    pos: Position,
    side: int,
    turn_no: int = 10,
    positioning: bool = True,
    time_budget: float | None = 2.0,
    node_budget: int | None = None,
    max_depth: int = 40,
    rnd: random.Random | None = None,
    streak: int = 0,
    last_expeller: int | None = None,
    on_depth: Callable[[int, int, float], None] | None = None,
    native: bool | None = None,
) -> SearchResult:
    """Iterative deepening: the best turn of the last finished depth, or of the
    unfinished one when it already found a better turn than the previous best.

    Ties between equally scored turns are broken with ``rnd`` when given (root
    scores are exact for every turn as good as the best). With no ``time_budget``
    the search depends only on its inputs: the same seed gives the same turn.
    ``native``: below the root, the C core (True), this module (False), or the core
    where it is built (None); the results are the same.
    """
    t0 = time.perf_counter()
    s = Searcher(b, pos, positioning, node_budget, time_budget)
    winner = BLUE if last_expeller is None else last_expeller
    pos_turn = positioning and turn_no < 2
    if pos[0] == EXILE or pos[8] == EXILE:
        return SearchResult(None, 0, 0, 0, time.perf_counter() - t0)
    roots = s.root_moves(side, pos_turn)
    if not roots:
        return SearchResult(None, 0, 0, 0, time.perf_counter() - t0)
    tree = _tree(s, b, pos, native)
    best: list[tuple[int, int]] = []  # (score, index into roots)
    depth_done = 0
    for depth in range(1, min(max_depth, TT_DEPTH - 1) + 1):  # deeper than any search reaches
        scored: list[tuple[int, int]] = []
        alpha = -INF
        try:
            for i, (code, _turn, _p) in enumerate(roots):
                h, score = tree.h, tree.score
                src, victim = tree.make(code, side)
                c_streak, c_winner = (0, side) if victim >= 0 else (streak + 1, winner)
                sc = -tree.negamax(
                    depth - 1, -INF, -(alpha - 1), 1, 1 - side, turn_no + 1, c_streak, c_winner
                )
                tree.unmake(code, side, src, victim, h, score)
                scored.append((sc, i))
                if sc > alpha:
                    alpha = sc
        except STOPS:
            if len(scored) >= 2 and max(scored)[0] > scored[0][0]:
                best = scored
            break
        best = scored
        depth_done = depth
        if on_depth is not None:
            on_depth(depth, tree.nodes, time.perf_counter() - t0)
        # Next depth: best first, then by this depth's scores (stable).
        order = sorted(range(len(scored)), key=lambda j: -scored[j][0])
        roots = [roots[scored[j][1]] for j in order]
        top = scored[order[0]][0]
        best = [(scored[order[j]][0], j) for j in range(len(order))]
        if abs(top) > MATE_ZONE:
            break  # a forced win, or a forced loss played out as long as it lasts
    if not best:
        code, turn, p = roots[0]
        return SearchResult(turn, 0, 0, tree.nodes, time.perf_counter() - t0)
    top = max(x[0] for x in best)
    tied = [i for sc, i in best if sc == top]
    pick = tied[0] if rnd is None else tied[rnd.randrange(len(tied))]
    return SearchResult(roots[pick][1], top, depth_done, tree.nodes, time.perf_counter() - t0)
