"""The rules core stays pure: nothing under bot/engine or bot/games imports discord or aiosqlite."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = {"discord", "aiosqlite"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_engine_and_games_do_not_import_discord_or_aiosqlite() -> None:
    files = list((ROOT / "bot" / "engine").rglob("*.py")) + list(
        (ROOT / "bot" / "games").rglob("*.py")
    )
    assert files
    offenders = {str(p.relative_to(ROOT)): sorted(_imports(p) & FORBIDDEN) for p in files}
    assert {k: v for k, v in offenders.items() if v} == {}
