"""The human move notation (documented in RULES.md) and its parser.

- displacement: ``b2-b4``; with an expulsion ``b2xb4``;
- permutation: ``112=221`` (the two complementary ships, either order);
- rotation: ``112>121>211``: 112 takes 121's place, 121 takes 211's place,
  211 takes 112's place (any starting ship of the same cycle is accepted);
- bonus move: the displacement, ``+``, the teleport: ``c5-c6+112=221``;
- positioning pass: ``pass`` (``passe``/``passer`` accepted).

The canonical text doubles as the option id (short ASCII, no ``:``).
"""

from __future__ import annotations

import re

from bot.games.mad.core import KINDS, MOVE, PASS, PERM, Board, Position, Turn

_CODE = re.compile(r"[12]{3}")
_SQUARE = re.compile(r"[a-f][1-9]")


def teleport_text(t: Turn) -> str:
    if t[0] == PERM:
        a, b = sorted((t[1], t[2]))
        return f"{KINDS[a & 7]}={KINDS[b & 7]}"
    return ">".join(KINDS[s & 7] for s in t[1:])


def turn_text(b: Board, pos: Position, t: Turn) -> str:
    """Canonical notation of turn ``t`` played from ``pos``."""
    if t[0] == PASS:
        return "pass"
    if t[0] == MOVE:
        _, ship, src, dst, bonus = t
        capture = dst in pos  # a ship stands there (an exiled one is on no square)
        s = f"{b.name(src)}{'x' if capture else '-'}{b.name(dst)}"
        if bonus is not None:
            s += "+" + teleport_text(bonus)
        return s
    return teleport_text(t)


def _teleport_key(text: str) -> tuple[str, ...] | None:
    codes = _CODE.findall(text)
    rest = _CODE.sub("", text)
    if len(codes) == 2 and set(rest) <= set("=<>-/ p"):
        return ("p", *sorted(codes))
    if len(codes) == 3 and len(set(codes)) == 3 and set(rest) <= set("> -/r,"):
        i = codes.index(min(codes))
        return ("r", *(codes[i:] + codes[:i]))
    return None


def key(text: str) -> tuple[tuple[str, ...], ...] | None:
    """A comparison key that ignores spacing, case and ``x`` versus ``-``."""
    t = text.strip().lower().replace("→", ">").replace("->", ">").replace("⇄", "=")
    t = re.sub(r"\s+", " ", t)
    if t in ("pass", "passe", "passer"):
        return (("pass",),)
    parts = [p.strip() for p in t.split("+")]
    if len(parts) > 2 or not parts[0]:
        return None
    head = parts[0]
    squares = _SQUARE.findall(head)
    if squares:
        if len(squares) != 2:
            return None
        rest = _SQUARE.sub("", head)
        codes = _CODE.findall(rest)
        rest = _CODE.sub("", rest)
        if len(codes) > 1 or not set(rest) <= set("-x> "):
            return None
        move: tuple[str, ...] = ("m", squares[0], squares[1], *codes)
        if len(parts) == 1:
            return (move,)
        tele = _teleport_key(parts[1])
        return None if tele is None else (move, tele)
    if len(parts) != 1:
        return None
    tele = _teleport_key(head)
    return None if tele is None else (tele,)


def turn_key(b: Board, pos: Position, t: Turn) -> tuple[tuple[str, ...], ...]:
    k = key(turn_text(b, pos, t))
    assert k is not None
    return k


def matches(b: Board, pos: Position, t: Turn, text: str) -> bool:
    """Whether typed ``text`` names turn ``t`` (an optional ship code may prefix a move)."""
    wanted = key(text)
    if wanted is None:
        return False
    mine = turn_key(b, pos, t)
    if wanted[0][0] == "m" and len(wanted[0]) == 4:
        if t[0] != MOVE or KINDS[t[1] & 7] != wanted[0][3]:
            return False
        wanted = (wanted[0][:3], *wanted[1:])
    return wanted == mine
