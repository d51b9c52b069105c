"""``python -m bot perft mad --board 6x4|5x5 --depth N [--no-positioning]``.

perft(1) is the number of distinct positions reachable in one turn (every
ship on the board or in exile, plus the side to move); perft(d) sums
perft(d-1) over those positions, counting every path. A position with an
exiled corvette has no successors. The tie-break counter is not part of a
position. Counts are memoised per (position, side, depth, positioning), which
changes nothing in the sums.
"""

from __future__ import annotations

import argparse
import time

from bot.games.mad.core import BOARD_IDS, RED, Board, Position, board, successors


def perft(b: Board, depth: int, positioning: bool = True) -> int:
    """perft(depth) from the printed starting position, red to move."""
    memo: dict[tuple[Position, int, int, bool], int] = {}
    return _perft(b, b.start, RED, depth, 0, positioning, memo)


def _perft(
    b: Board,
    pos: Position,
    side: int,
    depth: int,
    ply: int,
    positioning: bool,
    memo: dict[tuple[Position, int, int, bool], int],
) -> int:
    if depth == 0:
        return 1
    pos_turn = positioning and ply < 2
    k = (pos, side, depth, pos_turn)
    hit = memo.get(k)
    if hit is not None:
        return hit
    children = successors(b, pos, side, pos_turn)
    if depth == 1:
        n = len(children)
    else:
        n = sum(_perft(b, c, 1 - side, depth - 1, ply + 1, positioning, memo) for c in children)
    memo[k] = n
    return n


def main(argv: list[str]) -> int:
    """Print perft(1..N); ``argv`` excludes the words ``perft mad``."""
    ap = argparse.ArgumentParser(
        prog="python -m bot perft mad", description="MAD move-generator counts"
    )
    ap.add_argument("--board", choices=BOARD_IDS, default="6x4")
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument(
        "--no-positioning", action="store_true", help="play without the positioning turn"
    )
    args = ap.parse_args(argv)
    if args.depth < 1:
        ap.error("--depth must be >= 1")
    b = board(args.board)
    for d in range(1, args.depth + 1):
        t0 = time.perf_counter()
        n = perft(b, d, not args.no_positioning)
        print(f"perft({d}) = {n}  ({time.perf_counter() - t0:.2f} s)", flush=True)
    return 0


if __name__ == "__main__":  # pragma: no cover
    import sys

    raise SystemExit(main(sys.argv[1:]))
