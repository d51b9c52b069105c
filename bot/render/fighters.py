"""Drawing helpers shared by the phone-first images of Mad Arena, Ultimate Warriorz and Madsteam.

A phone shows a 1024 px image about 380 px wide, so every text here is drawn at
:data:`MIN_TEXT` px or more, is wrapped rather than cut, and the image is cropped
to what was drawn. A private prompt's legal targets are marked with the very
labels of its buttons (:func:`marks`), so a player matches button and board.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw, ImageFont

from bot.engine.decisions import Allocation, Decision
from bot.render.common import HIGHLIGHT, INK, MUTED, PANEL, font, text_on

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
    """Short items side by side, as many per line as fit ``width`` (an item is never split)."""
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
    return lines


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
    fnt = font(size, True)
    for lines in tag_lines(labels, width, size):
        h = len(lines) * TAG_LINE + 2 * TAG_PAD
        draw.rounded_rectangle(
            (x, y, x + width, y + h), radius=10, fill=MARK_FILL, outline=MARK_INK, width=2
        )
        for k, line in enumerate(lines):
            draw.text(
                (x + width / 2, y + TAG_PAD + TAG_LINE * k + TAG_LINE / 2),
                line,
                font=fnt,
                fill=MARK_INK,
                anchor="mm",
            )
        y += h + 6
    return y


def crop(img: Image.Image, bg: tuple[int, int, int], margin: int = 12) -> Image.Image:
    """``img`` cut to what was drawn on it (plus ``margin``): no empty band on a phone.

    The drawn box is found on a quarter-size copy (cheap), then widened by the
    scale so nothing drawn is ever cut.
    """
    scale = 4
    small = img.reduce(scale)
    backdrop = Image.new(small.mode, small.size, bg)
    box = ImageChops.difference(small, backdrop).getbbox()
    if box is None:
        return img
    left, top, right, bottom = (v * scale for v in box)
    pad = margin + scale
    if left <= pad and top <= pad and right + pad >= img.width and bottom + pad >= img.height:
        return img  # nothing to cut: spare the copy
    return img.crop(
        (
            max(0, left - pad),
            max(0, top - pad),
            min(img.width, right + pad),
            min(img.height, bottom + pad),
        )
    )


# --- a ring of zones (Mad Arena, Ultimate Warriorz) -----------------------------------------
Colour = tuple[int, int, int]

BADGE_H = 48
BADGE_SIZE = 30
ZONE_TITLE_H = 46
ZONE_PAD = 10


@dataclass
class Badge:
    """A fighter in a zone: its name and HP on its colour; outlines say actor or target."""

    fid: str
    name: str
    hp: str
    fill: Colour
    outline: Colour | None = None
    token: Colour | None = None
    """A round token on the badge's corner (Mad Arena's net)."""
    marks: list[str] = field(default_factory=list)


def badge_size(width: float, name: str, hp: str) -> int:
    """The largest type (30 down to :data:`MIN_TEXT`) at which name and HP fit ``width``."""
    for size in (BADGE_SIZE, 29, MIN_TEXT):
        f = font(size, True)
        if f.getlength(name) + f.getlength(hp) + 30 <= width:
            return size
    return MIN_TEXT


def zone_height(width: float, zone_marks: Sequence[str], badges: Sequence[Badge]) -> int:
    """Height of a zone box holding its title, its marks and its fighters (with theirs)."""
    inner = width - 2 * ZONE_PAD
    h = ZONE_TITLE_H + ZONE_PAD + tags_height(zone_marks, inner)
    for b in badges:
        h += BADGE_H + 8 + tags_height(b.marks, inner)
    return h + ZONE_PAD


def draw_zone(
    draw: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    width: float,
    height: float,
    title: str,
    badges: Sequence[Badge],
    zone_marks: Sequence[str],
    fill: Colour = PANEL,
    outline: Colour = MUTED,
    title_ink: Colour = MUTED,
) -> None:
    """One zone: a box with its title, its marks, then each fighter and that fighter's marks."""
    x0, y0 = cx - width / 2, cy - height / 2
    marked = bool(zone_marks)
    draw.rounded_rectangle(
        (x0, y0, x0 + width, y0 + height),
        radius=18,
        fill=fill,
        outline=MARK_FILL if marked else outline,
        width=7 if marked else 3,
    )
    draw.text(
        (cx, y0 + ZONE_TITLE_H / 2 + 4), title, font=font(30, True), fill=title_ink, anchor="mm"
    )
    inner = width - 2 * ZONE_PAD
    y = y0 + ZONE_TITLE_H + ZONE_PAD
    y = draw_tags(draw, x0 + ZONE_PAD, y, inner, zone_marks)
    for b in badges:
        draw_badge(draw, x0 + ZONE_PAD, y, inner, b)
        y += BADGE_H + 8
        y = draw_tags(draw, x0 + ZONE_PAD, y, inner, b.marks)


