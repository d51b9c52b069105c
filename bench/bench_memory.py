"""Memory per live match and the cost of a move's state copy, per game (issue 16 item 5).

    python bench/bench_memory.py                        # every game, 40 matches each
    python bench/bench_memory.py --games ultimate-warriorz madsteam --matches 80

For each game, ``--matches`` matches (AI seats at the easy level, stopped after a
varying number of moves so every phase is sampled) are dumped to JSON the way the
store keeps them, then reloaded with ``Match.from_snapshot`` under tracemalloc:
the bytes a reloaded match holds, what is shared between matches counted once
(the same method as ``memory_per_match`` in ``bench_load.py``, without the bot).
Then the cost of ``Game.copy`` (what every apply pays before mutating), next to a
plain deep copy (what Ultimate Warriorz and Madsteam did before), and of a whole
``Match.apply`` (check, copy, rules, pending) over the same states; wall-clock time,
best of ``--repeat`` rounds for the copies, so a busy machine skews them less.
"""

from __future__ import annotations

import argparse
import copy
import gc
import json
import math
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


def copy_cost(snaps: list[dict[str, Any]], repeat: int) -> tuple[float, float, float]:
    """Microseconds per state of ``Game.copy``, of a plain ``copy.deepcopy`` (what the
    games did before issue 16, the data file kept out), and of a whole ``Match.apply``
    of the AI's choice. Copies: the best of ``repeat`` rounds, the two interleaved."""
    matches = [Match.from_snapshot(s) for s in snaps]
    matches = [m for m in matches if not m.over]
    game = matches[0].game
    data = {"ultimate-warriorz": "cards", "madsteam": "data", "mad-arena": "cards"}.get(
        game.info.id
    )

    def deep(state: Any) -> Any:
        kept = getattr(state, data) if data else None
        return copy.deepcopy(state, {id(kept): kept} if data else None)

    best = {"copy": math.inf, "deepcopy": math.inf}
    for _ in range(repeat):
        for name, fn in (("copy", game.copy), ("deepcopy", deep)):
            t0 = time.perf_counter()
            for m in matches:
                fn(m.state)
            best[name] = min(best[name], time.perf_counter() - t0)
    choices = [m.ai_choice(m.pending()[0]) for m in matches]
    times = []
    for m, c in zip(matches, choices, strict=True):
        snap = m.snapshot()
        for _ in range(repeat):
            fresh = Match.from_snapshot(snap)
            t = time.perf_counter()
            fresh.apply(c)
            times.append(time.perf_counter() - t)
    per = 1e6 / len(matches)
    return best["copy"] * per, best["deepcopy"] * per, statistics.median(times) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", nargs="*", default=GAMES)
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    print("| game | kB per live match | Game.copy µs | deepcopy µs | apply µs (median) |")
    print("|---|---:|---:|---:|---:|")
    for game in args.games:
        get_game(game)
        snaps = snapshots(game, args.matches)
        kb = memory_per_match(snaps) / 1000
        copy_us, deep_us, apply_us = copy_cost(snaps, args.repeat)
        print(f"| {game} | {kb:.0f} | {copy_us:.0f} | {deep_us:.0f} | {apply_us:.0f} |", flush=True)


if __name__ == "__main__":
    main()
