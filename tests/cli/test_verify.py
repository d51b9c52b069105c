"""``python -m bot verify``: rolls recomputed from the seed and decisions replayed.

Each tampering below is caught by at least one of the two checks; dropping a
roll from the log passes the seed check alone, which is why the replay exists.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.cli.verify import verify_stored
from bot.engine import Match, SeatSpec
from bot.engine.autoplay import play_out
from bot.engine.log import log_json, markdown_log, parse_log, verify_log

SEATS = [SeatSpec(name="Ann", ai=True), SeatSpec(name="Bob", ai=True)]


def finished(seed: str = "v1") -> Match:
    return play_out(Match.create("test-pick", SEATS, seed))


def write_json(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def first_roll(data: dict[str, Any]) -> dict[str, Any]:
    return next(e for e in data["events"] if e["kind"] == "roll")


def test_simulated_log_verifies(cli: Any, tmp_path: Path) -> None:
    assert (
        cli("simulate", "--game", "test-pick-img", "--seed", "3", "--out", str(tmp_path)).code == 0
    )
    run = cli("verify", str(tmp_path / "log.md"))
    assert run.code == 0
    assert "Dice: OK: all" in run.out and "Replay: OK" in run.out and "VERIFIED" in run.out


def test_markdown_and_json_logs_verify(cli: Any, tmp_path: Path) -> None:
    match = finished()
    md = tmp_path / "m.md"
    md.write_text(markdown_log(match, "fr"), encoding="utf-8")
    assert cli("verify", str(md)).code == 0
    assert cli("verify", str(write_json(tmp_path / "m.json", log_json(match)))).code == 0


def test_a_changed_die_is_caught(cli: Any, tmp_path: Path) -> None:
    data = log_json(finished())
    roll = first_roll(data)
    roll["dice"][0] = roll["dice"][0] % 6 + 1
    run = cli("verify", str(write_json(tmp_path / "x.json", data)))
    assert run.code == 1
    assert "Dice: MISMATCH" in run.out and "Replay: MISMATCH" in run.out
    assert "NOT VERIFIED" in run.out


def test_a_dropped_roll_passes_the_seed_check_but_not_the_replay(cli: Any, tmp_path: Path) -> None:
    data = log_json(finished())
    data["events"].remove(first_roll(data))
    assert verify_log(data)[0]  # every remaining roll still matches the seed...
    run = cli("verify", str(write_json(tmp_path / "x.json", data)))
    assert run.code == 1 and "Replay: MISMATCH" in run.out  # ...but the replay makes one more


def test_a_changed_decision_is_caught(cli: Any, tmp_path: Path) -> None:
    data = log_json(finished())
    data["choices"][0]["option"] = "3" if data["choices"][0]["option"] != "3" else "1"
    run = cli("verify", str(write_json(tmp_path / "x.json", data)))
    assert run.code == 1 and "Replay: MISMATCH" in run.out


def test_a_changed_result_is_caught(cli: Any, tmp_path: Path) -> None:
    data = log_json(finished())
    data["outcome"]["winners"] = [1 - data["outcome"]["winners"][0]]
    run = cli("verify", str(write_json(tmp_path / "x.json", data)))
    assert run.code == 1 and "result differs" in run.out


def test_a_different_seed_breaks_the_commitment(cli: Any, tmp_path: Path) -> None:
    data = log_json(finished())
    data["seed"] = "other"
    run = cli("verify", str(write_json(tmp_path / "x.json", data)))
    assert run.code == 1 and "SHA-256" in run.out


def test_an_unfinished_match_is_not_verified(cli: Any, tmp_path: Path) -> None:
    match = Match.create("test-pick", SEATS, "v1")
    md = tmp_path / "live.md"
    md.write_text(markdown_log(match), encoding="utf-8")
    run = cli("verify", str(md))
    assert run.code == 1 and "not over" in run.out


def test_a_malformed_roll_is_reported(cli: Any, tmp_path: Path) -> None:
    data = log_json(finished())
    del first_roll(data)["dice"]
    run = cli("verify", str(write_json(tmp_path / "x.json", data)))
    assert run.code == 1 and "malformed" in run.out and "Traceback" not in run.err


def test_unknown_game_is_reported(cli: Any, tmp_path: Path) -> None:
    data = log_json(finished())
    data["game"] = "chess"
    run = cli("verify", str(write_json(tmp_path / "x.json", data)))
    assert run.code == 1 and "unknown game 'chess'" in run.out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "No log file"),
        ("# just notes\n", "not an Arena Master log"),
        ('{"game": "test-pick"}', "missing parts of a match log"),
        ("<!-- arena-master-log\n{broken\n-->", "not an Arena Master log"),
    ],
)
def test_unreadable_logs_are_a_message(
    cli: Any, tmp_path: Path, content: str | None, message: str
) -> None:
    path = tmp_path / "log.md"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    run = cli("verify", str(path))
    assert run.code == 2 and message in run.err and "Traceback" not in run.err


def test_usage_errors(cli: Any, tmp_path: Path) -> None:
    assert cli("verify").code == 2
    assert cli("verify", "x.md", "--db", "a.db", "--match", "1").code == 2
    assert cli("verify", "--db", str(tmp_path / "a.db")).code == 2
    run = cli("verify", "--db", str(tmp_path / "none.db"), "--match", "1")
    assert run.code == 2 and "No database file" in run.err
    assert not (tmp_path / "none.db").exists()


# --- stored matches ------------------------------------------------------------------


class FakeStore:
    """The two Store methods verify uses, over an in-memory match."""

    def __init__(self, match: Match, status: str = "finished", snapshot: Any = None) -> None:
        self.match = match
        self.record = SimpleNamespace(
            game=match.game_id,
            mode=match.mode,
            status=status,
            seed=match.seed,
            snapshot=json.loads(json.dumps(match.snapshot())) if snapshot is None else snapshot,
        )
        self.closed = False

    async def get(self, match_id: int) -> Any:
        return self.record if match_id == 5 else None

    async def replay_match(self, match_id: int) -> Match:
        return Match.replay(
            self.match.game_id, self.match.seats, self.match.seed, None, None, self.match.choices
        )

    async def close(self) -> None:
        self.closed = True


def verify_fake(tmp_path: Path, store: FakeStore, match_id: int = 5) -> int:
    db = tmp_path / "fake.db"
    db.write_bytes(b"")

    async def opener(path: str) -> FakeStore:
        return store

    code = asyncio.run(verify_stored(db, match_id, opener))
    assert store.closed
    return code


def test_stored_match_replays_to_its_snapshot(tmp_path: Path, capsys: Any) -> None:
    assert verify_fake(tmp_path, FakeStore(finished())) == 0
    assert "replay to the stored snapshot exactly" in capsys.readouterr().out


def test_stored_snapshot_that_differs_is_caught(tmp_path: Path, capsys: Any) -> None:
    match = finished()
    snapshot = json.loads(json.dumps(match.snapshot()))
    snapshot["state"]["score"][0] += 1
    assert verify_fake(tmp_path, FakeStore(match, snapshot=snapshot)) == 1
    assert "differs from the stored snapshot" in capsys.readouterr().out


def test_stored_live_match_is_not_verified(tmp_path: Path, capsys: Any) -> None:
    assert verify_fake(tmp_path, FakeStore(finished(), status="live")) == 1
    assert "seed is still secret" in capsys.readouterr().out


def test_stored_match_missing_is_a_message(tmp_path: Path) -> None:
    from bot.cli.errors import CliError

    with pytest.raises(CliError, match="no match 9"):
        verify_fake(tmp_path, FakeStore(finished()), match_id=9)


def test_real_store_end_to_end(cli: Any, tmp_path: Path) -> None:
    store_mod = pytest.importorskip("bot.store")
    db = tmp_path / "arena.db"

    async def record_a_match() -> int:
        store = await store_mod.Store.open(db)
        try:
            match = Match.create("test-pick", SEATS, "db-seed")
            match_id = await store.create_lobby(
                guild_id=1, channel_id=2, thread_id=None, host_id=3,
                game="test-pick", mode=match.mode, options={}, locale="en",
            )  # fmt: skip
            await store.start_match(match_id, match)
            while not match.over:
                choice = match.ai_choice(match.pending()[0])
                match.apply(choice)
                await store.commit_decision(match_id, choice, match, by_ai=True)
            return match_id
        finally:
            await store.close()

    match_id = asyncio.run(record_a_match())
    run = cli("verify", "--db", str(db), "--match", str(match_id))
    assert run.code == 0, run.out + run.err
    assert "VERIFIED" in run.out
    run = cli("verify", "--db", str(db), "--match", str(match_id + 1))
    assert run.code == 2 and f"no match {match_id + 1}" in run.err


def test_parse_log_reads_what_simulate_writes(cli: Any, tmp_path: Path) -> None:
    cli("simulate", "--game", "test-pick", "--seed", "p", "--out", str(tmp_path))
    data = parse_log((tmp_path / "log.md").read_text(encoding="utf-8"))
    assert data["seed"] == "p" and data["game"] == "test-pick"


# --- readable lines against the data block ----------------------------------------------

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "mad-arena-ultimate-warrior-5p-seed18.md"


def edited(tmp_path: Path, old: str, new: str) -> Path:
    text = GOLDEN.read_text(encoding="utf-8")
    head, block = text.split("<!-- arena-master-log", 1)
    assert head.count(old) >= 1
    path = tmp_path / "edited.md"
    path.write_text(head.replace(old, new, 1) + "<!-- arena-master-log" + block, encoding="utf-8")
    return path


def test_untouched_log_lines_verify(cli: Any) -> None:
    run = cli("verify", str(GOLDEN))
    assert run.code == 0 and "Text: OK: all" in run.out and "VERIFIED" in run.out


def test_a_roll_changed_in_a_readable_line_is_caught(cli: Any, tmp_path: Path) -> None:
    """The data block still holds [1, 3]: dice and replay pass, the line players read does not."""
    path = edited(tmp_path, "Agaric rolls [1, 3] for a ranged", "Agaric rolls [6, 3] for a ranged")
    run = cli("verify", str(path))
    assert run.code == 1 and "NOT VERIFIED" in run.out
    assert "Dice: OK" in run.out and "Replay: OK" in run.out
    assert "Text: MISMATCH: line 19 reads '- 🎲 Agaric rolls [6, 3]" in run.out
    assert "the data block says '- 🎲 Agaric rolls [1, 3]" in run.out


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "👣 Agaric moves to the centre.",
            "👣 Agaric moves to Baobab's zone.",
            'line 17 reads "- 👣 Agaric moves to Baobab\'s zone."',
        ),
        ("- 👣 Agaric moves to the centre.\n", "", "says '- 👣 Agaric moves to the centre.'"),
        ("- ✅ Agaric's action is over.\n", "", 'says "- ✅ Agaric\'s action is over."'),
        ("Winners: AI 5", "Winners: AI 1", "reads 'Winners: AI 1'"),
        ("Seed: `18`", "Seed: `19`", "line 5 reads 'Seed: `19`'"),
        ("## Log\n\n", "## Log\n\n- 🎲 Sorgho rolls [6, 6]  (#1,2)\n", "line 9 reads"),
        ("# Mad Arena — Ultimate Warrior", "# Arena! — Melee", "line 1 reads"),
        ("Winners: AI 5\n", "Winners: AI 5\n- a line of my own\n", "is not in the data"),
    ],
)
def test_an_event_line_changed_added_or_removed_is_caught(
    cli: Any, tmp_path: Path, old: str, new: str, message: str
) -> None:
    run = cli("verify", str(edited(tmp_path, old, new)))
    assert run.code == 1 and "Text: MISMATCH" in run.out and message in run.out, run.out


def test_readable_lines_of_a_french_log_are_checked(cli: Any, tmp_path: Path) -> None:
    match = finished()
    text = markdown_log(match, "fr")
    md = tmp_path / "m.md"
    md.write_text(text, encoding="utf-8")
    assert cli("verify", str(md)).code == 0
    line = next(x for x in text.splitlines() if x.startswith("- 🎲"))
    md.write_text(text.replace(line, line.replace("[", "[6, ", 1), 1), encoding="utf-8")
    run = cli("verify", str(md))
    assert run.code == 1 and "Text: MISMATCH" in run.out and "Dice: OK" in run.out
