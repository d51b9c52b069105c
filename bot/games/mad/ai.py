"""MAD's AI levels on top of the fast search (:mod:`bot.games.mad.search`).

Levels (``SeatSpec.ai_level`` or the host option ``ai_level``):
- ``easy``: one turn deep: the static evaluation of each turn plus large random noise;
- ``medium``: alpha-beta to 3 turns (with capture quiescence), at most ``MEDIUM_NODES``;
- ``hard``: iterative-deepening alpha-beta stopped by a node budget (``HARD_NODES``),
  so the same seed always gives the same move; :func:`search` also takes a time
  budget for analysis and benchmarks.

Every level knows the 40-turn tie-break: a line reaching the 40th quiet turn
scores a half victory (``HALF``) for the side that would win it, and the static
evaluation adds the tie-break's pressure as the count nears 40
(``search.TB_PRESSURE``), so even ``easy`` seeks an expulsion in time when it
would lose the tie-break. A lost position is played out: a loss scores
``-(WIN - plies)``, so among losing turns the longest resistance is preferred
and exiling one's own corvette (a loss at once) comes last.
Random choices use only the ``rnd`` the engine passes (ties, noise).
"""

from __future__ import annotations

import random

from bot.games.mad.core import EXILE, RED, Board, Position, Turn, on_board_count, turns
from bot.games.mad.search import (
    HALF,
    TB_PRESSURE,
    TB_START,
    TIEBREAK_TURNS,
    VALUES,
    WIN,
    SearchResult,
    red_score,
    search,
    tables,
)

HARD_NODES = 120_000
"""Node budget of ``hard`` (depth 8-10 on 6x4 in the middle game; about 10 ms of CPU here
with the search's C core, ``searchcore.c``, 0.1 s compiled by mypyc alone,
:mod:`bot.games.mad.native`, 0.6-0.9 s interpreted)."""
MEDIUM_NODES = 8_000
MEDIUM_DEPTH = 3
EASY_NOISE = 350
"""Standard deviation of ``easy``'s noise, about a frigate."""
LEVELS = ("easy", "medium", "hard")
ALIASES: dict[str, str] = {}
"""Old level ids still accepted (none so far: the ids never changed)."""


def evaluate(b: Board, pos: Position, side: int) -> int:
    """Static score for ``side``: material, recall chances, advance, corvette cover."""
    s = red_score(tables(b.id), pos)
    return s if side == RED else -s


def level_id(level: str | None) -> str | None:
    """The level ``level`` names (an old alias is mapped), or ``None`` if unknown."""
    if level is None:
        return None
    level = ALIASES.get(level, level)
    return level if level in LEVELS else None


def _easy(
    b: Board,
    pos: Position,
    side: int,
    pos_turn: bool,
    rnd: random.Random,
    streak: int,
    last_expeller: int | None,
) -> Turn:
    """One turn deep: what each turn's result is worth now, plus noise (none on a
    corvette taken or lost, nor on the 40th quiet turn)."""
    winner = 1 if last_expeller is None else last_expeller
    t = tables(b.id)
    before = on_board_count(pos)
    best: tuple[int, Turn] | None = None
    for turn, p in turns(b, pos, side, pos_turn):
        if p[8 - 8 * side] == EXILE:
            sc = WIN
        elif p[8 * side] == EXILE:
            sc = -WIN
        else:
            expelled = on_board_count(p) != before
            c_streak, c_winner = (0, side) if expelled else (streak + 1, winner)
            if c_streak >= TIEBREAK_TURNS:
                sc = HALF if c_winner == side else -HALF
            else:
                sc = red_score(t, p) if side == RED else -red_score(t, p)
                if c_streak >= TB_START:
                    pressure = TB_PRESSURE[c_streak]
                    sc += pressure if c_winner == side else -pressure
                sc += int(rnd.gauss(0, EASY_NOISE))
        if best is None or sc > best[0]:
            best = (sc, turn)
    assert best is not None
    return best[1]


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

    Every level is told the tie-break count (``streak`` quiet turns, the last
    expeller).
    """
    lvl = level_id(level) or "hard"
    if lvl == "easy":
        return _easy(b, pos, side, positioning and turn_no < 2, rnd, streak, last_expeller)
    if lvl == "medium":
        budget, depth = MEDIUM_NODES, MEDIUM_DEPTH
    else:
        budget, depth = HARD_NODES, 40
    res = search(
        b,
        pos,
        side,
        turn_no,
        positioning,
        time_budget=None,
        node_budget=budget,
        max_depth=depth,
        rnd=rnd,
        streak=streak,
        last_expeller=last_expeller,
    )
    assert res.turn is not None
    return res.turn


__all__ = [
    "HALF",
    "HARD_NODES",
    "LEVELS",
    "MEDIUM_NODES",
    "VALUES",
    "WIN",
    "SearchResult",
    "choose",
    "evaluate",
    "level_id",
    "search",
]
