"""Arena! AI benchmark: each level against a random-legal player and against the
levels below it, two-player matches, seats swapped every other match.

    python bench/bench_arena_ai.py                # 100 matches per pairing
    python bench/bench_arena_ai.py --games 40

Score = (wins + half the matches nobody won) / matches, from the first named
side: after round 10 with two survivors both lose. Also the mean and worst time
per AI answer, and the answers per AI turn (the clicks a player would make for
the same choices: posture, then a whole destination, with or without its
attack). Every match is deterministic for its seed (``bot/games/arena/ai_trials.py``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games.arena.ai_trials import RANDOM, duel  # noqa: E402

PAIRINGS = [
    ("hard", RANDOM),
    ("medium", RANDOM),
    ("easy", RANDOM),
    ("hard", "easy"),
    ("medium", "easy"),
    ("hard", "medium"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="matches per pairing")
    args = parser.parse_args()
    print(
        "| pairing | matches | W-L-nobody | score | ms/answer mean (worst) | answers/turn mean (max) |"
    )
    print("|---|---|---|---|---|---|")
    for first, second in PAIRINGS:
        started = time.perf_counter()
        t = duel(first, second, args.games, prefix=f"bench-{first}-{second}")
        ms = [1000 * x for x in t.times]
        print(
            f"| {first} vs {second} | {t.matches} | {t.wins}-{t.losses}-{t.draws} "
            f"| {t.score:.2f} | {statistics.mean(ms):.1f} ({max(ms):.0f}) "
            f"| {statistics.mean(t.answers_per_turn):.2f} ({max(t.answers_per_turn)}) |",
            flush=True,
        )
        print(f"<!-- {time.perf_counter() - started:.0f} s -->", file=sys.stderr)


if __name__ == "__main__":
    main()
