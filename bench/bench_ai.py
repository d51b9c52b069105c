"""AI strength table for every registered game and every level it declares (issue 14 item 2).

    python bench/bench_ai.py                       # every game, about 30 s per pairing
    python bench/bench_ai.py --games mad arena     # some games
    python bench/bench_ai.py --quick               # a smoke run (a few matches)

For each game and level: the score against a random-legal player and against
the level below, over seeded matches (one seat plays the level, the others the
opponent; the tested seat moves round the table from one match to the next), in
the first mode at its smallest player count. Score = the tested seat's share of
the wins (a win shared by k seats counts 1/k, a half victory 3/4, nobody 0), with
its 95% Wilson interval and the share a coin would get (1/seats). Then the mean
and worst time per AI decision of the tested level. Every match is deterministic
for its seed; only the number of matches played within ``--seconds`` may vary.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.engine import Match, SeatSpec  # noqa: E402
from bot.engine.errors import IllegalDecision  # noqa: E402
from bot.engine.game import Game  # noqa: E402
from bot.engine.randomplay import random_choice  # noqa: E402
from bot.engine.registry import discovered_games  # noqa: E402

RANDOM = "random"
"""The random-legal player (not an AI level)."""
STRENGTH = {"easy": 0, "medium": 1, "hard": 2}
"""Known level ids from weakest to strongest; other ids keep their declared order after them."""
MAX_DECISIONS = 20_000


@dataclass
class Tally:
    matches: int = 0
    points: float = 0.0
    times: list[float] = field(default_factory=list)

    @property
    def score(self) -> float:
        return self.points / self.matches if self.matches else 0.0

    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of the score."""
        n = self.matches
        if not n:
            return (0.0, 1.0)
        z = 1.96
        p = self.score
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return (max(0.0, centre - half), min(1.0, centre + half))


def levels(game: Game[Any, Any]) -> list[str]:
    """The game's level ids from weakest to strongest."""
    declared = [lv.id for lv in game.info.ai_levels]
    return sorted(declared, key=lambda lv: (STRENGTH.get(lv, 99), declared.index(lv)))


def pairings(ids: list[str]) -> list[tuple[str, str]]:
    """Each level against random, then each level against the level below it."""
    out = [(lv, RANDOM) for lv in reversed(ids)]
    out += [(ids[i], ids[i - 1]) for i in range(len(ids) - 1, 0, -1)]
    return out


def play(game: Game[Any, Any], tested: str, other: str, index: int, tally: Tally) -> None:
    """One seeded match; adds the tested seat's points and its AI decision times to ``tally``."""
    mode = game.info.modes[0]
    n = min(mode.player_counts)
    seat_of_tested = index % n
    seats = []
    for i in range(n):
        level = tested if i == seat_of_tested else other
        ai = level != RANDOM
        seats.append(SeatSpec(name=f"Seat {i + 1}", ai=ai, ai_level=level if ai else None))
    seed = f"bench-ai-{game.info.id}-{tested}-{other}-{index}"
    m = Match.create(game.info.id, seats, seed, mode.id, {})
    rnd = random.Random(seed)
    for _ in range(MAX_DECISIONS):
        if m.over:
            break
        d = rnd.choice(m.pending())
        if seats[d.seat].ai:
            started = time.process_time()
            choice = m.ai_choice(d)
            if d.seat == seat_of_tested:
                tally.times.append(time.process_time() - started)
            m.apply(choice)
            continue
        answer = random_choice(d, rnd)
        if answer is not None:
            try:
                m.apply(answer)
                continue
            except IllegalDecision:
                pass  # an allocation the game refuses: the game's own AI answers instead
        m.apply(m.ai_choice(d))
    outcome = m.outcome()
    tally.matches += 1
    if outcome is None or seat_of_tested not in outcome.winners:
        return
    share = 1 / len(outcome.winners)
    tally.points += share * (0.75 if outcome.half else 1.0)


def run(game: Game[Any, Any], tested: str, other: str, matches: int, seconds: float) -> Tally:
    tally = Tally()
    started = time.monotonic()
    for index in range(matches):
        if index >= 2 and time.monotonic() - started > seconds:
            break
        play(game, tested, other, index, tally)
    return tally


def row(game: Game[Any, Any], tested: str, other: str, tally: Tally) -> str:
    low, high = tally.interval()
    n = min(game.info.modes[0].player_counts)
    ms = [1000 * t for t in tally.times] or [0.0]
    return (
        f"| {game.info.id} | {tested} vs {other} | {tally.matches} | {tally.score:.2f} "
        f"({low:.2f}-{high:.2f}) | {1 / n:.2f} | {statistics.mean(ms):.1f} | {max(ms):.0f} |"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", nargs="*", help="game ids (default: every game)")
    parser.add_argument("--matches", type=int, default=60, help="matches per pairing, at most")
    parser.add_argument("--seconds", type=float, default=30.0, help="time per pairing, at most")
    parser.add_argument("--quick", action="store_true", help="4 matches per pairing")
    args = parser.parse_args(argv)
    matches, seconds = (4, 5.0) if args.quick else (args.matches, args.seconds)
    games = [g for g in discovered_games() if not args.games or g.info.id in args.games]
    print(
        "| game | pairing | matches | score (95% interval) | coin | ms/decision mean | worst ms |"
    )
    print("|---|---|---|---|---|---|---|", flush=True)
    for game in games:
        ids = levels(game)
        for tested, other in pairings(ids):
            started = time.monotonic()
            tally = run(game, tested, other, matches, seconds)
            print(row(game, tested, other, tally), flush=True)
            print(f"<!-- {time.monotonic() - started:.0f} s -->", file=sys.stderr)


if __name__ == "__main__":
    main()
