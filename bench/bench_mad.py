"""MAD AI benchmark: search speed (nodes/s) and the strongest level against the weaker ones.

    python bench/bench_mad.py                 # 100 games per pairing, colours alternated
    python bench/bench_mad.py --games 10      # quick look
    python bench/bench_mad.py --hard-nodes 60000 --jobs 2

Scores count 1 for a win by exiling the corvette and ½ for a tie-break
(half) victory, as the rules do. Every game is deterministic for its seed.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import Match, SeatSpec  # noqa: E402
from bot.engine.autoplay import play_out  # noqa: E402
from bot.games.mad import ai  # noqa: E402
from bot.games.mad.core import RED, board, successors  # noqa: E402


def speed(seconds: float, board_id: str) -> tuple[int, float, int]:
    """Nodes searched per second by the iterative-deepening search from a few positions."""
    b = board(board_id)
    positions = [b.start]
    pos, side = b.start, RED
    # A few quiet plies into the game, deterministic.
    for ply in range(6):
        kids = sorted(successors(b, pos, side, ply < 2))
        pos, side = kids[len(kids) // 3], 1 - side
    positions.append(pos)
    nodes = 0
    spent = 0.0
    depth = 0
    for p in positions:
        res = ai.search(b, p, RED if p == b.start else side, turn_no=2, time_budget=seconds)
        nodes += res.nodes
        spent += res.seconds
        depth = max(depth, res.depth)
    return nodes, nodes / spent, depth


def one_game(args: tuple[int, str, str, str, int]) -> tuple[float, float, int, str]:
    """Play one game; return (score of ``strong``, of ``weak``, turns, how it ended)."""
    index, strong, weak, board_id, hard_nodes = args
    ai.HARD_NODES = hard_nodes
    strong_red = index % 2 == 0
    levels = (strong, weak) if strong_red else (weak, strong)
    seats = [SeatSpec(name=f"{lv}-{i}", ai=True, ai_level=lv) for i, lv in enumerate(levels)]
    m = Match.create(
        "mad", seats, seed=f"bench-{board_id}-{strong}-{weak}-{index}", options={"board": board_id}
    )
    play_out(m, max_decisions=2000)
    out = m.outcome()
    assert out is not None
    strong_seat = 0 if strong_red else 1
    s = out.scores.get(strong_seat, 0.0)
    w = out.scores.get(1 - strong_seat, 0.0)
    return s, w, m.state.turn, m.state.result.kind if m.state.result else "?"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", type=int, default=100, help="games per pairing (default 100)")
    ap.add_argument("--board", choices=["6x4", "5x5"], default="6x4")
    ap.add_argument(
        "--hard-nodes", type=int, default=ai.HARD_NODES, help="node budget of the hard level"
    )
    ap.add_argument(
        "--speed-seconds", type=float, default=2.0, help="time budget of the speed test"
    )
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--against", nargs="+", default=["easy", "medium"])
    args = ap.parse_args(argv)

    nodes, nps, depth = speed(args.speed_seconds, args.board)
    print(
        f"search speed ({args.board}): {nps:,.0f} nodes/s ({nodes} nodes, depth {depth} within {args.speed_seconds} s)"
    )
    for weak in args.against:
        t0 = time.perf_counter()
        jobs = [(i, "hard", weak, args.board, args.hard_nodes) for i in range(args.games)]
        if args.jobs > 1:
            with ProcessPoolExecutor(args.jobs) as pool:
                results = list(pool.map(one_game, jobs))
        else:
            results = [one_game(j) for j in jobs]
        strong = sum(r[0] for r in results)
        weak_score = sum(r[1] for r in results)
        wins = sum(1 for r in results if r[0] == 1.0)
        halves = sum(1 for r in results if r[0] == 0.5)
        lost = sum(1 for r in results if r[1] == 1.0)
        half_lost = sum(1 for r in results if r[1] == 0.5)
        turns = sum(r[2] for r in results) / len(results)
        print(
            f"hard ({args.hard_nodes} nodes) vs {weak}: {len(results)} games, colours alternated: "
            f"hard {strong:g} - {weak_score:g} {weak}  "
            f"(hard: {wins} wins, {halves} half wins; {weak}: {lost} wins, {half_lost} half wins; "
            f"{turns:.0f} turns/game; "
            f"{time.perf_counter() - t0:.0f} s)",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
