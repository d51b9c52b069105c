"""Games are discovered from bot/games: a package that registers is a game, with no list."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import bot.games
from bot.engine import registry

GAMES_DIR = Path(bot.games.__file__).parent


def test_every_package_under_bot_games_is_imported() -> None:
    on_disk = sorted(
        f"bot.games.{p.name}"
        for p in GAMES_DIR.iterdir()
        if (p / "__init__.py").is_file() and not p.name.startswith("_")
    )
    assert registry.game_packages() == on_disk
    found = {type(g).__module__.rsplit(".", 1)[0] for g in registry.discovered_games()}
    assert found <= set(on_disk)
    assert {"arena", "mad", "mad-arena"} <= {g.info.id for g in registry.discovered_games()}


def test_a_new_package_registers_by_existing_and_a_kit_adds_no_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "zz_new_game").mkdir()
    (tmp_path / "zz_new_game" / "__init__.py").write_text(
        "from bot.engine.registry import register\n"
        "from tests.engine.fixture_game import ShapesGame\n"
        "\n"
        "class NewGame(ShapesGame):\n"
        "    info = ShapesGame.info.model_copy(update={'id': 'zz-new'})\n\n"
        "register(NewGame())\n",
        encoding="utf-8",
    )
    (tmp_path / "zz_kit").mkdir()
    (tmp_path / "zz_kit" / "__init__.py").write_text('"""Shared parts, no game."""\n')
    monkeypatch.setattr(bot.games, "__path__", [*bot.games.__path__, str(tmp_path)])
    monkeypatch.setattr(registry, "_GAMES", dict(registry._GAMES))
    monkeypatch.setattr(registry, "_loaded", False)
    for name in ("bot.games.zz_new_game", "bot.games.zz_kit"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    try:
        assert {"bot.games.zz_new_game", "bot.games.zz_kit"} <= set(registry.game_packages())
        assert registry.get_game("zz-new").info.id == "zz-new"
        assert "zz-new" in [g.info.id for g in registry.discovered_games()]
        assert not any(
            type(g).__module__.startswith("bot.games.zz_kit") for g in registry.discovered_games()
        )
    finally:
        sys.modules.pop("bot.games.zz_new_game", None)
        sys.modules.pop("bot.games.zz_kit", None)


def test_an_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="known: .*arena"):
        registry.get_game("no-such-game")
