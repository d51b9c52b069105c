"""Modes and seating (Modes 1-3, RULINGS "Modes and player counts").

A seat's fighters sit side by side in the ring; fighters are dealt at random
through the match RNG wherever the book leaves the assignment open.
"""

from __future__ import annotations

from bot.engine.dice import FairRng
from bot.engine.errors import IllegalDecision
from bot.engine.text import Text
from bot.games.mad_arena.cards import FIGHTERS

ULTIMATE = "ultimate-warrior"
TEAM = "team-spirit"
BROTHERS = "brothers-in-arms"

TEAM_SPIRIT_TEAMS = [["agaric", "cactus", "baobab"], ["bonzai", "sorgho", "burdock"]]
BROTHERS_PAIRS = [["agaric", "baobab"], ["bonzai", "burdock"], ["cactus", "sorgho"]]

PLAYER_COUNTS = {ULTIMATE: [4, 5, 6, 7], TEAM: [2, 6], BROTHERS: [3, 4, 6]}


def deal(mode: str, seats: int, rng: FairRng) -> tuple[list[list[str]], list[list[str]]]:
    """Fighters per seat and the teams, for ``seats`` people in ``mode``."""
    if seats not in PLAYER_COUNTS.get(mode, []):
        raise IllegalDecision(
            Text(
                fr=f"Ce mode ne se joue pas à {seats} joueurs.",
                en=f"This mode is not played by {seats} players.",
            )
        )
    if mode == ULTIMATE:
        order = rng.shuffle(list(FIGHTERS))
        per_seat = [[order[i]] for i in range(seats)]
        return per_seat, [list(s) for s in per_seat]
    groups = TEAM_SPIRIT_TEAMS if mode == TEAM else BROTHERS_PAIRS
    if seats == len(groups):
        # Each person runs one whole team / pair, drawn at random.
        drawn = rng.shuffle([list(g) for g in groups])
        return drawn, [list(g) for g in drawn]
    if mode == BROTHERS and seats == 4:
        chosen = rng.shuffle([list(g) for g in groups])[:2]
    else:
        chosen = [list(g) for g in groups]
    fighters = rng.shuffle([f for g in chosen for f in g])
    return [[f] for f in fighters], chosen
