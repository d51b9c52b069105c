"""MAD AI: search speed, depth in a second, levels against each other, time per decision.

    python bench/bench_mad_ai.py                      # speed + 10 games per pairing
    python bench/bench_mad_ai.py --games 40 --jobs 2
    python bench/bench_mad_ai.py --speed-only

Speed: nodes per CPU second of the search at hard's node budget from fixed
positions (both boards), and the depth iterative deepening finishes within 1 s.
Matches: colours alternated, 6x4, fixed seeds; a win 1, a tie-break half victory
½ (as the rules score it); ``random`` plays a uniformly random legal turn. Time
per decision is CPU time (``time.process_time``) of the level's own moves, so a
shared machine's load does not inflate it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games.mad import ai  # noqa: E402
from bot.games.mad.core import BOARD_IDS, RED, board, corvette_exiled, turns  # noqa: E402
from bot.games.mad.search import search  # noqa: E402
from bot.games.mad.state import TIEBREAK_TURNS  # noqa: E402

PAIRINGS = [("hard", "medium"), ("medium", "easy"), ("easy", "random"), ("hard", "random")]


def positions(board_id: str) -> list[tuple[tuple[int, ...], int, int]]:
    """(position, side, turn number): the start and two middle-game positions."""
    b = board(board_id)
    out = [(b.start, RED, 2)]
    pos, side = b.start, RED
    for ply in range(12):
        kids = sorted({p for _, p in turns(b, pos, side, ply < 2)})
        pos, side = kids[len(kids) // 3], 1 - side
        if ply in (7, 11):
            out.append((pos, side, ply + 1))
    return out


def speed() -> None:
    for board_id in BOARD_IDS:
        b = board(board_id)
        for pos, side, turn_no in positions(board_id):
            c0 = time.process_time()
            res = search(b, pos, side, turn_no=turn_no, time_budget=None, node_budget=ai.HARD_NODES)
            cpu = time.process_time() - c0
            timed = search(b, pos, side, turn_no=turn_no, time_budget=1.0)
            print(
                f"{board_id} turn {turn_no:2}: {res.nodes / cpu:9,.0f} nodes/CPU s, "
                f"hard budget depth {res.depth} in {cpu:.2f} s CPU; depth {timed.depth} "
                f"within 1 s wall",
                flush=True,
            )


def one_game(args: tuple[int, str, str, str]) -> tuple[float, float, int, list[float], list[float]]:
    """(score of a, score of b, turns, a's CPU seconds per decision, b's)."""
    index, a, b_level, board_id = args
    b = board(board_id)
    a_red = index % 2 == 0
    levels = {RED: a if a_red else b_level, 1 - RED: b_level if a_red else a}
    rnd = random.Random(f"bench-{board_id}-{a}-{b_level}-{index}")
    pos, side, turn_no = b.start, RED, 0
    streak, last_exp = 0, None
    times: dict[int, list[float]] = {0: [], 1: []}
    result: tuple[int, float] | None = None
    while result is None:
        level = levels[side]
        c0 = time.process_time()
        if level == "random":
            options = turns(b, pos, side, turn_no < 2)
            turn, new = options[rnd.randrange(len(options))]
        else:
            turn = ai.choose(b, pos, side, turn_no, True, level, rnd, streak, last_exp)
            new = next(p for t, p in turns(b, pos, side, turn_no < 2) if t == turn)
        times[side].append(time.process_time() - c0)
        before = sum(1 for q in pos if q >= 0)
        after = sum(1 for q in new if q >= 0)
        if after != before:
            streak, last_exp = 0, side
        else:
            streak += 1
        pos, side, turn_no = new, 1 - side, turn_no + 1
        loser = corvette_exiled(pos)
        if loser is not None:
            result = (1 - loser, 1.0)
        elif streak >= TIEBREAK_TURNS:
            result = (1 if last_exp is None else last_exp, 0.5)
    winner, points = result
    a_side = RED if a_red else 1 - RED
    sa = points if winner == a_side else 0.0
    sb = points if winner != a_side else 0.0
    return sa, sb, turn_no, times[a_side], times[1 - a_side]


def matches(games: int, jobs: int, board_id: str, pairings: list[tuple[str, str]]) -> None:
    for a, b_level in pairings:
        t0 = time.perf_counter()
        work = [(i, a, b_level, board_id) for i in range(games)]
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(one_game, work))
        sa = sum(r[0] for r in results)
        sb = sum(r[1] for r in results)
        ta = [t for r in results for t in r[3]]
        tb = [t for r in results for t in r[4]]
        plies = statistics.mean(r[2] for r in results)
        print(
            f"{a} vs {b_level} ({board_id}, {games} games, colours alternated): "
            f"{sa:g} - {sb:g}; {plies:.0f} turns/game; "
            f"{a} {statistics.mean(ta) * 1000:.0f} ms mean / {max(ta) * 1000:.0f} ms worst CPU "
            f"per decision, {b_level} {statistics.mean(tb) * 1000:.0f} / {max(tb) * 1000:.0f} ms; "
            f"{time.perf_counter() - t0:.0f} s",
            flush=True,
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--board", choices=BOARD_IDS, default="6x4")
    ap.add_argument("--speed-only", action="store_true")
    ap.add_argument("--no-speed", action="store_true")
    ap.add_argument(
        "--pairs",
        default=",".join(f"{a}-{b}" for a, b in PAIRINGS),
        help="comma-separated level pairings, e.g. hard-medium,easy-random",
    )
    args = ap.parse_args()
    pairings = [(p.split("-")[0], p.split("-")[1]) for p in args.pairs.split(",") if p]
    if not args.no_speed:
        speed()
    if not args.speed_only:
        matches(args.games, args.jobs, args.board, pairings)


if __name__ == "__main__":
    main()
