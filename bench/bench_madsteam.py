"""Madsteam AI benchmark: each AI level against random-legal players.

    python bench/bench_madsteam.py               # 40 games per level, 2 and 4 players
    python bench/bench_madsteam.py --games 10

Seat 0 is the AI under test, the others answer uniformly random legal answers
(an allocation the game refuses falls back to the game's plain answer). Prints
the AI's mean survival points, the random players' mean and the AI's win rate
(shared wins count as a win). Every game is deterministic for its seed.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import Match, SeatSpec  # noqa: E402
from bot.engine.errors import IllegalDecision  # noqa: E402
from bot.engine.randomplay import random_choice  # noqa: E402


def one_game(level: str, players: int, index: int) -> tuple[float, float, bool]:
    seats = [SeatSpec(name="ai", ai=True, ai_level=level)] + [
        SeatSpec(name=f"random-{i}") for i in range(1, players)
    ]
    m = Match.create("madsteam", seats, seed=f"bench-{level}-{players}-{index}")
    rnd = random.Random(index)
    while not m.over:
        d = m.pending()[0]
        choice = m.ai_choice(d) if d.seat == 0 else random_choice(d, rnd)
        try:
            m.apply(choice if choice is not None else m.ai_choice(d))
        except IllegalDecision:
            m.apply(m.ai_choice(d))
    out = m.outcome()
    assert out is not None
    others = [out.scores[i] for i in range(1, players)]
    return out.scores[0], sum(others) / len(others), 0 in out.winners


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--players", type=int, nargs="+", default=[2, 4])
    ap.add_argument("--levels", nargs="+", default=["easy", "hard"])
    args = ap.parse_args(argv)
    for players in args.players:
        for level in args.levels:
            results = [one_game(level, players, i) for i in range(args.games)]
            ai = sum(r[0] for r in results) / len(results)
            rnd = sum(r[1] for r in results) / len(results)
            wins = sum(r[2] for r in results) / len(results)
            print(
                f"{players} players, AI {level:4} vs random: AI {ai:5.1f} SP, "
                f"random {rnd:5.1f} SP, AI wins {wins:4.0%} ({len(results)} games)"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
