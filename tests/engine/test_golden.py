"""Recorded match logs still replay and verify with today's code.

``tests/golden/*.md`` are matches recorded by earlier versions of the bot: the
Arena!, MAD and Mad Arena ones with the engine as it was before structured
decisions (log format 1, one option per choice, upgraded through each game's
``upgrade_choice``), the Ultimate Warriorz ones before its move onto the shared
fighters kit and the Madsteam ones after its rules audit (format 2). Each must recompute every die from the revealed seed and
replay its decisions to exactly the same rolls and result.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.verify import check_dice, check_replay, read_log

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
LOGS = sorted(GOLDEN.glob("*.md"))


def test_there_are_golden_logs_of_every_recorded_game() -> None:
    games = {read_log(p)["game"] for p in LOGS}
    assert {"arena", "mad", "mad-arena"} <= games


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_a_golden_log_replays_and_verifies(path: Path) -> None:
    data = read_log(path)
    if data["game"] in {"arena", "mad", "mad-arena"}:
        assert data.get("format", 1) == 1, "these were recorded before structured decisions"
    ok, message = check_dice(data)
    assert ok, message
    ok, message = check_replay(data)
    assert ok, message
