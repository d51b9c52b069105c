"""The arena image: ring of zones and the centre as on the table, plus a roster.

A pure function of a view (no state access), sized for Discord previews on a
phone: 1024 px wide, large type, few words. Fighters are badges in their
printed colours with name and HP; the roster below gives each fighter's card
in play (⚡ initiative, ➜ move, ⚔ melee, ➶ ranged, ◆ defence), trophies,
the net token, and greys out the eliminated. The last action is highlighted:
gold outline and path for the actor, red outline for its targets.
"""

from __future__ import annotations

import math

from PIL import ImageDraw

from bot.games.mad_arena.view import FighterView, MAView
from bot.render.common import (
    BG,
    DANGER,
    GREY,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    canvas,
    centred_text,
    colour,
    font,
    greyed,
    hp_bar,
    png_bytes,
    text_on,
)

W = 1024
H = 1024
ARENA_CX = 512
ARENA_CY = 380
RX = 340
RY = 220
ZONE_R = 104
CENTRE_R = 106
ROSTER_Y = 720
NET_GREEN = (40, 160, 60)

WORDS = {
    "pick": ("Choix secret des cartes", "Secret card choice"),
    "action": ("Compte à rebours", "Countdown"),
    "over": ("Partie terminée", "Match over"),
    "centre": ("Centre", "Centre"),
    "zone": ("Zone", "Zone"),
    "out": ("éliminé", "out"),
    "by": ("par", "by"),
    "net": ("filet", "net"),
    "legend": (
        "⚡ init  ➜ mvt  ⚔ combat  ➶ tir  ◆ défense  ★ trophées",
        "⚡ init  ➜ move  ⚔ melee  ➶ ranged  ◆ defence  ★ trophies",
    ),
}


def w(key: str, lang: str) -> str:
    fr, en = WORDS[key]
    return fr if lang.startswith("fr") else en


def zone_xy(i: int, n: int, centre: int) -> tuple[float, float]:
    if i == centre:
        return (ARENA_CX, ARENA_CY)
    ang = -math.pi / 2 + 2 * math.pi * i / n
    return (ARENA_CX + RX * math.cos(ang), ARENA_CY + RY * math.sin(ang))


def _card_line(f: FighterView) -> str:
    """The card in play's printed values (the dragon's initiative is the gong's, from the view)."""
    c = f.in_play
    if c is None:
        return f"◆{f.defence}+"
    s = c.stats
    star = " ✦" if c.secret else ""
    return f"⚡{c.initiative} ➜{s['move']} ⚔{s['melee']} ➶{s['ranged']} ◆{s['defence']}+{star}"


def _badge(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    f: FighterView,
    actor: bool,
    target: bool,
    width: int = 0,
) -> None:
    fill = colour(f.colour)
    hp = f"♥{f.hp}"
    if not width:
        width = int(
            draw.textlength(f.name, font=font(25, True))
            + draw.textlength(hp, font=font(25, True))
            + 34
        )
        width = max(width, 196)
    box = (x - width / 2, y - 18, x + width / 2, y + 18)
    outline = HIGHLIGHT if actor else (DANGER if target else (20, 20, 24))
    draw.rounded_rectangle(
        box, radius=12, fill=fill, outline=outline, width=5 if (actor or target) else 2
    )
    ink = text_on(fill)
    draw.text((box[0] + 10, y), f.name, font=font(25, True), fill=ink, anchor="lm")
    draw.text((box[2] - 10, y), hp, font=font(25, True), fill=ink, anchor="rm")
    if f.netted:
        draw.ellipse(
            (box[2] - 8, box[1] - 10, box[2] + 14, box[1] + 12),
            fill=NET_GREEN,
            outline=INK,
            width=2,
        )


def _plain(text: str) -> str:
    """Drop emoji the bundled font cannot draw (outside the Basic Multilingual Plane)."""
    return "".join(ch for ch in text if ord(ch) < 0x10000 and ch not in "\ufe0f").strip()


def _banner(draw: ImageDraw.ImageDraw, text: str) -> None:
    """The result across the middle of the arena, wrapped on up to three lines."""
    words = _plain(text).split()
    lines: list[str] = []
    line = ""
    f = font(28, True)
    for word in words:
        trial = f"{line} {word}".strip()
        if draw.textlength(trial, font=f) > W - 80 and line:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    lines = lines[:3]
    h = 20 + 40 * len(lines)
    top = ROSTER_Y - h - 6
    draw.rounded_rectangle(
        (20, top, W - 20, top + h), radius=16, fill=(20, 20, 24), outline=HIGHLIGHT, width=4
    )
    for i, ln in enumerate(lines):
        centred_text(draw, (W / 2, top + 30 + 40 * i), ln, 28, HIGHLIGHT, True)


