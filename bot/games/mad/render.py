"""The MAD board image: a pure function of the view (``view(state, seat)``) to PNG bytes.

Grid with coordinates (columns a-e, rows 1-6 from red's side at the bottom),
every ship a tile in its side's colour with its three numbers upright (so both
players read them), a small arrow on each tile pointing to its side's attack
direction, the corvettes ringed in gold, the exile zones beside the board
(blue's at the top, red's at the bottom, next to their home rows), and the last
turn marked: origin and arrival squares in yellow, teleported ships in cyan,
expelled ships crossed in red in their exile zone.

It reads the typed :class:`~bot.games.mad.view.MadView` only: whose turn it is,
the tie-break counter and who would win a tie-break are the rules' numbers.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.engine.decisions import Decision
from bot.games.mad.args import Displacement
from bot.games.mad.core import board
from bot.games.mad.view import MadView
from bot.render.common import (
    BG,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    centred_text,
    drawing_cache,
    font,
    png_bytes,
    put_text,
)
from bot.render.palette import opaque, palette_canvas, paste_piece

RED_FILL = (206, 52, 48)
BLUE_FILL = (46, 112, 214)
SIDE_FILL = {0: RED_FILL, 1: BLUE_FILL}
LIGHT_SQ = (72, 76, 88)
DARK_SQ = (58, 61, 71)
CYAN = (70, 210, 225)
GOLD = (245, 196, 40)
EXPEL = (255, 80, 70)

_SIDE = {0: ("Rouges", "Red", "rouge"), 1: ("Bleus", "Blue", "bleu")}


def _sq(name: str, cols: int) -> tuple[int, int]:
    """``b4`` -> (col, row) with row 0 at the bottom."""
    return "abcdef".index(name[0]), int(name[1:]) - 1


def _t(lang: str, fr: str, en: str) -> str:
    return fr if lang.startswith("fr") else en


TILE_MARGIN = 8
"""Room around a ship tile for its outer ring."""


def _ship(
    img: Image.Image,
    x: float,
    y: float,
    size: float,
    side: int,
    kind: str,
    *,
    ring: tuple[int, int, int] | None = None,
    dim: bool = False,
) -> None:
    """One ship tile pasted at (x, y) top-left (drawn once per look: see :func:`_ship_tile`)."""
    tile, mask = _ship_tile(int(size), side, kind, ring, dim)
    paste_piece(img, tile, (int(x) - TILE_MARGIN, int(y) - TILE_MARGIN), mask)


TILE_CLEAR = (255, 0, 255)
"""A ship tile's background, no colour of a ship: left out by the tile's mask."""


@drawing_cache
def _ship_tile(
    size: int, side: int, kind: str, ring: tuple[int, int, int] | None, dim: bool
) -> tuple[Image.Image, Image.Image]:
    """A ship's tile and the mask of its drawn pixels (what is pasted on the board)."""
    m = TILE_MARGIN
    tile, draw = palette_canvas(size + 2 * m, size + 2 * m, TILE_CLEAR)
    _draw_ship(draw, m, m, size, side, kind, ring=ring, dim=dim)
    return tile, opaque(tile, TILE_CLEAR)


def _draw_ship(
    d: ImageDraw.ImageDraw,
    x: float,
    y: float,
    size: float,
    side: int,
    kind: str,
    *,
    ring: tuple[int, int, int] | None = None,
    dim: bool = False,
) -> None:
    """One ship tile at (x, y) top-left: colour, digits, heading arrow, corvette ring."""
    fill = SIDE_FILL[side]
    if dim:
        fill = tuple(int(c * 0.55 + 30) for c in fill)  # type: ignore[assignment]
    r = size * 0.16
    d.rounded_rectangle(
        (x, y, x + size, y + size), radius=r, fill=fill, outline=(20, 20, 24), width=2
    )
    if kind == "111":
        d.rounded_rectangle(
            (x + 3, y + 3, x + size - 3, y + size - 3),
            radius=r,
            outline=GOLD,
            width=max(3, int(size / 22)),
        )
    # Heading: red attacks upwards, blue downwards.
    cx = x + size / 2
    a = size * 0.09
    if side == 0:
        tip = y + size * 0.08
        d.polygon([(cx, tip), (cx - a, tip + a), (cx + a, tip + a)], fill=(255, 235, 230))
    else:
        tip = y + size * 0.92
        d.polygon([(cx, tip), (cx - a, tip - a), (cx + a, tip - a)], fill=(230, 240, 255))
    # The three numbers, upright for both players, with M / A / D above them.
    fs = int(size * 0.34)
    ls = 28
    for i, ch in enumerate(kind):
        px = x + size * (0.22 + 0.28 * i)
        centred_text(d, (px, y + size * 0.64), ch, fs, (255, 255, 255), True)
        centred_text(
            d, (px, y + size * 0.32), "MAD"[i], ls, (255, 255, 255) if not dim else (200, 200, 200)
        )
    if ring is not None:
        d.rounded_rectangle(
            (x - 4, y - 4, x + size + 4, y + size + 4), radius=r + 3, outline=ring, width=5
        )


