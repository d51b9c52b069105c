"""perft: golden numbers, cross-checked against an independent, naive reference generator.

The reference below is written straight from the rule book, sharing no code
with ``bot.games.mad.core``: ships are (side, code) names on (col, row)
squares; moves are walked path by path; rotations are "every ship of the
group changes place" (FAQ: all three move); the bonus is any teleport that
moves the ship which just arrived on its last row.
"""

from __future__ import annotations

import itertools
import random

import pytest

from bot.games.mad.core import KINDS, board, successors
from bot.games.mad.perft import main, perft

GOLDEN = {
    ("6x4", True): [9, 81, 1287, 20237, 374908],
    ("6x4", False): [15, 222, 3934, 68892, 1335682],
    ("5x5", True): [9, 81, 1587, 30969, 670528],
    ("5x5", False): [18, 323, 6475, 128862, 2836430],
}

# --- the reference generator -------------------------------------------------------------------

X = "exile"
COMPLEMENTS = [("111", "222"), ("112", "221"), ("121", "212"), ("211", "122")]
GROUPS = [("112", "121", "211"), ("122", "212", "221")]
SIZES = {"6x4": (4, 6), "5x5": (5, 5)}  # (columns, rows)

Ref = frozenset  # of (side, code, where)


def ref_start(board_id: str) -> dict[tuple[str, str], object]:
    printed = {
        "6x4": ["221 111 222 212", "121 122 211 112"],
        "5x5": ["221 111 211 222 212", "121 . 122 . 112"],
    }[board_id]
    cols, rows = SIZES[board_id]
    where: dict[tuple[str, str], object] = {}
    for r, line in enumerate(printed):
        for c, code in enumerate(line.split()):
            if code != ".":
                where[("R", code)] = (c, r)
                where[("B", code)] = (c, rows - 1 - r)
    return where


def ref_teleports(where: dict, side: str) -> list[dict]:
    out = []
    for a, b in COMPLEMENTS:
        pa, pb = where[(side, a)], where[(side, b)]
        if pa != X or pb != X:
            new = dict(where)
            new[(side, a)], new[(side, b)] = pb, pa
            out.append(new)
    for g in GROUPS:
        places = [where[(side, k)] for k in g]
        if places.count(X) > 1:
            continue
        for perm in itertools.permutations(places):
            if all(perm[i] != places[i] for i in range(3)):
                new = dict(where)
                for k, p in zip(g, perm, strict=True):
                    new[(side, k)] = p
                out.append(new)
    return out


def ref_walk(
    p: tuple[int, int],
    steps_left: int,
    prev: tuple[int, int] | None,
    start: tuple[int, int],
    code: str,
    enemy: str,
    at: dict,
    size: tuple[int, int],
    ends: set[tuple[int, int]],
) -> None:
    """Walk square by square: free squares go on, a weaker enemy ends the move."""
    cols, rows = size
    for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        q = (p[0] + dc, p[1] + dr)
        if not (0 <= q[0] < cols and 0 <= q[1] < rows) or q == prev or q == start:
            continue
        other = at.get(q)
        if other is None:
            ends.add(q)
            if steps_left > 1:
                ref_walk(q, steps_left - 1, p, start, code, enemy, at, size, ends)
        elif other[0] == enemy and int(other[1][2]) <= int(code[1]):
            ends.add(q)  # the expulsion ends the move


def ref_turns(board_id: str, where: dict, side: str, positioning: bool) -> list[dict]:
    if where[("R", "111")] == X or where[("B", "111")] == X:
        return []
    if positioning:
        return [dict(where), *ref_teleports(where, side)]
    cols, rows = SIZES[board_id]
    at = {p: s for s, p in where.items() if p != X}
    enemy = "B" if side == "R" else "R"
    last = rows - 1 if side == "R" else 0
    out = []
    for (sd, code), start in where.items():
        if sd != side or start == X:
            continue
        ends: set[tuple[int, int]] = set()
        ref_walk(start, int(code[0]), None, start, code, enemy, at, (cols, rows), ends)
        for q in ends:
            new = dict(where)
            victim = at.get(q)
            if victim is not None:
                new[victim] = X
            new[(side, code)] = q
            out.append(new)
            one_step = abs(q[0] - start[0]) + abs(q[1] - start[1]) == 1
            if q[1] == last and one_step and new[(enemy, "111")] != X:
                out.extend(t for t in ref_teleports(new, side) if t[(side, code)] != q)
    out.extend(ref_teleports(where, side))
    return out


