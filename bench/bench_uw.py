"""Ultimate Warriorz AI benchmark: one AI fighter against random-legal players.

    python bench/bench_uw.py                 # 200 matches per level, 4 players
    python bench/bench_uw.py --games 40 --players 5

Seat 0 plays the AI level under test, every other seat answers a uniformly random
legal option (random allocations for the strike, random dice for the charm). The
figure is seat 0's win rate (a shared win counts as a share), against the 1/N a
random player would get. Every match is deterministic for its seed.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import Choice, Match, SeatSpec  # noqa: E402
from bot.engine.decisions import Allocation, Decision, Many, One, Order  # noqa: E402


def random_choice(d: Decision, rnd: random.Random) -> Choice:
    ids = [o.id for o in d.options]
    if isinstance(d.ask, One):
        return Choice(seat=d.seat, key=d.key, option=rnd.choice(ids))
    if isinstance(d.ask, Many):
        hi = len(ids) if d.ask.max is None else min(len(ids), d.ask.max)
        return Choice(seat=d.seat, key=d.key, options=rnd.sample(ids, rnd.randint(d.ask.min, hi)))
    if isinstance(d.ask, Order):
        rnd.shuffle(ids)
        return Choice(seat=d.seat, key=d.key, options=ids)
    assert isinstance(d.ask, Allocation)
    return Choice(seat=d.seat, key=d.key, amounts={q.id: 0 for q in d.ask.quantities})


def one_match(index: int, level: str, players: int) -> float:
    seats = [SeatSpec(name="ai", ai=True, ai_level=level)] + [
        SeatSpec(name=f"random-{i}", ai=True, ai_level="random") for i in range(1, players)
    ]
    m = Match.create("ultimate-warriorz", seats, f"bench-uw-{level}-{players}-{index}")
    rnd = random.Random(index)
    while not m.over:
        d = m.pending()[0]
        m.apply(m.ai_choice(d) if d.seat == 0 else random_choice(d, rnd))
    out = m.outcome()
    assert out is not None
    return 1.0 / len(out.winners) if 0 in out.winners else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    print(f"Ultimate Warriorz, {args.players} players, {args.games} matches per level")
    print(f"a random-legal player wins {1 / args.players:.0%} on average")
    for level in ("hard", "easy"):
        score = sum(one_match(i, level, args.players) for i in range(args.games))
        print(f"{level:>5}: wins {score / args.games:.0%} ({score:g}/{args.games})")


if __name__ == "__main__":
    main()