def _cross(d: ImageDraw.ImageDraw, x: float, y: float, size: float) -> None:
    """A red badge with a cross on the tile's corner: just expelled (the digits stay readable)."""
    r = size * 0.2
    cx, cy = x + size - r * 0.6, y + r * 0.6
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=EXPEL, outline=(255, 255, 255), width=2)
    a = r * 0.5
    w = max(3, int(size / 20))
    d.line((cx - a, cy - a, cx + a, cy + a), fill=(255, 255, 255), width=w)
    d.line((cx + a, cy - a, cx - a, cy + a), fill=(255, 255, 255), width=w)


def _tag(
    d: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    text: str,
    fill: tuple[int, int, int] = HIGHLIGHT,
    ink: tuple[int, int, int] = (20, 20, 20),
    size: int = 30,
) -> None:
    """``text`` bold on a rounded tag centred at (cx, cy)."""
    f = font(size, True)
    w = d.textlength(text, font=f) + 16
    h = size + 10
    d.rounded_rectangle(
        (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2),
        radius=9,
        fill=fill,
        outline=(20, 20, 24),
        width=2,
    )
    put_text(d, (cx, cy), text, size, ink, True, "mm")


def _arrow(d: ImageDraw.ImageDraw, path: list[tuple[float, float]], width: int) -> None:
    """The displacement's path, square centre to square centre (orthogonal legs only)."""
    d.line(path, fill=HIGHLIGHT, width=width, joint="curve")
    a = path[0]
    r = width * 1.3
    d.ellipse((a[0] - r, a[1] - r, a[0] + r, a[1] + r), fill=HIGHLIGHT)


class Marks:
    """What a private prompt marks: each displacement's destination square (named as on its
    buttons, ``111 b6 → b5``) and the ships that can move. Read from the options' typed
    :class:`Displacement` args; teleports and the tie-break have no square to mark."""

    def __init__(self, view: MadView, decision: Decision | None) -> None:
        self.squares: set[str] = set()
        self.ships: set[int] = set()
        if decision is None:
            return
        geometry = board(view.board)
        for o in decision.options:
            if isinstance(o.args, Displacement):
                self.squares.add(geometry.name(o.args.dst))
                self.ships.add(o.args.ship)


LABEL = 44
"""Width of the row numbers' column and height of the column letters' row."""
HEADER = 112
EXILE_GAP = 18
EXILE_TILE_H = 66


