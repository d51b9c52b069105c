"""Mad Arena AI levels: strength, time per decision and wasted secret moves (issue 14).

    python bench/bench_mad_arena_ai.py               # 10 matches per setup and pairing
    python bench/bench_mad_arena_ai.py --per-setup 4 # a quicker, noisier run

A setup is a (mode, people) the game allows: Ultimate Warrior 4-7, Team Spirit
2 and 6, Brothers in arms 3, 4 and 6 (nine setups, 2 to 7 players). In a
pairing "A vs B" the seats alternate A and B, every other match the other way
round; A's score in a match is the part of the win its seats held, per seat
(1: only A seats won, 0.5: as many A as B winners), so 50% means even. "random"
answers a uniformly random legal option. Every match is deterministic for its
seed; the figures move a few points with the number of matches.

Wasted secret moves: a secret card revealed whose fighter ends its action
without the secret attack, among those chosen freely (the forced last card of
the first hand excluded), over every AI seat of every pairing and of the
self-play runs (each level against itself, all setups).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games.mad_arena.ai_levels import EASY, HARD, MEDIUM  # noqa: E402
from bot.games.mad_arena.ai_trials import (  # noqa: E402
    RANDOM,
    SETUPS,
    SecretTally,
    duel,
    play,
)

PAIRINGS = [
    (HARD, EASY),
    (MEDIUM, EASY),
    (HARD, MEDIUM),
    (HARD, RANDOM),
    (MEDIUM, RANDOM),
    (EASY, RANDOM),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--per-setup", type=int, default=10, help="matches per setup and pairing")
    parser.add_argument("--self-play", type=int, default=6, help="self-play matches per setup")
    args = parser.parse_args()
    n = args.per_setup
    times: dict[str, list[float]] = {HARD: [], MEDIUM: [], EASY: []}
    waste: dict[str, SecretTally] = {
        HARD: SecretTally(),
        MEDIUM: SecretTally(),
        EASY: SecretTally(),
    }
    started = time.perf_counter()
    print(f"Mad Arena AI, {n} matches per setup ({len(SETUPS)} setups) and pairing\n")
    print("| pairing | matches | score of the first | secret moves (free) | wasted (free) |")
    print("|---|---:|---:|---:|---:|")
    total = SecretTally()
    for a, b in PAIRINGS:
        d = duel(a, b, n, tag="-bench")
        w = d.secrets
        total.add(w)
        print(
            f"| {a} vs {b} | {d.matches} | {d.rate():.0%} | {w.played} ({w.free}) "
            f"| {w.free_wasted} = {w.waste_rate():.1%} |",
            flush=True,
        )
    print()
    for level in (HARD, MEDIUM, EASY):
        for mode, people in SETUPS:
            for i in range(args.self_play):
                r = play(f"self-{level}-{mode}-{people}-{i}", mode, [level] * people)
                times[level] += r.times
                waste[level].add(r.secrets)
    print("| level | decisions | mean ms | worst ms | secret moves (free) | wasted (free) |")
    print("|---|---:|---:|---:|---:|---:|")
    for level in (HARD, MEDIUM, EASY):
        ts = times[level]
        w = waste[level]
        print(
            f"| {level} | {len(ts)} | {statistics.mean(ts) * 1000:.1f} | {max(ts) * 1000:.0f} "
            f"| {w.played} ({w.free}) | {w.free_wasted} = {w.waste_rate():.1%} |"
        )
    for w in waste.values():
        total.add(w)
    print(
        f"\nAll AI seats: {total.free} secret moves chosen freely, {total.free_wasted} wasted "
        f"= {total.waste_rate():.1%}; forced last cards {total.forced}, {total.forced_wasted} wasted."
    )
    print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
