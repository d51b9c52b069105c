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

from PIL import ImageDraw

from bot.engine.decisions import Decision
from bot.games.mad.view import MadView
from bot.render.common import (
    BG,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    canvas,
    centred_text,
    font,
    png_bytes,
)

RED_FILL = (206, 52, 48)
BLUE_FILL = (46, 112, 214)
SIDE_FILL = {0: RED_FILL, 1: BLUE_FILL}
LIGHT_SQ = (72, 76, 88)
DARK_SQ = (58, 61, 71)
CYAN = (70, 210, 225)
GOLD = (245, 196, 40)
EXPEL = (255, 80, 70)

_SIDE = {0: ("Rouges", "Red"), 1: ("Bleus", "Blue")}


def _sq(name: str, cols: int) -> tuple[int, int]:
    """``b4`` -> (col, row) with row 0 at the bottom."""
    return "abcdef".index(name[0]), int(name[1:]) - 1


def _t(lang: str, fr: str, en: str) -> str:
    return fr if lang.startswith("fr") else en


def _ship(
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
    fs = int(size * 0.30)
    ls = max(10, int(size * 0.12))
    for i, ch in enumerate(kind):
        px = x + size * (0.22 + 0.28 * i)
        centred_text(d, (px, y + size * 0.55), ch, fs, (255, 255, 255), True)
        centred_text(
            d, (px, y + size * 0.30), "MAD"[i], ls, (255, 255, 255) if not dim else (200, 200, 200)
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


def _fit_text(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    max_w: float,
    fill: tuple[int, int, int],
    bold: bool,
) -> None:
    """Left-aligned text, shrunk until it fits ``max_w``."""
    while size > 12 and d.textlength(text, font=font(size, bold)) > max_w:
        size -= 1
    d.text(xy, text, font=font(size, bold), fill=fill, anchor="lm")


def _arrow(d: ImageDraw.ImageDraw, path: list[tuple[float, float]], width: int) -> None:
    """The displacement's path, square centre to square centre (orthogonal legs only)."""
    d.line(path, fill=HIGHLIGHT, width=width, joint="curve")
    a = path[0]
    r = width * 1.3
    d.ellipse((a[0] - r, a[1] - r, a[0] + r, a[1] + r), fill=HIGHLIGHT)


def render_board(view: MadView, lang: str = "en", decision: Decision | None = None) -> bytes:
    """PNG of the board, at most 1024 px wide (readable in a phone preview)."""
    rows = view.rows
    cols = view.cols
    cell = 128 if cols == 4 else 116
    label = 40
    header = 96
    footer = 112
    board_w = cols * cell
    board_h = rows * cell
    zone_h = (board_h - 16) / 2
    # Up to 7 exiled ships per side (the 8th is the corvette: the match is over): 3 x 3 slots.
    slot = int(min(cell * 0.62, (zone_h - 44) / 3 - 8))
    exile_w = 3 * slot + 4 * 12
    width = label + board_w + 28 + exile_w + 20
    height = header + board_h + label + footer
    img, d = canvas(width, height, BG)
    bx, by = label, header

    last = view.last
    teleported = set(last.teleported) if last else set()
    expelled = set(last.expelled) if last else set()
    ships = view.ships

    # --- header ---------------------------------------------------------------------
    result = view.result
    title = f"MAD {view.board.replace('x', '×')}"
    d.text((16, 14), title, font=font(30, True), fill=INK)
    if result is None:
        side = view.to_move
        msg = (
            _t(lang, "Tour de positionnement : ", "Positioning turn: ")
            if view.positioning_turn
            else ""
        ) + _t(lang, f"{_SIDE[side][0]} à jouer", f"{_SIDE[side][1]} to move")
        d.ellipse((18, 58, 40, 80), fill=SIDE_FILL[side])
        d.text((50, 69), msg, font=font(24, True), fill=INK, anchor="lm")
    else:
        w = result.winner
        half = result.half
        msg = _t(
            lang,
            f"{'Semi-victoire' if half else 'Victoire'} des {_SIDE[w][0].lower()}",
            f"{_SIDE[w][1]} {'half-' if half else ''}wins",
        )
        d.ellipse((18, 58, 40, 80), fill=SIDE_FILL[w])
        d.text((50, 69), msg, font=font(24, True), fill=HIGHLIGHT, anchor="lm")
    turn_txt = _t(lang, f"Tour {view.turn_number}", f"Turn {view.turn_number}")
    d.text((width - 16, 30), turn_txt, font=font(22), fill=MUTED, anchor="rm")

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
            d, (bx + c * cell + cell / 2, by + board_h + label / 2), "abcdef"[c], 24, MUTED, True
        )
    for r in range(rows):
        centred_text(
            d, (label / 2, by + (rows - 1 - r) * cell + cell / 2), str(r + 1), 24, MUTED, True
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
    if last and src and dst:
        # Through the free intermediate square of a two-square move: never a diagonal.
        names = [src, *([last.via] if last.via else []), dst]
        path = [(x + cell / 2, y + cell / 2) for x, y in map(xy, names)]
        _arrow(d, path, 8)

    # --- ships on the board --------------------------------------------------------------
    pad = cell * 0.1
    for s in ships:
        if s.square is None:
            continue
        x, y = xy(s.square)
        ring = CYAN if s.id in teleported else None
        if s.square == dst:
            d.rectangle((x + 2, y + 2, x + cell - 2, y + cell - 2), outline=HIGHLIGHT, width=6)
        _ship(d, x + pad, y + pad, cell - 2 * pad, s.side, s.kind, ring=ring)

    # --- exile zones ---------------------------------------------------------------------
    ex = bx + board_w + 28
    for side, zy in ((1, by), (0, by + board_h - zone_h)):
        d.rounded_rectangle(
            (ex, zy, ex + exile_w, zy + zone_h),
            radius=14,
            fill=PANEL,
            outline=SIDE_FILL[side],
            width=3,
        )
        name = _t(lang, f"Exil des {_SIDE[side][0].lower()}", f"{_SIDE[side][1]} exile")
        centred_text(d, (ex + exile_w / 2, zy + 18), name, 18, INK, True)
        exiled = [s for s in ships if s.side == side and s.square is None]
        for i, s in enumerate(exiled):
            col, row = i % 3, i // 3
            sx = ex + 12 + col * (slot + 12)
            sy = zy + 36 + row * (slot + 8)
            ring = CYAN if s.id in teleported else None
            _ship(
                d,
                sx,
                sy,
                slot,
                side,
                s.kind,
                ring=ring,
                dim=s.id not in expelled and ring is None,
            )
            if s.id in expelled:
                d.rounded_rectangle(
                    (sx - 4, sy - 4, sx + slot + 4, sy + slot + 4),
                    radius=12,
                    outline=EXPEL,
                    width=5,
                )
                _cross(d, sx, sy, slot)
        if not exiled:
            centred_text(d, (ex + exile_w / 2, zy + zone_h / 2), "—", 24, MUTED)

    # --- footer: last turn, expulsions, the tie-break counter ------------------------------------
    fy = by + board_h + label + 4
    if last:
        who = _SIDE[last.side][0 if lang.startswith("fr") else 1]
        mv = f"{last.kind} {last.text}" if last.kind else last.text
        txt = _t(lang, f"Dernier coup ({who}) : {mv}", f"Last move ({who}): {mv}")
        _fit_text(d, (16, fy + 16), txt, 24, width - 32, INK, True)
    if expelled:
        kinds = ", ".join(next(s.kind for s in ships if s.id == e) for e in sorted(expelled))
        _fit_text(
            d,
            (16, fy + 50),
            _t(lang, f"✕ expulsé : {kinds}", f"✕ expelled: {kinds}"),
            22,
            width - 32,
            EXPEL,
            True,
        )
    streak = view.streak
    limit = view.tiebreak_turns
    tb = _SIDE[view.tiebreak_winner][0 if lang.startswith("fr") else 1]
    _fit_text(
        d,
        (16, fy + 84),
        _t(
            lang,
            f"Sans expulsion : {streak}/{limit} tours · départage : {tb.lower()}",
            f"No expulsion for {streak}/{limit} turns · tie-break: {tb.lower()}",
        ),
        20,
        width - 32,
        MUTED,
        False,
    )
    if view.draw_offer is not None:
        d.text(
            (width - 16, fy + 50),
            _t(lang, "Départage proposé", "Tie-break proposed"),
            font=font(20, True),
            fill=HIGHLIGHT,
            anchor="rm",
        )
    return png_bytes(img)


__all__ = ["render_board", "BG"]
