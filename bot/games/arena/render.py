"""The Arena! board picture: a pure function of the public view (PNG bytes, <= 1024 px).

Left: the 37-hex rosette with hex names, starting circles, fighters (colour,
HP, posture), markers (on the ground, disarmed), dropped weapons, blocked
hexes and the last turn's path. Top: the 10-round track. Right: one line per
fighter and the last turn's dice, damage and special results.
"""

from __future__ import annotations

import math

from PIL import ImageDraw

from bot.engine.decisions import Decision
from bot.games.arena.state import AttackRecord
from bot.games.arena.view import ArenaView, FighterView
from bot.render.common import (
    BG,
    DANGER,
    GREY,
    HIGHLIGHT,
    INK,
    MUTED,
    OK,
    PANEL,
    canvas,
    centred_text,
    colour,
    die_face,
    font,
    greyed,
    hp_bar,
    png_bytes,
    text_on,
)

WIDTH, HEIGHT = 1000, 720
SIZE = 45  # hex radius, px
BOARD_X, BOARD_Y = 300, 405
HEX_FILL = (62, 66, 78)
HEX_EDGE = (95, 100, 115)
START_RING = (130, 135, 150)
SQ3 = math.sqrt(3)
TAG_FONT = 14
HEART = "♥"


def hp_label(hp: int) -> str:
    """What a pawn shows: its HP with a heart, so it never reads as a seat or rank number."""
    return f"{hp}{HEART}"


SHORT: dict[str, tuple[str, str]] = {
    "garde": ("GARDE", "GUARD"),
    "defensive": ("DÉF", "DEF"),
    "balancee": ("BAL", "BAL"),
    "agressive": ("AGR", "AGG"),
    "dechainee": ("DÉCH", "UNL"),
    "sol": ("AU SOL", "DOWN"),
}
LONG: dict[str, tuple[str, str]] = {
    "garde": ("En garde", "On guard"),
    "defensive": ("Défensive", "Defensive"),
    "balancee": ("Balancée", "Balanced"),
    "agressive": ("Agressive", "Aggressive"),
    "dechainee": ("Déchaînée", "Unleashed"),
    "sol": ("Au sol", "On the ground"),
}
ACTIONS: dict[str, tuple[str, str]] = {
    "fight": ("bouge / attaque", "moves / attacks"),
    "rest": ("se repose", "rests"),
    "pickup": ("ramasse son arme", "picks up the weapon"),
    "getup": ("se relève", "gets up"),
    "pass": ("passe", "passes"),
}


def _t(pair: tuple[str, str], lang: str) -> str:
    return pair[0] if lang.startswith("fr") else pair[1]


def centre(q: int, r: int) -> tuple[float, float]:
    return (BOARD_X + SIZE * SQ3 * (q + r / 2), BOARD_Y + SIZE * 1.5 * r)


def _hex_points(cx: float, cy: float, size: float) -> list[tuple[float, float]]:
    return [
        (
            cx + size * math.cos(math.radians(60 * k - 30)),
            cy + size * math.sin(math.radians(60 * k - 30)),
        )
        for k in range(6)
    ]


def _sword(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, fill: tuple[int, int, int], scale: float = 0.42
) -> None:
    """A dropped-weapon glyph in its owner's colour."""
    s = SIZE * scale
    draw.line((cx - s, cy + s, cx + s, cy - s), fill=(20, 20, 20), width=7)
    draw.line((cx - s, cy + s, cx + s, cy - s), fill=fill, width=4)
    gx, gy = cx - s * 0.45, cy + s * 0.45
    draw.line((gx - s * 0.35, gy - s * 0.35, gx + s * 0.35, gy + s * 0.35), fill=INK, width=4)


