"""mypy over ``bot`` and ``cogs`` is part of the test suite, so CI enforces the type hints.

The settings (Python 3.11, ``check_untyped_defs``, ``warn_unused_ignores``) are in
pyproject.toml's ``[tool.mypy]``, so running ``mypy`` by hand checks the same.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_is_clean() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "bot", "cogs"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