def render_board(view: MadView, lang: str = "en", decision: Decision | None = None) -> bytes:
    """PNG of the board, 1024 px wide: every text at 28 px or more (issue 11 item 5).

    The grid, the exile zones beside it and who is to move; the last move, the tie-break
    counter and an offer are in :func:`board_lines` (the message text)."""
    rows = view.rows
    cols = view.cols
    marks = Marks(view, decision)
    cell = cell_size(cols)
    board_w = cols * cell
    board_h = rows * cell
    zone_h = (board_h - 16) / 2
    ex = LABEL + board_w + EXILE_GAP
    width = 1024
    exile_w = width - 14 - ex
    height = HEADER + board_h + LABEL + 6
    img, d = palette_canvas(width, height, BG)
    bx, by = LABEL, HEADER

    last = view.last
    teleported = set(last.teleported) if last else set()
    expelled = set(last.expelled) if last else set()
    ships = view.ships

    # --- header: the board, the turn, who is to move (or the result) ------------------------
    title = f"MAD {view.board.replace('x', '×')}"
    put_text(d, (14, 30), title, 36, INK, True)
    turn_txt = _t(lang, f"Tour {view.turn_number}", f"Turn {view.turn_number}")
    put_text(d, (width - 14, 30), turn_txt, 30, MUTED, anchor="rm")
    result = view.result
    if result is None:
        side = view.to_move
        msg = (
            _t(lang, "Positionnement : ", "Positioning: ") if view.positioning_turn else ""
        ) + _t(lang, f"{_SIDE[side][0]} à jouer", f"{_SIDE[side][1]} to move")
        colour_ = SIDE_FILL[side]
        ink = INK
    else:
        side = result.winner
        half = result.half
        msg = _t(
            lang,
            f"{'Semi-victoire' if half else 'Victoire'} des {_SIDE[side][0].lower()}",
            f"{_SIDE[side][1]} {'half-' if half else ''}wins",
        )
        colour_ = SIDE_FILL[side]
        ink = HIGHLIGHT
    d.ellipse((16, 66, 48, 98), fill=colour_, outline=(20, 20, 24), width=2)
    put_text(d, (60, 82), msg, 32, ink, True)

    # --- grid ------------------------------------------------------------------------
    def xy(name: str) -> tuple[float, float]:
        c, r = _sq(name, cols)
        return bx + c * cell, by + (rows - 1 - r) * cell

    for r in range(rows):
        for c in range(cols):
            gx, gy = bx + c * cell, by + (rows - 1 - r) * cell
            d.rectangle((gx, gy, gx + cell, gy + cell), fill=LIGHT_SQ if (r + c) % 2 else DARK_SQ)
    # Each side's last row (where the bonus move lands), a thin line in that side's colour.
    d.line((bx, by + 3, bx + board_w, by + 3), fill=RED_FILL, width=6)
    d.line((bx, by + board_h - 3, bx + board_w, by + board_h - 3), fill=BLUE_FILL, width=6)
    d.rectangle((bx, by, bx + board_w, by + board_h), outline=(20, 20, 24), width=2)
    for c in range(cols):
        centred_text(
            d, (bx + c * cell + cell / 2, by + board_h + LABEL / 2), "abcdef"[c], 30, MUTED, True
        )
    for r in range(rows):
        centred_text(
            d, (LABEL / 2, by + (rows - 1 - r) * cell + cell / 2), str(r + 1), 30, MUTED, True
        )

    # --- last displacement -------------------------------------------------------------
    src, dst = (last.src, last.dst) if last else (None, None)
    if src:
        x, y = xy(src)
        d.rectangle(
            (x + 3, y + 3, x + cell - 3, y + cell - 3),
            fill=(110, 100, 50),
            outline=HIGHLIGHT,
            width=3,
        )
    for name in marks.squares:
        x, y = xy(name)
        d.rectangle((x + 3, y + 3, x + cell - 3, y + cell - 3), fill=(96, 86, 40))
    if last and src and dst:
        # Through the free intermediate square of a two-square move: never a diagonal.
        names = [src, *([last.via] if last.via else []), dst]
        path = [(x + cell / 2, y + cell / 2) for x, y in map(xy, names)]
        _arrow(d, path, 9)

    # --- ships on the board --------------------------------------------------------------
    pad = cell * 0.08
    for s in ships:
        if s.square is None:
            continue
        x, y = xy(s.square)
        ring = CYAN if s.id in teleported else (HIGHLIGHT if s.id in marks.ships else None)
        if s.square == dst:
            d.rectangle((x + 2, y + 2, x + cell - 2, y + cell - 2), outline=HIGHLIGHT, width=6)
        _ship(img, x + pad, y + pad, cell - 2 * pad, s.side, s.kind, ring=ring)

    # --- a prompt's destinations, named as on their buttons ---------------------------------
    occupied = {s.square for s in ships if s.square is not None}
    for name in sorted(marks.squares):
        x, y = xy(name)
        d.rectangle((x + 3, y + 3, x + cell - 3, y + cell - 3), outline=HIGHLIGHT, width=5)
        ty = y + cell * 0.2 if name in occupied else y + cell / 2
        _tag(d, x + cell / 2, ty, name, size=34)

    # --- exile zones ---------------------------------------------------------------------
    per_row = 3
    tile_w = (exile_w - (per_row + 1) * 10) / per_row
    for side, zy in ((1, by), (0, by + board_h - zone_h)):
        d.rounded_rectangle(
            (ex, zy, ex + exile_w, zy + zone_h),
            radius=14,
            fill=PANEL,
            outline=SIDE_FILL[side],
            width=3,
        )
        name = _t(lang, f"Exil {_SIDE[side][2]}", f"{_SIDE[side][1]} exile")
        centred_text(d, (ex + exile_w / 2, zy + 26), name, 28, INK, True)
        exiled = [s for s in ships if s.side == side and s.square is None]
        for i, s in enumerate(exiled):
            col, row = i % per_row, i // per_row
            sx = ex + 10 + col * (tile_w + 10)
            sy = zy + 52 + row * (EXILE_TILE_H + 10)
            _exiled(
                d,
                sx,
                sy,
                tile_w,
                s.side,
                s.kind,
                teleported=s.id in teleported,
                expelled=s.id in expelled,
            )
        if not exiled:
            centred_text(d, (ex + exile_w / 2, zy + zone_h / 2 + 14), "—", 32, MUTED)
    # The layout fills the width and ends under the column letters: nothing to crop, and
    # a square stays where :func:`square_centre` says.
    return png_bytes(img)


