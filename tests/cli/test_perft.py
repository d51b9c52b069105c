"""``python -m bot perft GAME ...`` hands the remaining words to the game's perft."""

from __future__ import annotations

import sys
import types
from typing import Any

import pytest


def test_dispatches_the_remaining_words(cli: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[list[str]] = []
    module = types.ModuleType("bot.games.zz_fake.perft")

    def main(argv: list[str]) -> int:
        seen.append(argv)
        return 3

    module.main = main  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bot.games.zz_fake.perft", module)
    run = cli("perft", "zz_fake", "--depth", "2", "--fen", "x y")
    assert run.code == 3
    assert seen == [["--depth", "2", "--fen", "x y"]]


def test_the_games_own_usage_exit_is_returned(cli: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType("bot.games.zz_fake.perft")

    def main(argv: list[str]) -> int:
        raise SystemExit(2)

    module.main = main  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bot.games.zz_fake.perft", module)
    assert cli("perft", "zz_fake", "--bad").code == 2


def test_missing_game_or_perft_is_a_message(cli: Any) -> None:
    run = cli("perft", "no_such_game", "3")
    assert run.code == 2 and "no perft" in run.err.lower()
    run = cli("perft")
    assert run.code == 2 and "Usage" in run.err