def render_board(view: ArenaView, lang: str = "en", decision: Decision | None = None) -> bytes:
    fr = lang.startswith("fr")
    img, draw = canvas(WIDTH, HEIGHT, BG)
    fighters = view.fighters
    last = view.last
    current = view.current

    _round_track(draw, view, fr)

    # Hexes, names and starting circles.
    corners = set(view.corners)
    blocked = {f.pos for f in fighters if f.out}
    for h in view.hexes:
        cx, cy = centre(h.q, h.r)
        fill = (40, 40, 44) if (h.q, h.r) in blocked else HEX_FILL
        draw.polygon(_hex_points(cx, cy, SIZE - 1.5), fill=fill, outline=HEX_EDGE, width=2)
        if (h.q, h.r) in corners:
            r = SIZE * 0.8
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=START_RING, width=2)
        draw.text((cx, cy - SIZE * 0.64), h.label, font=font(15), fill=MUTED, anchor="mm")

    # The last turn's path and attack.
    if last and last.path:
        pts = [centre(q, r) for q, r in last.path]
        mover = colour(fighters[last.seat].colour)
        if len(pts) > 1:
            draw.line(pts, fill=(15, 15, 15), width=11, joint="curve")
            draw.line(pts, fill=HIGHLIGHT, width=6, joint="curve")
            for k, (x, y) in enumerate(pts[1:], start=1):
                draw.ellipse((x - 9, y - 9, x + 9, y + 9), fill=HIGHLIGHT, outline=(15, 15, 15))
                centred_text(draw, (x, y), str(k), 12, (20, 20, 20), True)
        sx, sy = pts[0]
        draw.ellipse((sx - 11, sy - 11, sx + 11, sy + 11), outline=mover, width=4)

    # The turn being built (a prompt's picture): the steps so far, dashed.
    turn = view.turn
    if turn and len(turn.path) > 1:
        pts = [centre(q, r) for q, r in turn.path]
        mover = colour(fighters[turn.seat].colour)
        for (x0, y0), (x1, y1) in zip(pts, pts[1:], strict=False):
            for k in range(0, 10, 2):
                a, b = k / 10, (k + 1) / 10
                draw.line(
                    (
                        x0 + (x1 - x0) * a,
                        y0 + (y1 - y0) * a,
                        x0 + (x1 - x0) * b,
                        y0 + (y1 - y0) * b,
                    ),
                    fill=mover,
                    width=6,
                )

    # Dropped weapons (under the fighters so a fighter on it still shows).
    occupied = {f.pos for f in fighters}
    for f in fighters:
        if f.disarmed and f.weapon_at and not f.out:
            cx, cy = centre(*f.weapon_at)
            if f.weapon_at in occupied:
                _sword(draw, cx + SIZE * 0.66, cy + SIZE * 0.05, colour(f.colour), 0.24)
            else:
                _sword(draw, cx, cy + SIZE * 0.08, colour(f.colour))

    # Fighters.
    for f in fighters:
        cx, cy = centre(*f.pos)
        fill = colour(f.colour)
        r = SIZE * 0.56
        if f.out:
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=greyed(fill), outline=GREY, width=2)
            draw.line((cx - r, cy - r, cx + r, cy + r), fill=DANGER, width=5)
            draw.line((cx - r, cy + r, cx + r, cy - r), fill=DANGER, width=5)
            continue
        if f.seat == current:
            rr = r + 6
            draw.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), outline=INK, width=3)
        if f.down:
            # Lying pawn: a flattened disc.
            draw.ellipse(
                (cx - r * 1.15, cy - r * 0.55, cx + r * 1.15, cy + r * 0.75),
                fill=fill,
                outline=(15, 15, 15),
                width=2,
            )
        else:
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=(15, 15, 15), width=2)
        centred_text(draw, (cx, cy + 1), hp_label(f.hp), 21, text_on(fill), True)
        tag = _t(SHORT[f.posture], "fr" if fr else "en")
        tag_fill = DANGER if f.down else (25, 25, 30)
        tw = draw.textlength(tag, font=font(TAG_FONT, True)) + 8
        ty = cy + SIZE * 0.68
        draw.rounded_rectangle((cx - tw / 2, ty - 9, cx + tw / 2, ty + 9), radius=5, fill=tag_fill)
        centred_text(draw, (cx, ty), tag, TAG_FONT, INK, True)
        if f.disarmed:
            bx, by = cx + r * 0.85, cy - r * 0.85
            draw.ellipse((bx - 10, by - 10, bx + 10, by + 10), fill=DANGER, outline=(15, 15, 15))
            draw.line((bx - 5, by - 5, bx + 5, by + 5), fill=INK, width=3)
            draw.line((bx - 5, by + 5, bx + 5, by - 5), fill=INK, width=3)
        if f.resting:
            bx, by = cx - r * 0.85, cy - r * 0.85
            draw.ellipse((bx - 10, by - 10, bx + 10, by + 10), fill=OK, outline=(15, 15, 15))
            centred_text(draw, (bx, by), "+", 16, (15, 15, 15), True)

    # The last attack, over the pawns so it stays visible.
    atk = last.attack if last else None
    if atk:
        ax, ay = centre(*atk.at)
        dx, dy = centre(*fighters[atk.defender].pos)
        _arrow(draw, (ax, ay), (dx, dy), DANGER if atk.hit else INK)

    _legend(draw, fr)
    _side_panel(draw, view, fr)
    return png_bytes(img)