def cell_size(cols: int) -> int:
    """A square's side: the widest that leaves the exile zones room on a 1024 px image."""
    return 150 if cols == 4 else 130


def square_centre(view: MadView, name: str) -> tuple[float, float]:
    """Where the centre of square ``name`` is on the image (tests and marks read it)."""
    cell = cell_size(view.cols)
    c, r = _sq(name, view.cols)
    return LABEL + c * cell + cell / 2, HEADER + (view.rows - 1 - r) * cell + cell / 2


def _exiled(
    d: ImageDraw.ImageDraw,
    x: float,
    y: float,
    w: float,
    side: int,
    kind: str,
    *,
    teleported: bool,
    expelled: bool,
) -> None:
    """An exiled ship: a flat tile with its three numbers; dimmed unless it just left
    (expelled: red frame and cross) or just came in by a teleport (cyan frame)."""
    h = EXILE_TILE_H
    fill = SIDE_FILL[side]
    if not (teleported or expelled):
        fill = tuple(int(c * 0.55 + 30) for c in fill)  # type: ignore[assignment]
    d.rounded_rectangle((x, y, x + w, y + h), radius=10, fill=fill, outline=(20, 20, 24), width=2)
    if kind == "111":
        d.rounded_rectangle((x + 3, y + 3, x + w - 3, y + h - 3), radius=8, outline=GOLD, width=3)
    centred_text(d, (x + w / 2, y + h / 2), kind, 32, (255, 255, 255), True)
    if teleported:
        d.rounded_rectangle((x - 4, y - 4, x + w + 4, y + h + 4), radius=12, outline=CYAN, width=5)
    if expelled:
        d.rounded_rectangle((x - 4, y - 4, x + w + 4, y + h + 4), radius=12, outline=EXPEL, width=5)
        _cross(d, x + w - h * 0.55, y - h * 0.1, h * 0.7)


# --- the message text -----------------------------------------------------------------------
def board_lines(view: MadView, lang: str = "en") -> list[str]:
    """What the picture leaves to the message text: the last move and what it expelled,
    the tie-break counter (turns without expulsion, who a tie-break would favour), an
    offered tie-break, and how the match ended."""
    fr = lang.startswith("fr")
    lines: list[str] = []
    last = view.last
    ships = {s.id: s for s in view.ships}
    if last is not None:
        who = _SIDE[last.side][0 if fr else 1]
        mv = f"{last.kind} {last.text}" if last.kind else last.text
        line = _t(lang, f"Dernier coup ({who.lower()}) : {mv}", f"Last move ({who.lower()}): {mv}")
        if last.bonus:
            line += _t(lang, " + coup bonus", " + bonus move")
        if last.expelled:
            kinds = ", ".join(ships[e].kind for e in sorted(last.expelled))
            line += _t(lang, f" · ✕ expulsé : {kinds}", f" · ✕ expelled: {kinds}")
        lines.append(line)
    tb = _SIDE[view.tiebreak_winner][0 if fr else 1].lower()
    lines.append(
        _t(
            lang,
            f"Sans expulsion : {view.streak}/{view.tiebreak_turns} tours · départage : {tb}",
            f"No expulsion for {view.streak}/{view.tiebreak_turns} turns · tie-break: {tb}",
        )
    )
    if view.draw_offer is not None:
        by = _SIDE[view.draw_offer][0 if fr else 1].lower()
        lines.append(_t(lang, f"Départage proposé par les {by}", f"Tie-break proposed by {by}"))
    if view.result is not None:
        lines.append(view.result.reason.fr if fr else view.result.reason.en)
    lines.append(
        _t(
            lang,
            "Chaque vaisseau : Mouvement · Attaque · Défense (111 = corvette, cerclée d'or).",
            "Each ship: Move · Attack · Defence (111 = the corvette, ringed in gold).",
        )
    )
    return lines


__all__ = ["render_board", "board_lines", "BG"]
