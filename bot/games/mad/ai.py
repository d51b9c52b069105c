"""MAD's AI: static evaluation and alpha-beta search with iterative deepening.

Levels (``SeatSpec.ai_level`` or the host option ``ai_level``):
- ``easy``: one turn deep, static evaluation plus large random noise;
- ``medium``: fixed 2-turn alpha-beta with capture quiescence;
- ``hard``: iterative deepening alpha-beta (transposition table, capture
  quiescence) stopped by a node budget (``HARD_NODES``), so the same seed
  always gives the same move; :func:`search` also takes a time budget
  (default 2 s) for analysis and benchmarks.
Random choices use only the ``rnd`` the engine passes (ties, noise).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from bot.games.mad.core import (
    BLUE,
    EXILE,
    KINDS,
    Board,
    Position,
    Turn,
    corvette_exiled,
    destinations,
    occupancy,
    turns,
)
from bot.games.mad.state import TIEBREAK_TURNS

WIN = 1_000_000
HALF = 4_000
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
VALUES = tuple(VALUE[k] for k in KINDS)
HARD_NODES = 40_000
"""Node budget of the ``hard`` level in ``ai_choose`` (about 0.7 s at 55k nodes/s)."""
LEVELS = ("easy", "medium", "hard")


class _Stop(Exception):
    pass


def evaluate(b: Board, pos: Position, side: int) -> int:
    """Static score for ``side``: material, recall chances, advance, corvette cover."""
    score = 0
    rows = b.rows
    cols = b.cols
    for ship in range(16):
        sq = pos[ship]
        kind = ship & 7
        sgn = 1 if (ship >> 3) == side else -1
        if sq == EXILE:
            # An exiled ship whose complement is on board can be recalled.
            if pos[(ship & 8) | (7 - kind)] != EXILE:
                score += sgn * VALUES[kind] // 8
            continue
        v = VALUES[kind]
        r = sq // cols
        adv = r if ship < 8 else rows - 1 - r
        if kind == 0:
            v += 12 * (1 - adv)  # keep the corvette home
        else:
            v += 6 * adv
            c = sq % cols
            if 0 < c < cols - 1:
                v += 4
        score += sgn * v
    return score


@dataclass
class SearchResult:
    turn: Turn | None
    score: int
    depth: int
    nodes: int
    seconds: float


class Searcher:
    """Negamax alpha-beta with a transposition table keyed by position and side."""

    def __init__(self, b: Board, node_budget: int | None, time_budget: float | None) -> None:
        self.b = b
        self.node_budget = node_budget
        self.deadline = None if time_budget is None else time.perf_counter() + time_budget
        self.nodes = 0
        self.tt: dict[
            tuple[Position, int, bool, tuple[int, int | None] | None],
            tuple[int, int, int, Position | None],
        ] = {}

    def _tick(self) -> None:
        self.nodes += 1
        if self.node_budget is not None and self.nodes > self.node_budget:
            raise _Stop
        if (
            self.deadline is not None
            and (self.nodes & 255) == 0
            and time.perf_counter() > self.deadline
        ):
            raise _Stop

    def children(self, pos: Position, side: int, pos_turn: bool) -> list[tuple[Turn, Position]]:
        seen: set[Position] = set()
        out: list[tuple[Turn, Position]] = []
        for t, p in turns(self.b, pos, side, pos_turn):
            if p not in seen:
                seen.add(p)
                out.append((t, p))
        return out

    def ordered(
        self, kids: list[tuple[Turn, Position]], side: int, first: Position | None
    ) -> list[tuple[Turn, Position]]:
        b = self.b
        scored = []
        for t, p in kids:
            loser = corvette_exiled(p)
            if loser is not None:
                s = WIN if loser != side else -WIN
            else:
                s = evaluate(b, p, side)
            if p == first:
                s += 10 * WIN
            scored.append((s, t, p))
        scored.sort(key=lambda x: -x[0])
        return [(t, p) for _, t, p in scored]

    def quiesce(self, pos: Position, side: int, alpha: int, beta: int, qdepth: int) -> int:
        self._tick()
        stand = evaluate(self.b, pos, side)
        if stand >= beta or qdepth == 0:
            return stand
        alpha = max(alpha, stand)
        b = self.b
        occ = occupancy(b, pos)
        caps: list[tuple[int, int, int]] = []
        for ship in range(side * 8, side * 8 + 8):
            if pos[ship] == EXILE:
                continue
            for dst in destinations(b, pos, occ, ship):
                v = occ[dst]
                if v != -1:
                    if v & 7 == 0:
                        return WIN - 1  # the enemy corvette falls
                    caps.append((VALUES[v & 7], ship, dst))
        caps.sort(reverse=True)
        for _, ship, dst in caps:
            p = list(pos)
            p[occ[dst]] = EXILE
            p[ship] = dst
            s = -self.quiesce(tuple(p), 1 - side, -beta, -alpha, qdepth - 1)
            if s >= beta:
                return s
            alpha = max(alpha, s)
        return alpha

    def negamax(
        self,
        pos: Position,
        side: int,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        turn_no: int,
        positioning: bool,
        tb: tuple[int, int | None] = (0, None),
    ) -> int:
        """``tb`` = (turns without a change in the ship count, last expeller) for the tie-break."""
        loser = corvette_exiled(pos)
        if loser is not None:
            return (WIN - ply) if loser != side else -(WIN - ply)
        streak, last_exp = tb
        if streak >= TIEBREAK_TURNS:
            return HALF if (BLUE if last_exp is None else last_exp) == side else -HALF
        pos_turn = positioning and turn_no < 2
        if depth <= 0 and not pos_turn:
            return self.quiesce(pos, side, alpha, beta, 4)
        self._tick()
        # The tie-break state only matters when the 40th turn is within the horizon.
        key = (pos, side, pos_turn, tb if TIEBREAK_TURNS - streak <= depth else None)
        entry = self.tt.get(key)
        first = None
        if entry is not None:
            e_depth, e_score, e_flag, e_best = entry
            first = e_best
            if e_depth >= depth and abs(e_score) < WIN - 1000:
                if e_flag == 0:
                    return e_score
                if e_flag < 0 and e_score <= alpha:
                    return e_score
                if e_flag > 0 and e_score >= beta:
                    return e_score
        kids = self.ordered(self.children(pos, side, pos_turn), side, first)
        if not kids:
            return 0
        a0 = alpha
        best = -2 * WIN
        best_pos = None
        exiled = pos.count(EXILE)
        for _, p in kids:
            child_tb = (0, side) if p.count(EXILE) != exiled else (streak + 1, last_exp)
            s = -self.negamax(
                p, 1 - side, depth - 1, -beta, -alpha, ply + 1, turn_no + 1, positioning, child_tb
            )
            if s > best:
                best, best_pos = s, p
            if s > alpha:
                alpha = s
            if alpha >= beta:
                break
        flag = 0 if a0 < best < beta else (-1 if best <= a0 else 1)
        self.tt[key] = (depth, best, flag, best_pos)
        return best

    def root(
        self,
        pos: Position,
        side: int,
        depth: int,
        turn_no: int,
        positioning: bool,
        first: Position | None,
        tb: tuple[int, int | None] = (0, None),
    ) -> list[tuple[int, Turn, Position]]:
        """Scores of every root turn at ``depth`` (exact for the best, bounds for others)."""
        pos_turn = positioning and turn_no < 2
        kids = self.ordered(self.children(pos, side, pos_turn), side, first)
        out = []
        alpha = -2 * WIN
        exiled = pos.count(EXILE)
        for t, p in kids:
            child_tb = (0, side) if p.count(EXILE) != exiled else (tb[0] + 1, tb[1])
            s = -self.negamax(
                p, 1 - side, depth - 1, -2 * WIN, -alpha + 1, 1, turn_no + 1, positioning, child_tb
            )
            out.append((s, t, p))
            alpha = max(alpha, s)
        return out


def search(
    b: Board,
    pos: Position,
    side: int,
    turn_no: int = 10,
    positioning: bool = True,
    time_budget: float | None = 2.0,
    node_budget: int | None = None,
    max_depth: int = 30,
    rnd: random.Random | None = None,
    streak: int = 0,
    last_expeller: int | None = None,
) -> SearchResult:
    """Iterative deepening: the best turn of the last finished depth (or a better one found since).

    Ties between equally scored turns are broken with ``rnd`` when given.
    ``streak``/``last_expeller`` let the search see the 40-turn tie-break coming
    (a half victory scores ``HALF``).
    """
    t0 = time.perf_counter()
    s = Searcher(b, node_budget, time_budget)
    best: list[tuple[int, Turn, Position]] = []
    depth_done = 0
    first: Position | None = None
    for depth in range(1, max_depth + 1):
        try:
            scored = s.root(pos, side, depth, turn_no, positioning, first, (streak, last_expeller))
        except _Stop:
            break
        best = scored
        depth_done = depth
        top = max(x[0] for x in scored)
        first = next(p for sc, _, p in scored if sc == top)
        if abs(top) >= WIN - 1000:
            break
    if not best:
        kids = s.children(pos, side, positioning and turn_no < 2)
        ordered = s.ordered(kids, side, None)
        if not ordered:
            return SearchResult(None, 0, 0, s.nodes, time.perf_counter() - t0)
        t, p = ordered[0]
        return SearchResult(t, evaluate(b, p, side), 0, s.nodes, time.perf_counter() - t0)
    top = max(x[0] for x in best)
    tied = [(t, p) for sc, t, p in best if sc == top]
    pick = tied[0] if rnd is None else tied[rnd.randrange(len(tied))]
    return SearchResult(pick[0], top, depth_done, s.nodes, time.perf_counter() - t0)


def choose(
    b: Board,
    pos: Position,
    side: int,
    turn_no: int,
    positioning: bool,
    level: str,
    rnd: random.Random,
    streak: int = 0,
    last_expeller: int | None = None,
) -> Turn:
    """The turn the AI of ``level`` plays (deterministic for a given ``rnd``).

    Only ``hard`` looks at the tie-break counter (``streak``, ``last_expeller``).
    """
    if level == "easy":
        pos_turn = positioning and turn_no < 2
        opts = []
        for t, p in turns(b, pos, side, pos_turn):
            loser = corvette_exiled(p)
            if loser is not None:
                sc = WIN if loser != side else -WIN
            else:
                sc = evaluate(b, p, side) + int(rnd.gauss(0, 350))
            opts.append((sc, t))
        return max(opts, key=lambda x: x[0])[1]
    if level == "medium":
        res = search(
            b,
            pos,
            side,
            turn_no,
            positioning,
            time_budget=None,
            node_budget=None,
            max_depth=2,
            rnd=rnd,
        )
    else:
        res = search(
            b,
            pos,
            side,
            turn_no,
            positioning,
            time_budget=None,
            node_budget=HARD_NODES,
            rnd=rnd,
            streak=streak,
            last_expeller=last_expeller,
        )
    assert res.turn is not None
    return res.turn


__all__ = ["HARD_NODES", "LEVELS", "SearchResult", "choose", "evaluate", "search"]