def render_arena(view: MAView, lang: str = "en") -> bytes:
    """The arena image of one view: a pure function (same view, same bytes)."""
    img, draw = canvas(W, H, BG)
    zones = view.zones
    n = len(zones)
    centre = view.centre
    fighters = view.fighters
    last = view.last
    actor = last.fighter if last else None
    targets = set(last.targets) if last else set()

    # Header: gong and phase.
    rnd = view.round
    gong = (
        (230, 190, 60)
        if rnd >= view.last_round
        else ((60, 120, 230) if view.gong_colour == "blue" else (215, 55, 50))
    )
    draw.ellipse((16, 10, 60, 54), fill=gong, outline=INK, width=2)
    centred_text(draw, (38, 32), str(rnd), 22, text_on(gong), True)
    draw.text(
        (72, 32),
        f"Gong {rnd}/{view.last_round}",
        font=font(34, True),
        fill=INK,
        anchor="lm",
    )
    phase = view.phase
    status = w(phase, lang)
    if phase == "action":
        status += f" : {view.countdown}" if lang.startswith("fr") else f": {view.countdown}"
    draw.text(
        (W - 16, 32),
        status,
        font=font(26, True),
        fill=HIGHLIGHT if phase == "over" else INK,
        anchor="rm",
    )

    # Ring links (movement / range), then zones.
    for i in range(n):
        a = zone_xy(i, n, centre)
        b = zone_xy((i + 1) % n, n, centre)
        draw.line((a, b), fill=(70, 72, 82), width=6)
        draw.line((a, zone_xy(centre, n, centre)), fill=(58, 60, 70), width=4)
    path = last.path if last else []
    if len(path) > 1:
        pts = [zone_xy(z, n, centre) for z in path]
        draw.line(pts, fill=HIGHLIGHT, width=8, joint="curve")
        ex, ey = pts[-1]
        draw.ellipse((ex - 10, ey - 10, ex + 10, ey + 10), fill=HIGHLIGHT)
    for z in last.zones if last else []:
        zx, zy = zone_xy(z, n, centre)
        r = (CENTRE_R if z == centre else ZONE_R) + 8
        draw.ellipse((zx - r, zy - r, zx + r, zy + r), outline=DANGER, width=5)

    for i in [*range(n), centre]:
        x, y = zone_xy(i, n, centre)
        r = CENTRE_R if i == centre else ZONE_R
        fill = (58, 52, 44) if i == centre else PANEL
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=(110, 112, 122), width=3)
        label = w("centre", lang) if i == centre else zones[i].name
        draw.text((x, y - r + 22), label, font=font(23, True), fill=MUTED, anchor="mm")
        here = [f for f in fighters if f.alive and f.zone == i]
        step = 40 if len(here) <= 4 else max(24, int(160 / len(here)))
        y0 = y - r + 58
        for k, f in enumerate(here):
            _badge(draw, x, y0 + k * step, f, f.id == actor, f.id in targets)

    if phase == "over" and view.result:
        _banner(draw, view.result.get(lang))

    # Roster: every fighter with player, HP, card in play, trophies; eliminated greyed.
    draw.rectangle((0, ROSTER_Y, W, H), fill=(26, 27, 32))
    draw.text((16, ROSTER_Y + 16), w("legend", lang), font=font(18), fill=MUTED, anchor="lm")
    cols = 2
    row_h = 64
    col_w = W // cols
    for k, f in enumerate(fighters):
        cx = (k % cols) * col_w + 14
        cy = ROSTER_Y + 36 + (k // cols) * row_h
        alive = f.alive
        base = colour(f.colour)
        fill = base if alive else greyed(base)
        ink = INK if alive else GREY
        if f.id == actor:
            draw.rounded_rectangle(
                (cx - 8, cy - 2, cx + col_w - 20, cy + row_h - 6),
                radius=10,
                outline=HIGHLIGHT,
                width=3,
            )
        draw.rounded_rectangle((cx, cy + 6, cx + 14, cy + row_h - 14), radius=5, fill=fill)
        name = f.name
        draw.text((cx + 24, cy + 16), name, font=font(24, True), fill=ink, anchor="lm")
        nw = draw.textlength(name, font=font(24, True))
        who = f.player[:14]
        if view.mode != "ultimate-warrior":
            who += " · " + ("Équipe " if lang.startswith("fr") else "Team ") + "ABC"[f.team % 3]
        draw.text((cx + 32 + nw, cy + 18), who, font=font(17), fill=MUTED, anchor="lm")
        if alive:
            hp_bar(draw, cx + 24, cy + 34, 110, 12, f.hp, f.max_hp)
            hp_text = f"{f.hp}/{f.max_hp}"
            draw.text((cx + 142, cy + 40), hp_text, font=font(20, True), fill=INK, anchor="lm")
            hp_end = cx + 142 + draw.textlength(hp_text, font=font(20, True))
            draw.text(
                (max(cx + 212, hp_end + 10), cy + 40),
                _card_line(f),
                font=font(21, True),
                fill=INK,
                anchor="lm",
            )
        else:
            by = f.eliminated_by
            by_name = next((g.name for g in fighters if g.id == by), "?")
            draw.text(
                (cx + 24, cy + 40),
                f"☠ {w('out', lang)} ({w('by', lang)} {by_name})",
                font=font(19),
                fill=GREY,
                anchor="lm",
            )
        right = cx + col_w - 30
        trophies = f.trophies
        if trophies:
            draw.text(
                (right, cy + 16),
                f"★{len(trophies)} ({f.trophy_points})",
                font=font(20, True),
                fill=HIGHLIGHT if alive else GREY,
                anchor="rm",
            )
        if f.netted:
            draw.ellipse(
                (right - 20, cy + 30, right, cy + 50), fill=NET_GREEN, outline=INK, width=2
            )
        elif view.phase == "pick" and alive and not f.dragon:
            mark = "✔" if f.picked else "…"
            draw.text((right, cy + 40), mark, font=font(22, True), fill=ink, anchor="rm")
    return png_bytes(img)
