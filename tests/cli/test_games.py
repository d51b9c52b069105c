"""``python -m bot games`` lists every registered game."""

from __future__ import annotations

import json
from typing import Any

from bot.engine.registry import all_games


def test_lists_every_game_with_names_counts_and_modes(cli: Any) -> None:
    run = cli("games")
    assert run.code == 0
    for info in all_games():
        assert f"{info.id}: {info.names.fr} / {info.names.en}" in run.out
        for mode in info.modes:
            assert f"mode {mode.id}: {mode.names.fr} / {mode.names.en}" in run.out
    assert "test-pick-img: Test images / Image test (2-3 players)" in run.out
    assert "mode trio: Trio / Trio, players: 3" in run.out
    assert "option bonus (int, default 0)" in run.out


def test_json_listing(cli: Any) -> None:
    run = cli("games", "--json")
    games = {g["id"]: g for g in json.loads(run.out)}
    assert games["test-pick"]["modes"] == [
        {"id": "default", "names": {"fr": "Normal", "en": "Normal"}, "player_counts": [2, 3]}
    ]
    assert set(games) == {g.id for g in all_games()}