def _legend(draw: ImageDraw.ImageDraw, fr: bool) -> None:
    """What the markers mean, under the board."""
    y = HEIGHT - 34
    x = 24.0
    f = font(15)
    items = [
        ("hp", "PV" if fr else "HP"),
        ("path", "dernier trajet" if fr else "last path"),
        ("disarmed", "désarmé" if fr else "disarmed"),
        ("weapon", "arme au sol" if fr else "dropped weapon"),
        ("rest", "repos" if fr else "resting"),
        ("out", "hors combat" if fr else "knocked out"),
    ]
    for kind, text in items:
        if kind == "hp":
            draw.ellipse((x, y - 11, x + 36, y + 11), fill=(200, 200, 205))
            centred_text(draw, (x + 18, y), hp_label(7), 14, (20, 20, 20), True)
            x += 42
        elif kind == "path":
            draw.line((x, y, x + 22, y), fill=HIGHLIGHT, width=6)
            x += 28
        elif kind == "disarmed":
            draw.ellipse((x, y - 9, x + 18, y + 9), fill=DANGER)
            draw.line((x + 5, y - 4, x + 13, y + 4), fill=INK, width=3)
            draw.line((x + 5, y + 4, x + 13, y - 4), fill=INK, width=3)
            x += 24
        elif kind == "weapon":
            draw.line((x, y + 9, x + 18, y - 9), fill=INK, width=4)
            x += 24
        elif kind == "rest":
            draw.ellipse((x, y - 9, x + 18, y + 9), fill=OK)
            centred_text(draw, (x + 9, y), "+", 14, (15, 15, 15), True)
            x += 24
        else:
            draw.line((x, y - 8, x + 16, y + 8), fill=DANGER, width=4)
            draw.line((x, y + 8, x + 16, y - 8), fill=DANGER, width=4)
            x += 22
        draw.text((x, y), text, font=f, fill=MUTED, anchor="lm")
        x += draw.textlength(text, font=f) + 14


def _arrow(
    draw: ImageDraw.ImageDraw,
    a: tuple[float, float],
    b: tuple[float, float],
    fill: tuple[int, int, int],
) -> None:
    ax, ay = a
    bx, by = b
    length = math.hypot(bx - ax, by - ay) or 1.0
    ux, uy = (bx - ax) / length, (by - ay) / length
    sx, sy = ax + ux * SIZE * 0.5, ay + uy * SIZE * 0.5
    ex, ey = bx - ux * SIZE * 0.78, by - uy * SIZE * 0.78
    draw.line((sx, sy, ex, ey), fill=fill, width=6)
    px, py = -uy, ux
    head = [
        (ex + ux * 10, ey + uy * 10),
        (ex - ux * 6 + px * 9, ey - uy * 6 + py * 9),
        (ex - ux * 6 - px * 9, ey - uy * 6 - py * 9),
    ]
    draw.polygon(head, fill=fill)


