"""Kill the bot (SIGKILL of a real process on a real SQLite file) at random points of whole
matches of every game; the channel must converge to what an uninterrupted run shows, and
the posted final log must verify (issue 10 item 6).

Each game is played once without a kill (the reference), then again on fresh files,
killed at ``ARENA_KILLS`` (default 3) random hooks -- before or after a store commit,
a post or an edit -- and restarted each time, until it finishes. Seeds are fixed, so a
failure replays: the kill points are printed.
"""

from __future__ import annotations

import base64
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.cli.verify import check_dice, check_replay, check_text
from bot.engine.log import parse_log
from bot.engine.registry import discovered_games
from tests.crash.runner import channel_state
from tests.support.postgres import PgServer

ROOT = Path(__file__).resolve().parents[2]
KILLS = int(os.environ.get("ARENA_KILLS", "3"))


def cases() -> list[tuple[str, str]]:
    return [(g.info.id, g.info.modes[0].id) for g in discovered_games()]


def run(
    db: Path | str, channel: Path, game: str, mode: str, kill_at: int
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "tests.crash.runner",
            str(db),
            str(channel),
            game,
            mode,
            str(kill_at),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def hooks(done: subprocess.CompletedProcess[str]) -> int:
    assert done.returncode == 0, done.stderr[-3000:]
    line = [x for x in done.stdout.splitlines() if x.startswith("hooks=")][-1]
    return int(line.split("=")[1])


def final_log(shown: list[tuple[int, dict[str, Any]]]) -> dict[str, Any]:
    logs = [f for _, m in shown for f in m["files"] if f["filename"].endswith("-log.md")]
    assert len(logs) == 1, [f["filename"] for f in logs]
    text = base64.b64decode(logs[0]["data"]).decode()
    data = parse_log(text)
    assert check_text(text, data)[0], check_text(text, data)
    return data


@pytest.mark.parametrize(("game", "mode"), cases())
def test_killed_at_random_points_the_channel_converges(
    tmp_path: Path, game: str, mode: str
) -> None:
    converges(tmp_path, tmp_path / "ref.sqlite3", tmp_path / "k.sqlite3", game, mode)


def test_killed_on_postgres_the_channel_converges(tmp_path: Path, pg_server: PgServer) -> None:
    """The same on PostgreSQL (one game: the database, not the game, is under test)."""
    game, mode = next((g, m) for g, m in cases() if g == "arena")
    kill_count = min(KILLS, 2)  # each kill is a process start: keep the added time small
    converges(tmp_path, pg_server.new_schema(), pg_server.new_schema(), game, mode, kill_count)


def converges(
    tmp_path: Path,
    ref_db: Path | str,
    db: Path | str,
    game: str,
    mode: str,
    kill_count: int = KILLS,
) -> None:
    ref_channel = tmp_path / "ref.jsonl"
    total = hooks(run(ref_db, ref_channel, game, mode, 0))
    reference = channel_state(ref_channel)
    data = final_log(reference)
    assert check_dice(data)[0] and check_replay(data)[0], (check_dice(data), check_replay(data))

    rng = random.Random(f"{game}/{mode}")
    channel = tmp_path / "k.jsonl"
    kills: list[int] = []
    left = total
    for _ in range(kill_count):
        at = rng.randint(1, max(1, left))
        done = run(db, channel, game, mode, at)
        kills.append(at)
        if done.returncode == 0:
            break  # finished before that hook
        assert done.returncode == -9, (kills, done.stderr[-3000:])
        left = max(1, left - at)
    hooks(run(db, channel, game, mode, 0))  # the last restart, to the end
    shown = channel_state(channel)
    assert [i for i, _ in shown] == [i for i, _ in reference], f"kills at {kills}"
    for (i, got), (_, want) in zip(shown, reference, strict=True):
        assert got == want, f"message {i} differs after kills at {kills}"
    data = final_log(shown)
    assert check_dice(data)[0] and check_replay(data)[0], kills
