"""Memory per live match and the cost of a move's state copy, per game (issue 16 item 5).

    python bench/bench_memory.py                        # every game, 40 matches each
    python bench/bench_memory.py --games ultimate-warriorz madsteam --matches 80

For each game, ``--matches`` matches (AI seats at the easy level, stopped after a
varying number of moves so every phase is sampled) are dumped to JSON the way the
store keeps them, then reloaded with ``Match.from_snapshot`` under tracemalloc:
the bytes a reloaded match holds, what is shared between matches counted once
(the same method as ``memory_per_match`` in ``bench_load.py``, without the bot).
Then the CPU cost of ``Game.copy`` (what every apply pays before mutating) and of
a whole ``Match.apply`` (check, copy, rules, pending) over the same states.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import Match, SeatSpec  # noqa: E402
from bot.engine.registry import get_game  # noqa: E402

GAMES = ["ultimate-warriorz", "madsteam", "mad-arena", "mad", "arena"]
PLAYERS = {"ultimate-warriorz": 4, "madsteam": 4, "mad-arena": 4, "mad": 2, "arena": 4}


def snapshots(game: str, count: int) -> list[dict[str, Any]]:
    """``count`` JSON snapshots of matches stopped after 5 to ~100 moves."""
    out = []
    seats = [SeatSpec(name="Ann", user_id=1)] + [
        SeatSpec(name=f"Robot {k}", ai=True, ai_level="easy")
        for k in range(1, PLAYERS.get(game, 4))
    ]
    for i in range(count):
        m = Match.create(game, seats, seed=f"mem-{game}-{i}")
        for _ in range(5 + (i * 7) % 100):
            if m.over:
                break
            m.apply(m.ai_choice(m.pending()[0]))
        out.append(json.loads(json.dumps(m.snapshot())))
    return out


def memory_per_match(snaps: list[dict[str, Any]]) -> float:
    """Bytes each reloaded match holds (its snapshot dropped, as the live bot keeps it)."""
    texts = [json.dumps(s) for s in snaps]
    Match.from_snapshot(json.loads(texts[0]))  # warm caches: the shipped data file, imports
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    live = [Match.from_snapshot(json.loads(t)) for t in texts]
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert len(live) == len(snaps)
    return (after - before) / len(snaps)


def copy_cost(snaps: list[dict[str, Any]], repeat: int) -> tuple[float, float]:
    """Mean microseconds of ``Game.copy`` and of ``Match.apply`` of the AI's choice."""
    matches = [Match.from_snapshot(s) for s in snaps]
    matches = [m for m in matches if not m.over]
    game = matches[0].game
    t0 = time.process_time()
    for _ in range(repeat):
        for m in matches:
            game.copy(m.state)
    copy_us = (time.process_time() - t0) / (repeat * len(matches)) * 1e6
    choices = [m.ai_choice(m.pending()[0]) for m in matches]
    times = []
    for m, c in zip(matches, choices, strict=True):
        snap = m.snapshot()
        for _ in range(repeat):
            fresh = Match.from_snapshot(snap)
            t = time.process_time()
            fresh.apply(c)
            times.append(time.process_time() - t)
    return copy_us, statistics.fmean(times) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", nargs="*", default=GAMES)
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print("| game | kB per live match | copy µs | apply µs |")
    print("|---|---:|---:|---:|")
    for game in args.games:
        get_game(game)
        snaps = snapshots(game, args.matches)
        kb = memory_per_match(snaps) / 1000
        copy_us, apply_us = copy_cost(snaps, args.repeat)
        print(f"| {game} | {kb:.0f} | {copy_us:.0f} | {apply_us:.0f} |", flush=True)


if __name__ == "__main__":
    main()
