"""MAD's compiled search (``bot/games/mad/native.py``, built by ``setup.py``) is the source's twin.

The AI levels must play the same moves for the same seed whichever runs (issue 16 item 2),
so the twin in use is compared with ``search.py`` interpreted on positions met along
random games of both boards: same turn, score, finished depth and node count, at
``medium``'s settings, at node budgets that stop mid-depth, and at ``hard``'s.
"""

from __future__ import annotations

import random
from pathlib import Path
from types import ModuleType

import pytest

from bot.games.mad import ai, native
from bot.games.mad.core import BOARD_IDS, board
from tests.support.compiler import c_compiler_here

from .test_ai_search import random_positions


@pytest.fixture(scope="module")
def source() -> ModuleType:
    return native.load_source("mad_search_interpreted")


def test_the_twin_is_built_where_a_compiler_is() -> None:
    """``pip install`` builds it wherever a C compiler is found (the CI machine has one)."""
    if not c_compiler_here():
        assert not native.compiled()
    else:
        assert native.compiled(), "reinstall (`pip install -e .`) to build the twin"


def results(
    module: ModuleType,
    board_id: str,
    nodes: int,
    depth: int,
    seed: int,
    count: int = 6,
    native: bool = False,
) -> list[object]:
    """(turn, score, finished depth, nodes) of ``module``'s search on ``count`` positions
    (below the root in Python, ``module``'s own code, unless ``native``: the C core)."""
    b = board(board_id)
    out: list[object] = []
    for i, (pos, side, pos_turn) in enumerate(random_positions(board_id, count, seed)):
        res = module.search(
            b,
            pos,
            side,
            turn_no=0 if pos_turn else 10 + i,
            positioning=pos_turn,
            time_budget=None,
            node_budget=nodes,
            max_depth=depth,
            rnd=random.Random(f"{seed}:{i}"),
            streak=i * 7 % 40,
            last_expeller=None if i % 3 == 0 else i % 2,
            native=native,
        )
        out.append((res.turn, res.score, res.depth, res.nodes))
    return out


@pytest.mark.parametrize("board_id", BOARD_IDS)
@pytest.mark.parametrize(
    ("nodes", "depth"), [(ai.MEDIUM_NODES, ai.MEDIUM_DEPTH), (3_000, 40), (25_000, 40)]
)
def test_the_twin_searches_as_the_source(
    source: ModuleType, board_id: str, nodes: int, depth: int
) -> None:
    if not native.compiled():
        pytest.skip("no compiled twin on this machine: the source runs, nothing to compare")
    from bot.games.mad import search

    assert results(search, board_id, nodes, depth, 5) == results(source, board_id, nodes, depth, 5)


def test_hard_plays_the_same_turns_with_the_twin(source: ModuleType) -> None:
    if not native.compiled():
        pytest.skip("no compiled twin on this machine: the source runs, nothing to compare")
    from bot.games.mad import search

    for board_id in BOARD_IDS:
        b = board(board_id)
        pos, side, pos_turn = random_positions(board_id, 30, 9)[-1]
        picks = [
            module.search(
                b,
                pos,
                side,
                turn_no=12,
                positioning=pos_turn,
                time_budget=None,
                node_budget=ai.HARD_NODES,
                rnd=random.Random(3),
                native=False,
            ).turn
            for module in (search, source)
        ]
        assert picks[0] == picks[1]


def test_a_stale_or_missing_twin_is_not_used(tmp_path: Path) -> None:
    """A twin is current only with a stamp of the very ``search.py`` beside it."""
    src = native.HERE / "search.py"
    (tmp_path / "search.py").write_bytes(src.read_bytes())
    assert not native.twin_is_current(tmp_path)  # no twin at all
    (tmp_path / f"search{native.importlib.machinery.EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    assert not native.twin_is_current(tmp_path)  # a twin without its stamp
    (tmp_path / native.STAMP_NAME).write_text(native.digest(src) + "\n")
    assert native.twin_is_current(tmp_path)
    (tmp_path / "search.py").write_bytes(src.read_bytes() + b"\n# edited\n")
    assert not native.twin_is_current(tmp_path)  # the source changed since the build