def ref_perft(
    board_id: str, where: dict, side: str, depth: int, ply: int, positioning: bool
) -> int:
    if depth == 0:
        return 1
    kids = {
        frozenset(w.items()): w for w in ref_turns(board_id, where, side, positioning and ply < 2)
    }
    other = "B" if side == "R" else "R"
    return sum(
        ref_perft(board_id, w, other, depth - 1, ply + 1, positioning) for w in kids.values()
    )


def to_ref(board_id: str, pos: tuple[int, ...]) -> dict:
    b = board(board_id)
    return {
        ("R" if s < 8 else "B", KINDS[s & 7]): X if sq == -1 else (b.col(sq), b.row(sq))
        for s, sq in enumerate(pos)
    }


# --- tests -------------------------------------------------------------------------------------


@pytest.mark.parametrize("board_id,positioning", sorted(GOLDEN))
def test_golden_perft(board_id: str, positioning: bool) -> None:
    b = board(board_id)
    depth = 4
    got = [perft(b, d, positioning) for d in range(1, depth + 1)]
    assert got == GOLDEN[(board_id, positioning)][:depth]


def test_golden_perft_depth_5() -> None:
    assert perft(board("6x4"), 5, True) == GOLDEN[("6x4", True)][4]


@pytest.mark.parametrize("board_id,positioning", sorted(GOLDEN))
def test_reference_generator_agrees_from_start(board_id: str, positioning: bool) -> None:
    start = ref_start(board_id)
    assert start == to_ref(board_id, board(board_id).start)
    depth = 3
    want = GOLDEN[(board_id, positioning)][:depth]
    got = [ref_perft(board_id, start, "R", d, 0, positioning) for d in range(1, depth + 1)]
    assert got == want


@pytest.mark.parametrize("board_id", ["6x4", "5x5"])
def test_reference_generator_agrees_in_random_midgames(board_id: str) -> None:
    """Random playouts reach exiles, bonus squares and teleports with exiled ships."""
    rnd = random.Random(board_id)
    b = board(board_id)
    checked = 0
    for _ in range(40):
        pos, side = b.start, 0
        for ply in range(rnd.randint(4, 40)):
            kids = sorted(successors(b, pos, side, ply < 2))
            if not kids:
                break
            pos, side = rnd.choice(kids), 1 - side
        fast = {p for p in successors(b, pos, side, False)}
        ref = {
            frozenset(w.items())
            for w in ref_turns(board_id, to_ref(board_id, pos), "RB"[side], False)
        }
        assert {frozenset(to_ref(board_id, p).items()) for p in fast} == ref
        checked += 1
    assert checked == 40


def test_cli_prints_each_depth(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--board", "5x5", "--depth", "3", "--no-positioning"]) == 0
    out = capsys.readouterr().out
    assert "perft(1) = 18" in out and "perft(3) = 6475" in out


def test_cli_rejects_bad_arguments() -> None:
    with pytest.raises(SystemExit):
        main(["--board", "7x7"])


@pytest.mark.parametrize(
    "board_id,spec,side",
    [
        # red bonus: forward, lateral along row 6, after an expulsion, with exiled complements
        ("6x4", "R111@a1 B111@d6 R112@b5 R221@c6 R122@a2 R212@c2 B121@a6", 0),
        # blue bonus on row 1, a two-sail ship moving one square, a rotation with one exiled
        ("6x4", "R111@d6 B111@a6 B211@b2 B121@c1 B112@a3 R122@b1 R222@d1", 1),
        # the enemy corvette on the last row: its expulsion ends the match, no bonus
        ("5x5", "R111@a1 B111@c5 R221@c4 R112@b5 R212@e4 B222@d5", 0),
        # 5x5 blue, lateral moves on row 1 and an exiled cruiser (own-goal permutation)
        ("5x5", "R111@e5 B111@c1 B212@b1 B121@d2 B122@a4 R211@a1", 1),
    ],
)
def test_reference_generator_agrees_on_bonus_positions(board_id: str, spec: str, side: int) -> None:
    """Coup bonus corner cases, built by hand: the fast generator equals the reference."""
    from tests.games.mad.helpers import place

    pos = place(board_id, spec)
    b = board(board_id)
    fast = {frozenset(to_ref(board_id, p).items()) for p in successors(b, pos, side, False)}
    ref = {
        frozenset(w.items()) for w in ref_turns(board_id, to_ref(board_id, pos), "RB"[side], False)
    }
    assert fast == ref and len(fast) > 10
