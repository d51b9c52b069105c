"""The Arena! board picture for a phone: a pure function of the view (PNG bytes, 1024 px wide).

A phone shows the image about 380 px wide, so the picture keeps only what reads at that
size (issue 11 item 5): the 37-hex rosette across the whole width with hex names at
28 px or more, the pawns (colour, HP, posture word, disarmed/resting badges, knocked out),
dropped weapons, the last turn's path and attack, the round track and, at the end, the
winner's colour. Names, the roster and the last turn's dice go to the message text
(:func:`board_lines`). In a private prompt the decision's destinations carry their
buttons' labels (the hex names) on a yellow tag, and its attack targets a ⚔ badge.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from bot.engine.decisions import Decision
from bot.games.arena.args import Attack, Move, Step
from bot.games.arena.board import Hex
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
    centred_text,
    colour,
    drawing_cache,
    font,
    greyed,
    png_bytes,
    put_text,
    text_on,
)
from bot.render.palette import draw_on, palette_canvas

WIDTH = 1024
SIZE = 82  # hex radius (pointy top), px: 7 hexes span 994 px
SQ3 = math.sqrt(3)
HEADER = 92
BOARD_X = WIDTH // 2
BOARD_Y = HEADER + 10 + int(SIZE * 4.5 + SIZE)
BOARD_BOTTOM = BOARD_Y + int(SIZE * 4.5 + SIZE)
BANNER_H = 64
"""The picture ends under the rosette (and the winner's banner): no empty band to crop."""
HEX_FILL = (62, 66, 78)
HEX_EDGE = (95, 100, 115)
BLOCKED_FILL = (40, 40, 44)
MARK_FILL = (112, 98, 34)
START_RING = (130, 135, 150)
LABEL_SIZE = 28
HP_SIZE = 30
TAG_SIZE = 28
PAWN_R = 33
HEART = "♥"
SWORDS = "⚔"


def hp_label(hp: int) -> str:
    """What a pawn shows: its HP with a heart, so it never reads as a seat or rank number."""
    return f"{hp}{HEART}"


SHORT: dict[str, tuple[str, str]] = {
    "garde": ("GARDE", "GUARD"),
    "defensive": ("DÉF", "DEF"),
    "balancee": ("BAL", "BAL"),
    "agressive": ("AGR", "AGG"),
    "dechainee": ("DÉCH", "UNL"),
    "sol": ("SOL", "DOWN"),
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
DOTS: dict[str, str] = {
    "red": "🔴",
    "blue": "🔵",
    "green": "🟢",
    "yellow": "🟡",
    "violet": "🟣",
    "orange": "🟠",
    "brown": "🟤",
    "white": "⚪",
    "black": "⚫",
}
"""A pawn's colour in the message text, so a reader matches a name with a pawn."""


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


# --- a prompt's marks ---------------------------------------------------------------------
class Marks:
    """What a private prompt marks: destination hexes (their label is the hex name on the
    buttons) and attacked seats. Read from the options' typed args, never their ids."""

    def __init__(self, decision: Decision | None) -> None:
        self.hexes: set[Hex] = set()
        self.targets: set[int] = set()
        if decision is None:
            return
        for o in decision.options:
            match o.args:
                case Move(to=to, target=target):
                    self.hexes.add(to)
                    if target is not None:
                        self.targets.add(target)
                case Step(to=to):
                    self.hexes.add(to)
                case Attack(target=target):
                    self.targets.add(target)
                case _:
                    pass


def render_board(view: ArenaView, lang: str = "en", decision: Decision | None = None) -> bytes:
    fr = lang.startswith("fr")
    marks = Marks(decision)
    height = BOARD_BOTTOM + 12 + (BANNER_H + 12 if view.finished else 0)
    labelled = tuple((h.q, h.r, h.label) for h in view.hexes)
    track = (view.round, view.rounds, view.finished)
    img = _base(labelled, tuple(view.corners), height, track).copy()
    draw = draw_on(img)
    fighters = view.fighters
    last = view.last

    # The empty rosette comes drawn with its names; the hexes that show something more
    # (blocked, a destination, a pawn, a path) are redrawn.
    corners = set(view.corners)
    blocked = {f.pos for f in fighters if f.out}
    occupied = {f.pos for f in fighters}
    paths: set[Hex] = set()
    if last and len(last.path) > 1:
        paths.update(last.path)
    turn = view.turn
    if turn and len(turn.path) > 1:
        paths.update(turn.path)
    redrawn = blocked | marks.hexes | occupied | paths
    for at in sorted(redrawn):
        cx, cy = centre(*at)
        fill = BLOCKED_FILL if at in blocked else (MARK_FILL if at in marks.hexes else HEX_FILL)
        edge = HIGHLIGHT if at in marks.hexes else HEX_EDGE
        _hex(draw, cx, cy, fill, edge, at in corners)

    if last and len(last.path) > 1:
        _path(draw, [centre(q, r) for q, r in last.path], HIGHLIGHT, dashed=False)
    if turn and len(turn.path) > 1:
        _path(draw, [centre(q, r) for q, r in turn.path], colour(fighters[turn.seat].colour), True)

    # Hex names over the paths: a destination's name on its yellow tag (its buttons' label).
    for h in view.hexes:
        at = (h.q, h.r)
        if at not in redrawn:
            continue
        cx, cy = centre(*at)
        ly = cy - SIZE * 0.6 if at in occupied else cy
        if at in marks.hexes:
            _tag(draw, cx, ly, h.label, HIGHLIGHT, (20, 20, 20))
        elif at in paths and at not in occupied:
            _tag(draw, cx, ly, h.label, HEX_FILL, INK)
        else:
            centred_text(draw, (cx, ly), h.label, LABEL_SIZE, MUTED)

    # Dropped weapons (under the fighters so a fighter on it still shows).
    for f in fighters:
        if f.disarmed and f.weapon_at and not f.out:
            cx, cy = centre(*f.weapon_at)
            if f.weapon_at in occupied:
                _sword(draw, cx + SIZE * 0.62, cy + SIZE * 0.05, colour(f.colour), 0.2)
            else:
                _sword(draw, cx, cy + SIZE * 0.32, colour(f.colour), 0.3)

    for f in fighters:
        _pawn(draw, f, view.current, fr, f.seat in marks.targets)

    atk = last.attack if last else None
    if atk:
        _arrow(
            draw, centre(*atk.at), centre(*fighters[atk.defender].pos), DANGER if atk.hit else INK
        )

    if view.finished:
        _winner(draw, view, fr, BOARD_BOTTOM + 12)
    return png_bytes(img)


def _hex(
    draw: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    fill: tuple[int, int, int],
    edge: tuple[int, int, int],
    corner: bool,
) -> None:
    draw.polygon(_hex_points(cx, cy, SIZE - 2), fill=fill, outline=edge, width=3)
    if corner:
        r = SIZE * 0.82
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=START_RING, width=2)


@drawing_cache
def _base(
    hexes: tuple[tuple[int, int, str], ...],
    corners: tuple[Hex, ...],
    height: int,
    track: tuple[int, int, bool],
) -> Image.Image:
    """The empty rosette with its hex names, the title and the round track (round, rounds,
    finished) at ``height``, drawn once: every picture starts from a copy (rendering is
    most of the bot's CPU, issue 16 item 3)."""
    img, draw = palette_canvas(WIDTH, height, BG)
    _round_track(draw, *track)
    starts = set(corners)
    for q, r, name in hexes:
        cx, cy = centre(q, r)
        _hex(draw, cx, cy, HEX_FILL, HEX_EDGE, (q, r) in starts)
        centred_text(draw, (cx, cy), name, LABEL_SIZE, MUTED)
    return img


def _tag(
    draw: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    text: str,
    fill: tuple[int, int, int],
    ink: tuple[int, int, int],
    size: int = LABEL_SIZE,
) -> None:
    """``text`` bold on a rounded tag centred at (cx, cy)."""
    f = font(size, True)
    w = draw.textlength(text, font=f) + 14
    h = size + 8
    draw.rounded_rectangle((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2), radius=8, fill=fill)
    put_text(draw, (cx, cy), text, size, ink, True, "mm")


def _pawn(
    draw: ImageDraw.ImageDraw, f: FighterView, current: int | None, fr: bool, aimed: bool
) -> None:
    cx, cy = centre(*f.pos)
    cy += SIZE * 0.04
    fill = colour(f.colour)
    r = PAWN_R
    if f.out:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=greyed(fill), outline=GREY, width=2)
        draw.line((cx - r, cy - r, cx + r, cy + r), fill=DANGER, width=6)
        draw.line((cx - r, cy + r, cx + r, cy - r), fill=DANGER, width=6)
        return
    if f.seat == current:
        rr = r + 7
        draw.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), outline=INK, width=4)
    if aimed:
        rr = r + 7
        draw.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), outline=DANGER, width=6)
    if f.down:
        draw.ellipse(
            (cx - r * 1.25, cy - r * 0.7, cx + r * 1.25, cy + r * 0.8),
            fill=fill,
            outline=(15, 15, 15),
            width=2,
        )
    else:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=(15, 15, 15), width=2)
    centred_text(draw, (cx, cy + 1), hp_label(f.hp), HP_SIZE, text_on(fill), True)
    tag = _t(SHORT[f.posture], "fr" if fr else "en")
    _tag(draw, cx, cy + SIZE * 0.62, tag, DANGER if f.down else (25, 25, 30), INK, TAG_SIZE)
    if f.disarmed:
        bx, by = cx + r * 0.95, cy - r * 0.95
        draw.ellipse((bx - 13, by - 13, bx + 13, by + 13), fill=DANGER, outline=(15, 15, 15))
        draw.line((bx - 6, by - 6, bx + 6, by + 6), fill=INK, width=4)
        draw.line((bx - 6, by + 6, bx + 6, by - 6), fill=INK, width=4)
    if f.resting:
        bx, by = cx - r * 0.95, cy - r * 0.95
        draw.ellipse((bx - 13, by - 13, bx + 13, by + 13), fill=OK, outline=(15, 15, 15))
        draw.line((bx - 7, by, bx + 7, by), fill=(15, 15, 15), width=4)
        draw.line((bx, by - 7, bx, by + 7), fill=(15, 15, 15), width=4)
    if aimed:
        bx, by = cx + r * 1.3, cy + r * 0.1
        draw.ellipse((bx - 19, by - 19, bx + 19, by + 19), fill=DANGER, outline=(15, 15, 15))
        centred_text(draw, (bx, by + 1), SWORDS, 28, INK, True)


