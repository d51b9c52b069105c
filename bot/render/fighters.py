"""Drawing helpers shared by the phone-first images of Mad Arena, Ultimate Warriorz and Madsteam.

A phone shows a 1024 px image about 380 px wide, so every text here is drawn at
:data:`MIN_TEXT` px or more, is wrapped rather than cut, and an image is drawn at
the size of what it holds (no empty band). A private prompt's legal targets are marked with the very
labels of its buttons (:class:`Marks`), so a player matches button and board.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.engine.decisions import Allocation, Decision
from bot.render.common import (
    DANGER,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    font,
    put_text,
    text_on,
)
from bot.render.palette import draw_on

MIN_TEXT = 28
"""The smallest type any of these images draws, in px of a 1024 px wide image."""

MARK_FILL = HIGHLIGHT
MARK_INK = (24, 24, 28)


def plain(text: str) -> str:
    """``text`` without the emoji the bundled font cannot draw (outside the BMP, variation
    selectors), so a button's label like "👣 Move" reads "Move" on the image."""
    kept = "".join(ch for ch in text if ord(ch) < 0x10000 and ch not in "\ufe0f\u200d")
    return " ".join(kept.split())


def md_escape(text: str) -> str:
    """A player's name made inert in Discord's markdown (``*``, ``_``, ``~``, ``|``, `` ` ``,
    ``>``), so the message beside the image reads it as written."""
    return "".join("\\" + ch if ch in "*_~|`>\\" else ch for ch in text)


