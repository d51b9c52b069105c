"""``python -m bot`` without a command: configuration checks before Discord."""

from __future__ import annotations

import os
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.cli.config import DEFAULT_DB_PATH, load_dotenv_file, read_config
from bot.cli.errors import CliError

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No bot settings in the environment, and a working directory without .env."""
    for key in ("DISCORD_TOKEN", "ARENA_DB_PATH", "DEV_GUILD_ID"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def fake_app(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """A stand-in ``bot.app`` recording how ``run_bot`` was called."""
    calls: list[tuple[Any, ...]] = []
    module = types.ModuleType("bot.app")

    def run_bot(token: str, db_path: str, dev_guild_id: int | None, **deploy: Any) -> None:
        calls.append((token, db_path, dev_guild_id))

    module.run_bot = run_bot  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bot.app", module)
    return calls


def test_missing_token_is_a_friendly_message() -> None:
    with pytest.raises(CliError) as err:
        read_config({})
    assert err.value.code == 2
    assert "cp .env.example .env" in err.value.message
    assert "discord.com/developers" in err.value.message


def test_blank_token_counts_as_missing() -> None:
    with pytest.raises(CliError):
        read_config({"DISCORD_TOKEN": "   "})


def test_defaults_and_values() -> None:
    cfg = read_config({"DISCORD_TOKEN": "abc"})
    assert (cfg.token, cfg.db_path, cfg.dev_guild_id) == ("abc", DEFAULT_DB_PATH, None)
    cfg = read_config({"DISCORD_TOKEN": "abc", "ARENA_DB_PATH": "/x/y.db", "DEV_GUILD_ID": " 42 "})
    assert (cfg.db_path, cfg.dev_guild_id) == ("/x/y.db", 42)
    assert read_config({"DISCORD_TOKEN": "abc", "ARENA_DB_PATH": ""}).db_path == DEFAULT_DB_PATH


@pytest.mark.parametrize("bad", ["my-server", "12.5", "0", "-3"])
def test_dev_guild_must_be_a_positive_integer(bad: str) -> None:
    with pytest.raises(CliError) as err:
        read_config({"DISCORD_TOKEN": "abc", "DEV_GUILD_ID": bad})
    assert "DEV_GUILD_ID" in err.value.message


def test_dotenv_is_read_but_the_environment_wins(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (clean_env / ".env").write_text("DISCORD_TOKEN=from-file\nDEV_GUILD_ID=77\n")
    monkeypatch.setenv("DEV_GUILD_ID", "88")
    load_dotenv_file()
    cfg = read_config()
    assert (cfg.token, cfg.dev_guild_id) == ("from-file", 88)
    monkeypatch.delenv("DISCORD_TOKEN")  # load_dotenv wrote it into os.environ


def test_no_token_exits_2_with_message(clean_env: Path, cli: Any) -> None:
    run = cli()
    assert run.code == 2
    assert "DISCORD_TOKEN" in run.err and ".env.example" in run.err
    assert "Traceback" not in run.err


def test_bad_guild_exits_2(clean_env: Path, cli: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "tok")
    monkeypatch.setenv("DEV_GUILD_ID", "abc")
    run = cli()
    assert run.code == 2 and "DEV_GUILD_ID" in run.err


def test_starts_the_app_with_the_config(
    clean_env: Path,
    cli: Any,
    fake_app: list[tuple[Any, ...]],
    monkeypatch: pytest.MonkeyPatch,
    restore_logging: None,
) -> None:
    (clean_env / ".env").write_text(
        "DISCORD_TOKEN=secret.token.value\nARENA_DB_PATH=db/a.db\nDEV_GUILD_ID=123\n"
    )
    try:
        run = cli()
    finally:
        for key in ("DISCORD_TOKEN", "ARENA_DB_PATH", "DEV_GUILD_ID"):
            monkeypatch.delenv(key, raising=False)
    assert run.code == 0
    assert fake_app == [("secret.token.value", "db/a.db", 123)]


def test_an_unknown_event_loop_is_a_message(
    clean_env: Path,
    cli: Any,
    fake_app: list[tuple[Any, ...]],
    monkeypatch: pytest.MonkeyPatch,
    restore_logging: None,
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "tok")
    monkeypatch.setenv("ARENA_EVENT_LOOP", "uv")
    run = cli()
    assert run.code != 0
    assert "ARENA_EVENT_LOOP must be one of uvloop, asyncio" in run.err
    assert "Traceback" not in run.err and fake_app == []


def test_missing_app_module_is_a_message(
    clean_env: Path, cli: Any, monkeypatch: pytest.MonkeyPatch, restore_logging: None
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "tok")
    monkeypatch.setitem(sys.modules, "bot.app", None)  # import bot.app -> ImportError
    run = cli()
    assert run.code == 2
    assert "Discord layer could not be loaded" in run.err and "Traceback" not in run.err


def test_rejected_token_is_a_message(
    clean_env: Path, cli: Any, monkeypatch: pytest.MonkeyPatch, restore_logging: None
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "tok")
    module = types.ModuleType("bot.app")

    def run_bot(token: str, db_path: str, dev_guild_id: int | None, **deploy: Any) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    module.run_bot = run_bot  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bot.app", module)
    run = cli()
    assert run.code == 2 and "Reset Token" in run.err


def test_unreachable_discord_is_a_message(
    clean_env: Path, cli: Any, monkeypatch: pytest.MonkeyPatch, restore_logging: None
) -> None:
    """No network (DNS failure, as aiohttp raises it): a message and exit 2, no traceback."""
    import aiohttp

    monkeypatch.setenv("DISCORD_TOKEN", "tok")
    module = types.ModuleType("bot.app")

    def run_bot(token: str, db_path: str, dev_guild_id: int | None, **deploy: Any) -> None:
        key = types.SimpleNamespace(host="discord.com", port=443, ssl=True)
        raise aiohttp.ClientConnectorError(key, OSError(-2, "Name or service not known"))  # type: ignore[arg-type]

    module.run_bot = run_bot  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bot.app", module)
    run = cli()
    assert run.code == 2 and "Could not reach Discord" in run.err
    assert "Traceback" not in run.err and "tok" not in run.err


def test_subprocess_without_token_prints_help_not_a_traceback(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DEV_GUILD_ID")}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert "DISCORD_TOKEN" in proc.stderr and "cp .env.example .env" in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