def _path(
    draw: ImageDraw.ImageDraw,
    pts: list[tuple[float, float]],
    fill: tuple[int, int, int],
    dashed: bool,
) -> None:
    """A path hex centre to hex centre: solid for the last turn, dashed for the turn being
    built; a dot at each step and a ring at the start."""
    if dashed:
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
                    fill=fill,
                    width=8,
                )
    else:
        draw.line(pts, fill=(15, 15, 15), width=14, joint="curve")
        draw.line(pts, fill=fill, width=8, joint="curve")
        for x, y in pts[1:]:
            draw.ellipse((x - 11, y - 11, x + 11, y + 11), fill=fill, outline=(15, 15, 15))
    sx, sy = pts[0]
    draw.ellipse((sx - 14, sy - 14, sx + 14, sy + 14), outline=fill, width=5)


def _sword(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, fill: tuple[int, int, int], scale: float
) -> None:
    """A dropped-weapon glyph in its owner's colour."""
    s = SIZE * scale
    draw.line((cx - s, cy + s, cx + s, cy - s), fill=(20, 20, 20), width=9)
    draw.line((cx - s, cy + s, cx + s, cy - s), fill=fill, width=5)
    gx, gy = cx - s * 0.45, cy + s * 0.45
    draw.line((gx - s * 0.35, gy - s * 0.35, gx + s * 0.35, gy + s * 0.35), fill=INK, width=5)


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
    sx, sy = ax + ux * PAWN_R, ay + uy * PAWN_R
    ex, ey = bx - ux * (PAWN_R + 14), by - uy * (PAWN_R + 14)
    draw.line((sx, sy, ex, ey), fill=(15, 15, 15), width=12)
    draw.line((sx, sy, ex, ey), fill=fill, width=7)
    px, py = -uy, ux
    head = [
        (ex + ux * 14, ey + uy * 14),
        (ex - ux * 8 + px * 13, ey - uy * 8 + py * 13),
        (ex - ux * 8 - px * 13, ey - uy * 8 - py * 13),
    ]
    draw.polygon(head, fill=fill, outline=(15, 15, 15))