def wrap(text: str, fnt: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """``text`` on as many lines as it needs to fit ``width`` px: never cut, never "…".

    A single word wider than ``width`` is split between characters (a long name in a
    narrow box), so each line fits. Cached: a layout measures, then draws, the same lines.
    """
    return list(_wrap(text, fnt, width))


@lru_cache(maxsize=2048)
def _wrap(text: str, fnt: ImageFont.FreeTypeFont, width: float) -> tuple[str, ...]:
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if fnt.getlength(trial) <= width:
            current = trial
            continue
        if current:
            lines.append(current)
        current = ""
        for ch in word:
            if current and fnt.getlength(current + ch) > width:
                lines.append(current)
                current = ""
            current += ch
    if current:
        lines.append(current)
    return tuple(lines) or ("",)


def flow(
    items: Sequence[str], fnt: ImageFont.FreeTypeFont, width: float, sep: str = "   "
) -> list[str]:
    """Short items side by side, as many per line as fit ``width`` (an item is never split).
    Cached, like :func:`wrap`: a roster flows the same items from view to view."""
    return list(_flow(tuple(items), fnt, width, sep))


@lru_cache(maxsize=2048)
def _flow(
    items: tuple[str, ...], fnt: ImageFont.FreeTypeFont, width: float, sep: str
) -> tuple[str, ...]:
    lines: list[str] = []
    current = ""
    for item in items:
        trial = f"{current}{sep}{item}" if current else item
        if current and fnt.getlength(trial) > width:
            lines.append(current)
            current = item
        else:
            current = trial
    if current:
        lines.append(current)
    return tuple(lines)


class Marks:
    """A private prompt's legal targets, each with the labels of its buttons.

    Read from the options' typed args: an arg with ``zone``/``place`` marks a zone or
    place, one with ``target``/``targets`` marks fighters. Options without a target
    on the board (a card, "end the action") mark nothing.
    """

    def __init__(self, decision: Decision | None, lang: str) -> None:
        self.zones: dict[object, list[str]] = {}
        self.fighters: dict[str, list[str]] = {}
        self.subject: str | None = None
        """The fighter the prompt is for (it picks or acts): outlined on the board."""
        if decision is None:
            return
        for opt in decision.options:
            label = plain(opt.label.get(lang))
            args = opt.args
            if args is None or not label:
                continue
            zone = getattr(args, "zone", None)
            if zone is None:
                zone = getattr(args, "place", None)
            if zone is not None:
                _add(self.zones.setdefault(zone, []), label)
            target = getattr(args, "target", None)
            if isinstance(target, str):
                _add(self.fighters.setdefault(target, []), label)
            for t in getattr(args, "targets", None) or []:
                if isinstance(t, str):
                    _add(self.fighters.setdefault(t, []), label)
        if isinstance(decision.ask, Allocation):
            # Amounts spread over fighters (the dragon's split fire): each named by its label.
            for q in decision.ask.quantities:
                _add(self.fighters.setdefault(q.id, []), plain(q.label.get(lang)))
        subject = getattr(decision.args, "fighter", None)
        self.subject = subject if isinstance(subject, str) else None

    def __bool__(self) -> bool:
        return bool(self.zones or self.fighters)

    def zone(self, key: object) -> list[str]:
        return self.zones.get(key, [])

    def fighter(self, fid: str) -> list[str]:
        return self.fighters.get(fid, [])


def _add(labels: list[str], label: str) -> None:
    if label not in labels:
        labels.append(label)


TAG_SIZE = 28
TAG_LINE = 36
TAG_PAD = 8


def tag_lines(labels: Iterable[str], width: float, size: int = TAG_SIZE) -> list[list[str]]:
    """Each label wrapped to ``width`` px (minus the tag's padding)."""
    fnt = font(size, True)
    return [wrap(label, fnt, width - 2 * TAG_PAD) for label in labels]


def tags_height(labels: Iterable[str], width: float, size: int = TAG_SIZE) -> int:
    """Height the tags of ``labels`` take when drawn by :func:`draw_tags`."""
    return sum(len(ls) * TAG_LINE + 2 * TAG_PAD + 6 for ls in tag_lines(labels, width, size))


def draw_tags(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    width: float,
    labels: Iterable[str],
    size: int = TAG_SIZE,
) -> float:
    """Yellow button-like tags, one per label, stacked from (x, y); returns the y below them."""
    for lines in tag_lines(labels, width, size):
        h = len(lines) * TAG_LINE + 2 * TAG_PAD
        draw.rounded_rectangle(
            (x, y, x + width, y + h), radius=10, fill=MARK_FILL, outline=MARK_INK, width=2
        )
        for k, line in enumerate(lines):
            ly = y + TAG_PAD + TAG_LINE * k + TAG_LINE / 2
            put_text(draw, (x + width / 2, ly), line, size, MARK_INK, True, "mm")
        y += h + 6
    return y


# --- a ring of zones (Mad Arena, Ultimate Warriorz) -----------------------------------------
#
# Most of a ring picture is the same pieces from one view to the next: a zone whose
# fighters did not move, a fighter's badge. Each piece is drawn once on its own small
# image (``drawing_cache``) and pasted at whole-pixel places, which gives the very pixels
# drawing it there would (issue 16 item 3: rendering was most of the bot's CPU).
Colour = tuple[int, int, int]

RING_W = 1024
"""Width of a ring picture, the phone reference width."""
BOX_W = 320
"""Width of a zone box: three columns of them span the picture."""
SPREAD = 340
"""Distance between the centres of the three columns."""
BADGE_H = 48
BADGE_SIZE = 30
ZONE_TITLE_H = 46
ZONE_PAD = 10
ZONE_RADIUS = 18
LINK_INK = (70, 72, 82)
SPOKE_INK = (58, 60, 70)
BANNER_FILL = (20, 20, 24)


@dataclass(frozen=True)
class Badge:
    """A fighter in a zone: its name and HP on its colour; outlines say actor or target.

    Frozen: a zone's picture is kept by what it holds."""

    name: str
    hp: str
    fill: Colour
    outline: Colour | None = None
    token: Colour | None = None
    """A round token on the badge's corner (Mad Arena's net)."""
    marks: tuple[str, ...] = ()


def fighter_badge(
    fid: str,
    name: str,
    hp: int,
    fill: Colour,
    marks: Marks,
    actor: str | None,
    targets: Iterable[str] = (),
    token: Colour | None = None,
) -> Badge:
    """Fighter ``fid``'s badge in its zone, alike in both games: its HP, a gold outline for
    the fighter acting (or the one the prompt is for), red for the last action's targets,
    and the prompt's labels naming it."""
    outline = HIGHLIGHT if fid == actor else (DANGER if fid in targets else None)
    return Badge(name, f"♥{hp}", fill, outline, token, tuple(marks.fighter(fid)))


@lru_cache(maxsize=1024)
def badge_size(width: float, name: str, hp: str) -> int:
    """The largest type (30 down to :data:`MIN_TEXT`) at which name and HP fit ``width``."""
    for size in (BADGE_SIZE, 29, MIN_TEXT):
        f = font(size, True)
        if f.getlength(name) + f.getlength(hp) + 30 <= width:
            return size
    return MIN_TEXT


@dataclass(frozen=True)
class ZoneBox:
    """One zone's box: its title, the prompt's labels naming it, then its fighters, each
    followed by the labels naming that fighter."""

    title: str
    badges: tuple[Badge, ...] = ()
    marks: tuple[str, ...] = ()
    fill: Colour = PANEL
    outline: Colour = MUTED
    title_ink: Colour = MUTED

    @cached_property
    def height(self) -> int:
        inner = BOX_W - 2 * ZONE_PAD
        h = ZONE_TITLE_H + ZONE_PAD + tags_height(self.marks, inner)
        for b in self.badges:
            h += BADGE_H + 8 + tags_height(b.marks, inner)
        return h + ZONE_PAD


def draw_zone(draw: ImageDraw.ImageDraw, x0: int, y0: int, zone: ZoneBox) -> None:
    """``zone``'s box drawn with its top-left corner at (x0, y0)."""
    marked = bool(zone.marks)
    draw.rounded_rectangle(
        (x0, y0, x0 + BOX_W, y0 + zone.height),
        radius=ZONE_RADIUS,
        fill=zone.fill,
        outline=MARK_FILL if marked else zone.outline,
        width=7 if marked else 3,
    )
    title_at = (x0 + BOX_W / 2, y0 + ZONE_TITLE_H / 2 + 4)
    put_text(draw, title_at, zone.title, 30, zone.title_ink, True, "mm")
    inner = BOX_W - 2 * ZONE_PAD
    x = x0 + ZONE_PAD
    y = draw_tags(draw, x, y0 + ZONE_TITLE_H + ZONE_PAD, inner, zone.marks)
    for b in zone.badges:
        draw_badge(draw, x, y, inner, b)
        y += BADGE_H + 8
        y = draw_tags(draw, x, y, inner, b.marks)


def draw_badge(draw: ImageDraw.ImageDraw, x: float, y: float, width: float, b: Badge) -> None:
    """A fighter's badge: name and HP in the largest type that fits, a light outline on a
    dark fighter so it stays visible, its token on the corner."""
    dark = 0.299 * b.fill[0] + 0.587 * b.fill[1] + 0.114 * b.fill[2] < 70
    outline = b.outline or (MUTED if dark else (20, 20, 24))
    thick = 6 if b.outline else 2
    draw.rounded_rectangle(
        (x, y, x + width, y + BADGE_H), radius=12, fill=b.fill, outline=outline, width=thick
    )
    ink = text_on(b.fill)
    size = badge_size(width, b.name, b.hp)
    mid = y + BADGE_H / 2
    put_text(draw, (x + 10, mid), b.name, size, ink, True, "lm")
    put_text(draw, (x + width - 10, mid), b.hp, size, ink, True, "rm")
    if b.token is not None:
        right = x + width
        draw.ellipse((right - 16, y - 12, right + 10, y + 14), fill=b.token, outline=INK, width=3)


def ring_layout(heights: Sequence[int], gap: int = 16) -> tuple[list[tuple[int, int]], int]:
    """Top-left corners of the zone boxes (the ring's in order, then the centre's, last in
    ``heights``), in three columns, and the total height, with y from 0 at the top.

    The zones keep their places on the ring (the first at the top, then clockwise):
    those near the top and bottom go in the middle column above and below the centre,
    the others in the right and left columns; each column is stacked tightly and all
    are centred on one line, so a crowded zone never hides a neighbour and no band of
    the picture stays empty. Corners are whole pixels, so a box's cached picture pastes
    exactly where it would have been drawn.
    """
    n = len(heights) - 1
    cols: dict[int, list[tuple[float, int]]] = {-1: [], 0: [], 1: []}
    for i in range(n):
        ang = -math.pi / 2 + 2 * math.pi * i / n
        x, y = math.cos(ang), math.sin(ang)
        col = 0 if abs(x) < 0.3 else (1 if x > 0 else -1)
        cols[col].append((y, i))
    stacks: dict[int, list[int]] = {}
    for col, items in cols.items():
        items.sort()
        stack = [i for _, i in items]
        if col == 0:
            above = [i for y, i in items if y < 0]
            below = [i for y, i in items if y >= 0]
            stack = [*above, n, *below]
        stacks[col] = stack
    totals = {
        c: sum(heights[i] for i in st) + gap * max(0, len(st) - 1) for c, st in stacks.items()
    }
    total = max(totals.values())
    corners: dict[int, tuple[int, int]] = {}
    for col, st in stacks.items():
        x = (RING_W - BOX_W) // 2 + col * SPREAD
        y = (total - totals[col]) // 2
        for i in st:
            corners[i] = (x, y)
            y += heights[i] + gap
    return [corners[i] for i in range(n + 1)], total


def ring_height(zones: Sequence[ZoneBox]) -> int:
    """Height :func:`draw_ring` takes for ``zones`` (the centre last)."""
    return ring_layout([z.height for z in zones])[1]


def draw_ring(img: Image.Image, top: int, zones: Sequence[ZoneBox], path: Sequence[int]) -> int:
    """The ring from ``top`` down: links between neighbours and to the centre (the last of
    ``zones``), the last move's ``path`` (zone indices) in gold, then the zones' boxes.
    Returns the y below the ring."""
    heights = [z.height for z in zones]
    corners, total = ring_layout(heights)
    n = len(zones) - 1
    mids = [(x + BOX_W / 2, top + y + h / 2) for (x, y), h in zip(corners, heights, strict=True)]
    draw = draw_on(img)
    for i in range(n):
        draw.line((mids[i], mids[(i + 1) % n]), fill=LINK_INK, width=8)
        draw.line((mids[i], mids[n]), fill=SPOKE_INK, width=6)
    if len(path) > 1:
        draw.line([mids[z] for z in path], fill=HIGHLIGHT, width=10, joint="curve")
    for (x, y), zone in zip(corners, zones, strict=True):
        draw_zone(draw, x, top + y, zone)
    return top + total


def banner_height(lines: Sequence[str]) -> int:
    """Height of :func:`draw_banner`'s box (0: no banner)."""
    return 44 * len(lines) + 30 if lines else 0


def draw_banner(draw: ImageDraw.ImageDraw, y: float, lines: Sequence[str], size: int) -> None:
    """The match's result under the ring: gold lines of ``size`` px in a gold-edged box."""
    draw.rounded_rectangle(
        (20, y, RING_W - 20, y + banner_height(lines) - 8),
        radius=16,
        fill=BANNER_FILL,
        outline=HIGHLIGHT,
        width=4,
    )
    for k, line in enumerate(lines):
        put_text(draw, (RING_W / 2, y + 33 + 44 * k), line, size, HIGHLIGHT, True, "mm")
