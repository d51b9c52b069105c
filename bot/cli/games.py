"""``python -m bot games``: what can be played, for whom, in which modes."""

from __future__ import annotations

import json

from bot.engine.game import GameInfo
from bot.engine.registry import all_games


def describe(info: GameInfo) -> list[str]:
    """Human-readable lines for one game: names, player counts, modes, options."""
    lines = [
        f"{info.id}: {info.names.fr} / {info.names.en} "
        f"({_range(info.min_players, info.max_players)} players)"
    ]
    for mode in info.modes:
        lines.append(
            f"  mode {mode.id}: {mode.names.fr} / {mode.names.en}, "
            f"players: {_counts(mode.player_counts)}"
        )
    for opt in info.options:
        lines.append(f"  option {opt.id} ({opt.type}, default {opt.default!r}): {opt.names.en}")
    return lines


def as_json(info: GameInfo) -> dict[str, object]:
    return {
        "id": info.id,
        "names": info.names.model_dump(),
        "min_players": info.min_players,
        "max_players": info.max_players,
        "modes": [
            {"id": m.id, "names": m.names.model_dump(), "player_counts": m.player_counts}
            for m in info.modes
        ],
        "options": [
            {"id": o.id, "type": o.type, "default": o.default, "names": o.names.model_dump()}
            for o in info.options
        ],
    }


def games_command(as_json_output: bool = False) -> int:
    games = sorted(all_games(), key=lambda g: g.id)
    if as_json_output:
        print(json.dumps([as_json(g) for g in games], ensure_ascii=False))
        return 0
    if not games:
        print("No game is installed yet.")
        return 0
    for info in games:
        print("\n".join(describe(info)))
    return 0


def _range(lo: int, hi: int) -> str:
    return str(lo) if lo == hi else f"{lo}-{hi}"


def _counts(counts: list[int]) -> str:
    if counts and counts == list(range(counts[0], counts[-1] + 1)) and len(counts) > 2:
        return f"{counts[0]}-{counts[-1]}"
    return ", ".join(map(str, counts))