def _round_track(draw: ImageDraw.ImageDraw, now: int, rounds: int, finished: bool) -> None:
    """The title and the round track: the current round in yellow, played rounds dimmed."""
    put_text(draw, (14, HEADER / 2), "Arena!", 40, INK, True)
    x0 = 178
    step = (WIDTH - 14 - x0) / rounds
    w = step - 8
    for k in range(1, rounds + 1):
        x = x0 + (k - 1) * step
        done = k < now or (k == now and finished)
        current = k == now
        fill = HIGHLIGHT if current else ((90, 92, 100) if done else PANEL)
        draw.rounded_rectangle(
            (x, 14, x + w, HEADER - 14), radius=9, fill=fill, outline=HEX_EDGE, width=2
        )
        centred_text(
            draw, (x + w / 2, HEADER / 2), str(k), 32, (20, 20, 20) if current else INK, True
        )


def _winner(draw: ImageDraw.ImageDraw, view: ArenaView, fr: bool, y: float) -> None:
    """The end: the winner's pawn colour and a word (names are in the message text)."""
    winner = view.winner
    if winner is not None:
        text = "Vainqueur" if fr else "Winner"
        fill = colour(view.fighters[winner].colour)
    else:
        text = "Personne ne gagne" if fr else "Nobody wins"
        fill = DANGER
    f = font(36, True)
    w = draw.textlength(text, font=f) + (90 if winner is not None else 40)
    x0 = (WIDTH - w) / 2
    draw.rounded_rectangle(
        (x0, y, x0 + w, y + BANNER_H), radius=12, fill=HIGHLIGHT if winner is not None else DANGER
    )
    x = x0 + 20
    if winner is not None:
        draw.ellipse((x, y + 14, x + 36, y + 50), fill=fill, outline=(15, 15, 15), width=3)
        x += 52
    put_text(draw, (x, y + 32), text, 36, (20, 20, 20), True)