def _round_track(draw: ImageDraw.ImageDraw, view: ArenaView, fr: bool) -> None:
    rounds = view.rounds
    now = view.round
    draw.text((20, 30), "Arena!", font=font(30, True), fill=INK, anchor="lm")
    draw.text((20, 62), "Tour" if fr else "Round", font=font(16), fill=MUTED, anchor="lm")
    x0, w, gap = 150, 40, 5
    for k in range(1, rounds + 1):
        x = x0 + (k - 1) * (w + gap)
        done = k < now or (k == now and view.finished)
        fill = HIGHLIGHT if k == now else ((90, 92, 100) if done else PANEL)
        draw.rounded_rectangle((x, 22, x + w, 62), radius=7, fill=fill, outline=HEX_EDGE, width=2)
        centred_text(draw, (x + w / 2, 42), str(k), 20, (20, 20, 20) if k == now else INK, True)


def _side_panel(draw: ImageDraw.ImageDraw, view: ArenaView, fr: bool) -> None:
    x0, x1 = 610, WIDTH - 14
    fighters = view.fighters
    lang = "fr" if fr else "en"
    y = 84
    draw.text(
        (x0 + 4, y - 6),
        "Ordre de jeu" if fr else "Turn order",
        font=font(14),
        fill=MUTED,
        anchor="ls",
    )
    draw.rounded_rectangle((x0, y, x1, y + 30 + 50 * len(fighters)), radius=10, fill=PANEL)
    y += 10
    for seat in view.order:
        f = fighters[seat]
        fill = colour(f.colour)
        cy = y + 22
        if f.seat == view.current:
            draw.rounded_rectangle((x0 + 4, y, x1 - 4, y + 46), radius=8, outline=INK, width=2)
        draw.ellipse(
            (x0 + 12, cy - 14, x0 + 40, cy + 14),
            fill=greyed(fill) if f.out else fill,
            outline=(15, 15, 15),
            width=2,
        )
        name = f.name[:14]
        draw.text(
            (x0 + 50, cy - 10),
            name,
            font=font(18, True),
            fill=MUTED if f.out else INK,
            anchor="lm",
        )
        if f.out:
            status = "hors de combat" if fr else "knocked out"
        else:
            bits = [_t(LONG[f.posture], lang)]
            if f.disarmed:
                bits.append("désarmé" if fr else "disarmed")
            if f.resting:
                bits.append("repos" if fr else "resting")
            status = f"{f.hex} · " + ", ".join(bits)
        draw.text(
            (x0 + 50, cy + 12),
            status,
            font=font(15),
            fill=DANGER if f.down or f.disarmed else MUTED,
            anchor="lm",
        )
        hp_bar(draw, x1 - 100, cy - 16, 86, 12, f.hp, 7)
        draw.text(
            (x1 - 14, cy + 8),
            f"{f.hp}/7 {'PV' if fr else 'HP'}",
            font=font(16, True),
            fill=INK,
            anchor="rm",
        )
        y += 50
    y += 34
    _last_turn(draw, view, x0, x1, y, fr)


