"""The harness relies on discord.py internals: the installed version must be
the one pinned in pyproject.toml (issue 6: "Pin the discord.py version")."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import discord


def test_installed_discord_py_is_the_pinned_version() -> None:
    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    pins = [d for d in pyproject["project"]["dependencies"] if d.lower().startswith("discord.py")]
    assert len(pins) == 1, pins
    match = re.fullmatch(r"discord\.py==([\d.]+)", pins[0].replace(" ", ""))
    assert match, f"discord.py must be pinned exactly (==), found {pins[0]!r}"
    assert discord.__version__ == match.group(1)