# --- the message text -----------------------------------------------------------------------
def board_lines(view: ArenaView, lang: str = "en") -> list[str]:
    """What the picture leaves to the message text: the roster in turn order (colour dot,
    name, hex, HP, posture and markers), the last turn with both sides' dice, the wound
    and the special results, and the winner."""
    fr = lang.startswith("fr")
    hp = "PV" if fr else "HP"
    lines: list[str] = []
    for seat in view.order:
        f = view.fighters[seat]
        dot = DOTS.get(f.colour, "⚪")
        if f.out:
            lines.append(f"✖ {dot} {f.name} · {'hors de combat' if fr else 'knocked out'}")
            continue
        bits = [_t(LONG[f.posture], lang)]
        if f.disarmed:
            bits.append("désarmé" if fr else "disarmed")
        if f.resting:
            bits.append("repos" if fr else "resting")
        arrow = "▶ " if seat == view.current and not view.finished else ""
        lines.append(f"{arrow}{dot} {f.name} · {f.hex} · {f.hp}/7 {hp} · {', '.join(bits)}")
    last = view.last
    if last is not None:
        lines += _last_lines(view, lang)
    if view.finished:
        w = view.winner
        if w is not None:
            name = view.fighters[w].name
            lines.append(
                f"🏆 {'Vainqueur' if fr else 'Winner'} : {name}" if fr else f"🏆 Winner: {name}"
            )
        else:
            lines.append("Personne ne gagne." if fr else "Nobody wins.")
    return lines


def _last_lines(view: ArenaView, lang: str) -> list[str]:
    fr = lang.startswith("fr")
    last = view.last
    assert last is not None
    fighters = view.fighters
    who = fighters[last.seat]
    head = "Dernier tour" if fr else "Last turn"
    line = (
        f"{head}{' ' if fr else ''}: {DOTS.get(who.colour, '⚪')} {who.name}, "
        f"{_t(LONG.get(last.posture, LONG['garde']), lang).lower()}, "
        f"{_t(ACTIONS.get(last.action, ('', '')), lang)}"
    )
    if last.healed:
        line += " · +1 PV" if fr else " · +1 HP"
    if len(last.path) > 1:
        labels = {(h.q, h.r): h.label for h in view.hexes}
        line += " · " + " → ".join(labels[h] for h in last.path)
    out = [line]
    if last.attack:
        out += _attack_lines(last.attack, fighters, fr)
    return out


def _attack_lines(atk: AttackRecord, fighters: list[FighterView], fr: bool) -> list[str]:
    """Both sides' dice and totals, the result with the wound written out, the specials."""
    a, d = fighters[atk.attacker], fighters[atk.defender]
    unit = "PV" if fr else "HP"

    def dice(values: list[int]) -> str:
        return " ".join(f"`{v}`" for v in values) if values else ("aucun dé" if fr else "no dice")

    out = [
        f"⚔️ {'Attaque' if fr else 'Attack'} {a.name} : {dice(atk.attack_dice)} = **{atk.attack_total}**"
        f" · {'Défense' if fr else 'Defence'} {d.name} : {dice(atk.defence_dice)} = **{atk.defence_total}**"
        if fr
        else f"⚔️ Attack {a.name}: {dice(atk.attack_dice)} = **{atk.attack_total}**"
        f" · Defence {d.name}: {dice(atk.defence_dice)} = **{atk.defence_total}**"
    ]
    if atk.hit:
        res = f"{'Touché' if fr else 'Hit'}{' ' if fr else ''}: -{atk.damage} {unit} → {d.name} {'à' if fr else 'at'} {atk.hp_after} {unit}"
        if atk.attack_value is not None and atk.defence_value is not None:
            av, dv = atk.attack_value, atk.defence_value
            formula = f"{av} - {dv} = {av - dv}"
            if atk.damage != av - dv:
                formula += f" → {atk.damage} (minimum)"
            res += f" ({'blessure' if fr else 'wound'} {formula})"
    else:
        res = "Paré" if fr else "Parried"
    specials: list[str] = []
    if atk.knocked_out:
        specials.append(f"{d.name} " + ("hors de combat" if fr else "knocked out"))
    if atk.disarmed:
        specials.append(f"{a.name} " + ("désarmé" if fr else "disarmed"))
    if atk.attacker_fell:
        specials.append(f"{a.name} " + ("tombe au sol" if fr else "falls down"))
    if atk.defender_fell:
        specials.append(f"{d.name} " + ("renversé au sol" if fr else "knocked down"))
    if specials:
        res += " · " + " · ".join(specials)
    out.append(res)
    return out