def draw_badge(draw: ImageDraw.ImageDraw, x: float, y: float, width: float, b: Badge) -> None:
    box = (x, y, x + width, y + BADGE_H)
    dark = 0.299 * b.fill[0] + 0.587 * b.fill[1] + 0.114 * b.fill[2] < 70
    outline = b.outline or (MUTED if dark else (20, 20, 24))  # a dark fighter stays visible
    thick = 6 if b.outline else 2
    draw.rounded_rectangle(box, radius=12, fill=b.fill, outline=outline, width=thick)
    ink = text_on(b.fill)
    size = badge_size(width, b.name, b.hp)
    mid = y + BADGE_H / 2
    draw.text((x + 10, mid), b.name, font=font(size, True), fill=ink, anchor="lm")
    draw.text((x + width - 10, mid), b.hp, font=font(size, True), fill=ink, anchor="rm")
    if b.token is not None:
        draw.ellipse(
            (x + width - 16, y - 12, x + width + 10, y + 14), fill=b.token, outline=INK, width=3
        )


def ring_layout(
    heights: Sequence[int], centre_h: int, spread: float, gap: int = 16
) -> tuple[list[tuple[float, float]], tuple[float, float], float]:
    """Centres of the peripheral zone boxes and of the centre box, in three columns.

    The zones keep their places on the ring (the first at the top, then clockwise):
    those near the top and bottom go in the middle column above and below the centre,
    the others in the right and left columns; each column is stacked tightly and all
    are centred on one line, so a crowded zone never hides a neighbour and no band of
    the image stays empty. ``spread`` is the distance between column centres. Returns
    the zones' centres, the centre's, and the total height, with y from 0 at the top.
    """
    n = len(heights)
    cols: dict[int, list[tuple[float, int]]] = {-1: [], 0: [], 1: []}
    for i in range(n):
        ang = -math.pi / 2 + 2 * math.pi * i / n
        x, y = math.cos(ang), math.sin(ang)
        col = 0 if abs(x) < 0.3 else (1 if x > 0 else -1)
        cols[col].append((y, i))
    centre_key = -1
    stacks: dict[int, list[tuple[int, int]]] = {}
    for col, items in cols.items():
        items.sort()
        stack = [(i, heights[i]) for _, i in items]
        if col == 0:
            above = [(i, h) for (y, i), (_, h) in zip(items, stack, strict=True) if y < 0]
            below = [(i, h) for (y, i), (_, h) in zip(items, stack, strict=True) if y >= 0]
            stack = [*above, (centre_key, centre_h), *below]
        stacks[col] = stack
    totals = {c: sum(h for _, h in st) + gap * max(0, len(st) - 1) for c, st in stacks.items()}
    total = max(totals.values())
    where: dict[int, tuple[float, float]] = {}
    for col, st in stacks.items():
        y = (total - totals[col]) / 2
        for i, h in st:
            where[i] = (col * spread, y + h / 2)
            y += h + gap
    return [where[i] for i in range(n)], where[centre_key], float(total)