def _last_turn(
    draw: ImageDraw.ImageDraw, view: ArenaView, x0: int, x1: int, y: int, fr: bool
) -> None:
    last = view.last
    fighters = view.fighters
    lang = "fr" if fr else "en"
    if view.finished:
        winner = view.winner
        msg = (
            (f"Vainqueur : {fighters[winner].name}" if fr else f"Winner: {fighters[winner].name}")
            if winner is not None
            else ("Personne ne gagne" if fr else "Nobody wins")
        )
        draw.rounded_rectangle(
            (x0, HEIGHT - 62, x1, HEIGHT - 14),
            radius=10,
            fill=HIGHLIGHT if winner is not None else DANGER,
        )
        centred_text(draw, ((x0 + x1) / 2, HEIGHT - 38), msg, 22, (20, 20, 20), True)
    if not last:
        draw.text((x0, y), "Premier tour" if fr else "First turn", font=font(18, True), fill=MUTED)
        return
    who = fighters[last.seat]
    head = ("Dernier tour : " if fr else "Last turn: ") + who.name[:14]
    draw.text((x0, y), head, font=font(18, True), fill=colour(who.colour))
    y += 26
    line = f"{_t(LONG.get(last.posture, LONG['garde']), lang)}, {_t(ACTIONS.get(last.action, ('', '')), lang)}"
    if last.healed:
        line += " · +1 PV" if fr else " · +1 HP"
    draw.text((x0, y), line, font=font(15), fill=INK)
    y += 22
    if len(last.path) > 1:
        labels = _labels(view)
        text = " → ".join(labels[h] for h in last.path)
        draw.text((x0, y), text, font=font(15), fill=HIGHLIGHT)
        y += 22
    if last.attack:
        _last_attack(draw, last.attack, fighters, x0, x1, y, fr)


def _last_attack(
    draw: ImageDraw.ImageDraw,
    atk: AttackRecord,
    fighters: list[FighterView],
    x0: int,
    x1: int,
    y: int,
    fr: bool,
) -> None:
    """Both sides' dice and totals, the result, the wound and the special results."""
    y += 4
    d = fighters[atk.defender]
    a = fighters[atk.attacker]
    for who_, dice, total, side in (
        (a, atk.attack_dice, atk.attack_total, "Attaque" if fr else "Attack"),
        (d, atk.defence_dice, atk.defence_total, "Défense" if fr else "Defence"),
    ):
        draw.text((x0, y + 15), f"{side}", font=font(14), fill=MUTED, anchor="lm")
        draw.ellipse((x0 + 70, y + 7, x0 + 86, y + 23), fill=colour(who_.colour))
        x = x0 + 94
        if not dice:
            draw.text(
                (x, y + 15), "aucun dé" if fr else "no dice", font=font(14), fill=MUTED, anchor="lm"
            )
            x += 80
        for v in dice:
            die_face(draw, x, y + 2, 26, v)
            x += 31
        draw.text((x1 - 8, y + 15), f"= {total}", font=font(20, True), fill=INK, anchor="rm")
        y += 34
    if atk.hit:
        unit = "PV" if fr else "HP"
        head = "Touché :" if fr else "Hit:"
        res = f"{head} -{atk.damage} {unit} → {d.name[:12]} {atk.hp_after} {unit}"
        col = DANGER
    else:
        res = "Paré" if fr else "Parried"
        col = OK
    draw.text((x0, y + 4), res, font=font(18, True), fill=col)
    y += 28
    if atk.hit and atk.attack_value is not None and atk.defence_value is not None:
        # The record's values and wound, written out: the rule was applied when it happened.
        av, dv = atk.attack_value, atk.defence_value
        formula = f"{av} - {dv} = {av - dv}"
        if atk.damage != av - dv:
            formula += f" → {atk.damage} (minimum)"
        formula = ("Blessure : " if fr else "Wound: ") + formula
        draw.text((x0, y), formula, font=font(15), fill=MUTED)
        y += 22
    specials: list[str] = []
    if atk.knocked_out:
        specials.append(f"{d.name[:12]} " + ("hors de combat" if fr else "knocked out"))
    if atk.disarmed:
        specials.append(f"{a.name[:12]} " + ("désarmé" if fr else "disarmed"))
    if atk.attacker_fell:
        specials.append(f"{a.name[:12]} " + ("tombe au sol" if fr else "falls down"))
    if atk.defender_fell:
        specials.append(f"{d.name[:12]} " + ("renversé au sol" if fr else "knocked down"))
    for s in specials:
        draw.text((x0, y), "• " + s, font=font(15, True), fill=HIGHLIGHT)
        y += 21


def _labels(view: ArenaView) -> dict[tuple[int, int], str]:
    return {(h.q, h.r): h.label for h in view.hexes}
