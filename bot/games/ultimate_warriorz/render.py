"""The esplanade image: six zones in a ring around the centre, plus a roster.

A pure function of a view, 1024 px wide with large type for a phone. The
roster gives each fighter its HP, popularity points, its first-wound token
(gold "3" while still there), trophies, whether its lucky charm is left, its
active card (⚡ initiative, ➜ move, ⚔ melee, ➶ ranged, ◆ defence) and the
lasting effects on it (ring, calumet, light suit, spear whirl, Electroshock,
skull). The acting fighter has a gold outline; the eliminated are greyed.
"""

from __future__ import annotations

import math

from PIL import ImageDraw

from bot.games.ultimate_warriorz.view import FighterView, UWView
from bot.render.common import (
    BG,
    DANGER,
    HIGHLIGHT,
    INK,
    MUTED,
    OK,
    PANEL,
    canvas,
    font,
    greyed,
    png_bytes,
    text_on,
)

W = 1024
ARENA_CX = 512
ARENA_CY = 405
RING_R = 232
ZONE_R = 104
CENTRE_R = 112
ROW_H = 92
ROSTER_Y = 760
GOLD = (230, 180, 40)

WORDS = {
    "round": ("Round {r}/{n}", "Round {r}/{n}"),
    "pick": ("choix secret des cartes", "secret card picks"),
    "act": ("compte à rebours ⚡{c}", "countdown ⚡{c}"),
    "place": ("placement", "placement"),
    "draft": ("choix des combattants", "choosing fighters"),
    "over": ("partie terminée", "match over"),
    "stones": ("pierres : {d} dés", "stones: {d} dice"),
    "centre": ("Centre", "Centre"),
    "out": ("éliminé", "out"),
    "sheet": ("fiche ◆{d}", "sheet ◆{d}"),
    "charm": ("porte-bonheur", "lucky charm"),
    "nocharm": ("porte-bonheur utilisé", "charm used"),
}


def w(key: str, lang: str, **kw: object) -> str:
    fr, en = WORDS[key]
    return (fr if lang.startswith("fr") else en).format(**kw)


def _rgb(hexcode: str) -> tuple[int, int, int]:
    h = hexcode.lstrip("#")
    return (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16))


def zone_xy(zone: int) -> tuple[float, float]:
    if zone == 6:
        return (ARENA_CX, ARENA_CY)
    ang = -math.pi / 2 + 2 * math.pi * zone / 6
    return (ARENA_CX + RING_R * math.cos(ang), ARENA_CY + RING_R * math.sin(ang))


def _badge(draw: ImageDraw.ImageDraw, x: float, y: float, f: FighterView, actor: bool) -> None:
    fill = _rgb(f.colour)
    label = f"{f.name} ♥{f.hp}"
    width = max(150, int(draw.textlength(label, font=font(22, True)) + 24))
    box = (x - width / 2, y - 17, x + width / 2, y + 17)
    outline = HIGHLIGHT if actor else (20, 20, 24)
    draw.rounded_rectangle(box, radius=12, fill=fill, outline=outline, width=5 if actor else 2)
    draw.text((x, y), label, font=font(22, True), fill=text_on(fill), anchor="mm")


def _header(draw: ImageDraw.ImageDraw, view: UWView, lang: str) -> None:
    parts = [w("round", lang, r=view.round, n=view.last_round)]
    if view.phase == "act" and view.countdown is not None:
        parts.append(w("act", lang, c=view.countdown))
    elif view.phase in ("pick", "place", "draft", "over"):
        parts.append(w(view.phase, lang))
    if view.stones_now and view.phase != "over":
        parts.append(w("stones", lang, d=view.stones_now))
    draw.rectangle((0, 0, W, 60), fill=PANEL)
    draw.text((24, 30), "  ·  ".join(parts), font=font(30, True), fill=INK, anchor="lm")


def _arena(draw: ImageDraw.ImageDraw, view: UWView, lang: str) -> None:
    for z in range(6):
        x, y = zone_xy(z)
        draw.ellipse(
            (x - ZONE_R, y - ZONE_R, x + ZONE_R, y + ZONE_R), fill=PANEL, outline=MUTED, width=3
        )
        dx, dy = (x - ARENA_CX) / RING_R, (y - ARENA_CY) / RING_R
        lx, ly = x + dx * (ZONE_R - 22), y + dy * (ZONE_R - 22)
        draw.text((lx, ly), str(z + 1), font=font(28, True), fill=MUTED, anchor="mm")
    draw.ellipse(
        (ARENA_CX - CENTRE_R, ARENA_CY - CENTRE_R, ARENA_CX + CENTRE_R, ARENA_CY + CENTRE_R),
        fill=(60, 56, 40),
        outline=GOLD,
        width=3,
    )
    actor = view.action.fighter if view.action else None
    if view.action is not None:
        pts = [zone_xy(z) for z in view.action.visited]
        if len(pts) > 1:
            draw.line(pts, fill=HIGHLIGHT, width=6)
    by_zone: dict[int, list[FighterView]] = {}
    for f in view.fighters:
        if f.alive and f.zone is not None:
            by_zone.setdefault(f.zone, []).append(f)
    for z, fs in by_zone.items():
        x, y = zone_xy(z)
        top = y - (len(fs) - 1) * 20
        for k, f in enumerate(fs):
            _badge(draw, x, top + k * 40, f, f.id == actor)


