"""Seeded AI matches of every registered game, sampled at their start, middle and end, for
the render measurements (``tests/render``) and ``bench/bench_render.py``.

Every mode is played with its smallest and largest player count; each sample keeps the
public view and one seat's view with the decision that seat is prompted for then (its
legal targets are marked), so a layout is measured where it is fullest.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pydantic import BaseModel

from bot.engine import Match, SeatSpec
from bot.engine.decisions import Choice, Decision
from bot.engine.game import Game
from bot.engine.registry import discovered_games

LAYOUTS: dict[str, list[dict[str, Any]]] = {"mad": [{"board": "5x5"}]}
"""Host options that change a picture's layout (MAD's 5x5 board), sampled too."""

MAX_DECISIONS = 4000
"""A sampled match stops there (an AI match of every game ends well before)."""


@dataclass(frozen=True)
class Sample:
    game_id: str
    label: str
    """Mode, players and moment, e.g. ``melee-6p-middle``."""
    view: BaseModel
    seat: int | None
    decision: Decision | None = None

    @property
    def name(self) -> str:
        who = "public" if self.seat is None else f"seat{self.seat + 1}"
        marks = "-marks" if self.decision is not None else ""
        return f"{self.game_id}-{self.label}-{who}{marks}"


def _level(game: Game[Any, Any]) -> str | None:
    """The quickest AI level (the samples need legal play, not strong play)."""
    ids = [lv.id for lv in game.info.ai_levels]
    return "easy" if "easy" in ids else (ids[0] if ids else None)


def _seats(game: Game[Any, Any], n: int) -> list[SeatSpec]:
    level = _level(game)
    return [SeatSpec(name=f"Player {k + 1}", ai=True, ai_level=level) for k in range(n)]


def _moment(match: Match, game_id: str, label: str) -> list[Sample]:
    out = [Sample(game_id, label, match.view(None), None)]
    pending = match.pending()
    if pending:
        d = max(pending, key=lambda x: len(x.options))
        out.append(Sample(game_id, label, match.view(d.seat), d.seat, d))
        out.append(Sample(game_id, label, match.view(d.seat), d.seat))
    else:
        out.append(Sample(game_id, label, match.view(0), 0))
    return out


def play_samples(
    game: Game[Any, Any],
    mode: str,
    players: int,
    seed: str,
    options: dict[str, Any] | None = None,
) -> list[Sample]:
    """Start, middle and end of one seeded AI match of ``game``."""
    gid = game.info.id
    seats = _seats(game, players)
    match = Match.create(gid, seats, seed, mode, options)
    if options:
        mode = mode + "-" + "-".join(str(v) for v in options.values())
    out = _moment(match, gid, f"{mode}-{players}p-start")
    choices: list[Choice] = []
    while not match.over and len(choices) < MAX_DECISIONS:
        choice = match.ai_choice(match.pending()[0])
        match.apply(choice)
        choices.append(choice)
    half = Match.replay(gid, seats, seed, match.mode, options, choices[: len(choices) // 2])
    out += _moment(half, gid, f"{mode}-{players}p-middle")
    out += _moment(match, gid, f"{mode}-{players}p-end")
    return out


@lru_cache(maxsize=1)
def all_samples() -> tuple[Sample, ...]:
    """Every game, every mode, its smallest and largest player count (fixed seeds)."""
    out: list[Sample] = []
    for game in discovered_games():
        for mode in game.info.modes:
            counts = sorted({min(mode.player_counts), max(mode.player_counts)})
            for n in counts:
                out += play_samples(game, mode.id, n, f"render-{game.info.id}-{mode.id}-{n}")
        for options in LAYOUTS.get(game.info.id, []):
            mode = game.info.modes[0]
            n = max(mode.player_counts)
            out += play_samples(game, mode.id, n, f"render-{game.info.id}-layout", options)
    return tuple(out)
