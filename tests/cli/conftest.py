"""Shared helpers: run the CLI in-process and capture what it prints."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

import tests.cli.fixture_images  # noqa: F401  (registers test-pick-img)
import tests.engine.fixture_game  # noqa: F401  (registers test-pick)
from bot.cli.main import main


@dataclass
class Run:
    code: int
    out: str
    err: str

    def last_json(self) -> dict[str, Any]:
        return json.loads(self.out.strip().splitlines()[-1])


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Any:
    def run(*argv: str) -> Run:
        capsys.readouterr()
        code = main(list(argv))
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return run


@pytest.fixture
def restore_logging() -> Iterator[None]:
    """Undo global logging changes (record factory, root filters) a test makes."""
    root = logging.getLogger()
    factory = logging.getLogRecordFactory()
    filters = list(root.filters)
    handlers = list(root.handlers)
    handler_filters = {h: list(h.filters) for h in handlers}
    level = root.level
    yield
    logging.setLogRecordFactory(factory)
    root.filters[:] = filters
    for h in list(root.handlers):
        if h not in handlers:
            root.removeHandler(h)
    for h, fs in handler_filters.items():
        h.filters[:] = fs
    root.setLevel(level)