def _row(draw: ImageDraw.ImageDraw, y: float, f: FighterView, view: UWView, lang: str) -> None:
    fill = _rgb(f.colour) if f.alive else greyed(_rgb(f.colour))
    draw.rounded_rectangle((16, y + 4, W - 16, y + ROW_H - 4), radius=12, fill=PANEL)
    draw.rectangle((16, y + 4, 30, y + ROW_H - 4), fill=fill)
    ink = INK if f.alive else MUTED
    draw.text((44, y + 26), f"{f.name} ({f.player})", font=font(26, True), fill=ink, anchor="lm")
    if not f.alive:
        status = w("out", lang)
        draw.text((44, y + 64), status, font=font(22), fill=DANGER, anchor="lm")
    else:
        c = f.active
        if c is None:
            line = w("sheet", lang, d=f.defence_now)
        else:
            dfc = "?" if f.defence_rolled else str(c.defence)
            line = f"⚡{c.initiative} ➜{c.move} ⚔{c.melee_now} ➶{c.ranged_now} ◆{dfc}"
            if c.special_name is not None:
                line += "  " + c.special_name.get(lang)
        draw.text((44, y + 64), line, font=font(22), fill=ink, anchor="lm")
    # Right side: HP, PP, first-wound token, trophies, charm.
    x: float = W - 30
    charm = "✿" if f.charm else "·"
    draw.text((x, y + 26), charm, font=font(30, True), fill=OK if f.charm else MUTED, anchor="rm")
    x -= 44
    trophies = f"★{len(f.trophies)}"
    draw.text((x, y + 26), trophies, font=font(26, True), fill=GOLD, anchor="rm")
    x -= draw.textlength(trophies, font=font(26, True)) + 22
    pp = f"{f.pp} PP"
    draw.text((x, y + 26), pp, font=font(26, True), fill=INK, anchor="rm")
    x -= draw.textlength(pp, font=font(26, True)) + 22
    hp = f"♥{f.hp}"
    draw.text((x, y + 26), hp, font=font(26, True), fill=DANGER if f.alive else MUTED, anchor="rm")
    x -= draw.textlength(hp, font=font(26, True)) + 26
    if f.first_wound:
        draw.ellipse((x - 30, y + 12, x - 2, y + 40), fill=GOLD, outline=INK, width=2)
        draw.text((x - 16, y + 26), "3", font=font(20, True), fill=(20, 20, 20), anchor="mm")
    effects = "  ".join(_effect_words(f, lang))
    if effects:
        draw.text((W - 30, y + 64), effects, font=font(21), fill=HIGHLIGHT, anchor="rm")


EFFECTS = {
    "ghost-ring": ("intouchable au tir", "cannot be shot"),
    "calumet": ("pas de corps à corps", "no melee on it"),
    "light-suit": ("-1 dé contre lui", "-1 die against it"),
    "spear-whirl": ("défense = 1 dé", "defence = 1 die"),
}


def _effect_words(f: FighterView, lang: str) -> list[str]:
    """The lasting effects in words the image font can draw (no emoji)."""
    fr = lang.startswith("fr")
    out = []
    if f.effect in EFFECTS:
        out.append(EFFECTS[f.effect][0 if fr else 1])
    if f.shock:
        out.append(f"⚡{f.shock:+d}")
    if f.skull:
        out.append("crâne" if fr else "skull")
    return out


def render_arena(view: UWView, lang: str = "en") -> bytes:
    fighters = sorted(view.fighters, key=lambda f: (not f.alive, f.size))
    height = ROSTER_Y + ROW_H * len(fighters) + 70
    img, draw = canvas(W, height, BG)
    _header(draw, view, lang)
    _arena(draw, view, lang)
    for k, f in enumerate(fighters):
        _row(draw, ROSTER_Y + k * ROW_H, f, view, lang)
    foot = view.result.get(lang) if view.result else " · ".join(t.get(lang) for t in view.last)
    legend = "⚡ init  ➜ move  ⚔ melee  ➶ ranged  ◆ defence  ★ trophies  ✿ charm  (3) first wound"
    if lang.startswith("fr"):
        legend = "⚡ init  ➜ mvt  ⚔ corps à corps  ➶ tir  ◆ défense  ★ trophées  ✿ porte-bonheur  (3) 1re blessure"
    y = ROSTER_Y + ROW_H * len(fighters) + 10
    draw.text((24, y + 14), _plain_all(foot)[:80], font=font(22, True), fill=INK, anchor="lm")
    draw.text((24, y + 44), legend, font=font(18), fill=MUTED, anchor="lm")
    return png_bytes(img)


def _plain_all(text: str) -> str:
    """Drop characters outside the font's reach (emoji) from a free text line."""
    return "".join(ch for ch in text if ord(ch) < 0x2600 or 0x2600 <= ord(ch) <= 0x27BF).strip()
