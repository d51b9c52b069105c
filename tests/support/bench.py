"""The benchmarks under ``bench/``, loaded by the tests that run them small."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[2] / "bench"


def load_bench(file: str, name: str) -> ModuleType:
    """``bench/<file>`` as module ``name``, registered in ``sys.modules`` as an import
    would (its dataclasses and the worker processes it starts look their module up)."""
    spec = importlib.util.spec_from_file_location(name, BENCH / file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
