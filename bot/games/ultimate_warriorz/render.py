"""The esplanade image: six zones in a ring around the centre, plus a roster.

A pure function of a view, drawn for a phone: a 1024 px image shows about 380 px
wide there, so every text is 28 px or more, nothing is cut, and the image is
cropped to what it holds. Each zone is a box (1 to 6, the centre in the middle)
holding its fighters' badges (name and HP). The roster gives each fighter, on
its first line, HP, popularity points, the first-wound token (gold "3" while it
is there), trophies and the lucky charm (✿ while left); on its second, the
active card (⚡ initiative, ➜ move, ⚔ melee, ➶ ranged, ◆ defence, its special)
and the lasting effects on it (ring, calumet, light suit, spear whirl,
Electroshock, skull). The acting fighter has a gold outline; the eliminated are
listed last, greyed. In a private prompt the legal zones and fighters carry the
buttons' labels. Players, teams, trophies by name and the legend go in the
message text (:func:`board_lines`).
"""

from __future__ import annotations

from PIL import ImageDraw

from bot.engine.decisions import Decision
from bot.games.ultimate_warriorz.view import FighterView, UWView
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
    font,
    png_bytes,
)
from bot.render.fighters import (
    Badge,
    Marks,
    crop,
    draw_zone,
    flow,
    md_escape,
    plain,
    ring_layout,
    wrap,
    zone_height,
)

W = 1024
CENTRE = 6
BOX_W = 320
SPREAD = 340
LINE_H = 42
GOLD = (230, 180, 40)

WORDS = {
    "round": ("Round {r}/{n}", "Round {r}/{n}"),
    "pick": ("choix secret des cartes", "secret card picks"),
    "act": ("compte à rebours ⚡{c}", "countdown ⚡{c}"),
    "place": ("placement", "placement"),
    "draft": ("choix des combattants", "choosing fighters"),
    "over": ("partie terminée", "match over"),
    "stones": ("pierres : {d} {dice}", "stones: {d} {dice}"),
    "centre": ("Centre", "Centre"),
    "zone": ("Zone {z}", "Zone {z}"),
    "out": ("éliminé", "out"),
    "sheet": ("fiche ◆{d}", "sheet ◆{d}"),
    "team": ("Équipe {t}", "Team {t}"),
    "legend": (
        "⚡ initiative · ➜ mouvement · ⚔ corps à corps · ➶ tir · ◆ défense · PP points de "
        "popularité · ③ jeton 1re blessure (3 PP) · ★ trophées · ✿ porte-bonheur disponible",
        "⚡ initiative · ➜ move · ⚔ melee · ➶ ranged · ◆ defence · PP popularity points · "
        "③ first-wound token (3 PP) · ★ trophies · ✿ lucky charm left",
    ),
}

EFFECTS = {
    "ghost-ring": ("intouchable au tir", "cannot be shot"),
    "calumet": ("pas de corps à corps", "no melee on it"),
    "light-suit": ("-1 dé contre lui", "-1 die against it"),
    "spear-whirl": ("défense = 1 dé", "defence = 1 die"),
}


def w(key: str, lang: str, **kw: object) -> str:
    fr, en = WORDS[key]
    return (fr if lang.startswith("fr") else en).format(**kw)


def _rgb(hexcode: str) -> tuple[int, int, int]:
    h = hexcode.lstrip("#")
    return (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16))


def _dim(c: tuple[int, int, int]) -> tuple[int, int, int]:
    g = int(0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2])
    g = (g + GREY[0]) // 2
    return (g, g, g)


def _header_lines(view: UWView, lang: str) -> list[str]:
    parts = [w("round", lang, r=view.round, n=view.last_round)]
    if view.phase == "act" and view.countdown is not None:
        parts.append(w("act", lang, c=view.countdown))
    elif view.phase in ("pick", "place", "draft", "over"):
        parts.append(w(view.phase, lang))
    if view.stones_now and view.phase != "over":
        fr = lang.startswith("fr")
        one = view.stones_now == 1
        dice = ("dé" if one else "dés") if fr else ("die" if one else "dice")
        parts.append(w("stones", lang, d=view.stones_now, dice=dice))
    return flow(parts, font(32, True), W - 40, sep="  ·  ")


def _zone_title(z: int, lang: str) -> str:
    return w("centre", lang) if z == CENTRE else w("zone", lang, z=z + 1)


def _badges(view: UWView, marks: Marks) -> dict[int, list[Badge]]:
    actor = marks.subject or (view.action.fighter if view.action else None)
    out: dict[int, list[Badge]] = {}
    for f in view.fighters:
        if f.alive and f.zone is not None:
            out.setdefault(f.zone, []).append(
                Badge(
                    fid=f.id,
                    name=f.name,
                    hp=f"♥{f.hp}",
                    fill=_rgb(f.colour),
                    outline=HIGHLIGHT if f.id == actor else None,
                    marks=marks.fighter(f.id),
                )
            )
    return out


def _card_line(f: FighterView, lang: str) -> str:
    c = f.active
    if c is None:
        return w("sheet", lang, d=f.defence_now)
    dfc = "?" if f.defence_rolled else str(c.defence)
    return f"⚡{c.initiative} ➜{c.move} ⚔{c.melee_now} ➶{c.ranged_now} ◆{dfc}"


def _special(f: FighterView, lang: str) -> list[str]:
    c = f.active
    return [plain(c.special_name.get(lang))] if c and c.special_name else []


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


CELL_W = (W - 36) // 2
"""The roster has two columns of fighters."""


def _row_lines(f: FighterView, lang: str) -> list[str]:
    """A living fighter's roster lines under its name: card, then effects."""
    first = f"♥{f.hp}  {_card_line(f, lang)}"
    return flow(
        [first, *_special(f, lang), *_effect_words(f, lang)], font(30), CELL_W - 40, sep=" · "
    )


def _stats_width(f: FighterView) -> float:
    fb = font(30, True)
    width = 44 + fb.getlength(f"{f.pp} PP")
    if f.trophies:
        width += fb.getlength(f"★{len(f.trophies)}") + 16
    if f.first_wound:
        width += 38 + 16
    return width


def _stats_own_line(f: FighterView) -> bool:
    """Whether PP, token, trophies and charm need a line of their own (a long name)."""
    return font(30, True).getlength(f.name) + _stats_width(f) + 60 > CELL_W


def _stats_right(draw: ImageDraw.ImageDraw, x: float, y: float, f: FighterView) -> None:
    """PP, the first-wound token, trophies and the charm, right-aligned at ``x``."""
    # A used charm stays drawn, dim, so the symbol's place never moves.
    draw.text((x, y), "✿", font=font(34, True), fill=OK if f.charm else (80, 82, 90), anchor="rm")
    x -= 44
    if f.trophies:
        t = f"★{len(f.trophies)}"
        draw.text((x, y), t, font=font(30, True), fill=GOLD, anchor="rm")
        x -= draw.textlength(t, font=font(30, True)) + 16
    if f.first_wound:
        draw.ellipse((x - 38, y - 19, x, y + 19), fill=GOLD, outline=INK, width=2)
        centred_text(draw, (x - 19, y + 1), "3", 28, (20, 20, 20), True)
        x -= 38 + 16
    pp = f"{f.pp} PP"
    draw.text((x, y), pp, font=font(30, True), fill=INK, anchor="rm")


def _cell_h(f: FighterView, lang: str) -> int:
    return LINE_H * (1 + _stats_own_line(f) + len(_row_lines(f, lang))) + 14


def _pairs(view: UWView) -> list[list[FighterView]]:
    alive = sorted((f for f in view.fighters if f.alive), key=lambda f: f.size)
    return [alive[k : k + 2] for k in range(0, len(alive), 2)]


def _dead_lines(view: UWView) -> list[str]:
    dead = [f"☠ {f.name} {f.pp} PP" for f in view.fighters if not f.alive]
    return flow(dead, font(30, True), W - 40)


def _cell(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    h: float,
    f: FighterView,
    view: UWView,
    lang: str,
    actor: str | None,
) -> None:
    """One living fighter: name and HP; PP, first-wound token, trophies, charm; card; effects."""
    draw.rounded_rectangle(
        (x, y, x + CELL_W, y + h - 8),
        radius=12,
        fill=PANEL,
        outline=HIGHLIGHT if f.id == actor else None,
        width=4,
    )
    draw.rectangle((x, y + 8, x + 12, y + h - 16), fill=_rgb(f.colour), outline=MUTED)
    top = y + 6 + LINE_H / 2
    draw.text((x + 24, top), f.name, font=font(30, True), fill=INK, anchor="lm")
    own = _stats_own_line(f)
    _stats_right(draw, x + CELL_W - 14, top + LINE_H * own, f)
    hp = f"♥{f.hp}"
    for k, line in enumerate(_row_lines(f, lang)):
        ly = top + LINE_H * (k + 1 + own)
        lx = x + 24
        if k == 0 and line.startswith(hp):
            draw.text((lx, ly), hp, font=font(30, True), fill=DANGER, anchor="lm")
            lx += draw.textlength(hp, font=font(30, True))
            line = line[len(hp) :]
        draw.text((lx, ly), line, font=font(30), fill=INK, anchor="lm")


def _roster(
    draw: ImageDraw.ImageDraw, y: float, view: UWView, lang: str, actor: str | None
) -> float:
    for pair in _pairs(view):
        h = max(_cell_h(f, lang) for f in pair)
        for k, f in enumerate(pair):
            _cell(draw, 12 + k * (CELL_W + 12), y, h, f, view, lang, actor)
        y += h
    for line in _dead_lines(view):
        draw.text((20, y + LINE_H / 2), line, font=font(30, True), fill=GREY, anchor="lm")
        y += LINE_H
    return y


def _height(view: UWView, lang: str) -> int:
    rows = sum(max(_cell_h(f, lang) for f in pair) for pair in _pairs(view))
    return rows + LINE_H * len(_dead_lines(view))


def _foot_lines(view: UWView, lang: str) -> list[str]:
    if view.result is not None:
        return wrap(plain(view.result.get(lang)), font(30, True), W - 60)
    return []


def render_arena(view: UWView, lang: str = "en", decision: Decision | None = None) -> bytes:
    """The esplanade of one view; ``decision`` (a private prompt) marks its legal targets."""
    marks = Marks(decision, lang)
    badges = _badges(view, marks)
    heights = [zone_height(BOX_W, marks.zone(z), badges.get(z, [])) for z in range(7)]
    pts, centre_pt, arena_h = ring_layout(heights[:6], heights[CENTRE], SPREAD)
    head = _header_lines(view, lang)
    head_h = 20 + 44 * len(head)
    arena_top = head_h + 12
    arena_bottom = arena_top + arena_h
    foot = _foot_lines(view, lang)
    foot_h = 44 * len(foot) + 30 if foot else 0
    roster_y = arena_bottom + 20 + foot_h
    height = int(roster_y + _height(view, lang) + 20)
    img, draw = canvas(W, height, BG)

    draw.rectangle((0, 0, W, head_h), fill=PANEL)
    for k, line in enumerate(head):
        draw.text((24, 10 + 22 + 44 * k), line, font=font(32, True), fill=INK, anchor="lm")

    def at(z: int) -> tuple[float, float]:
        x, y = centre_pt if z == CENTRE else pts[z]
        return (W / 2 + x, arena_top + y)

    for z in range(6):
        draw.line((at(z), at((z + 1) % 6)), fill=(70, 72, 82), width=8)
        draw.line((at(z), at(CENTRE)), fill=(58, 60, 70), width=6)
    if view.action is not None and len(view.action.visited) > 1:
        draw.line([at(z) for z in view.action.visited], fill=HIGHLIGHT, width=10, joint="curve")
    for z in range(7):
        x, y = at(z)
        draw_zone(
            draw,
            x,
            y,
            BOX_W,
            heights[z],
            _zone_title(z, lang),
            badges.get(z, []),
            marks.zone(z),
            fill=(60, 56, 40) if z == CENTRE else PANEL,
            outline=GOLD if z == CENTRE else MUTED,
            title_ink=INK if z == CENTRE else MUTED,
        )
    if foot:
        by = arena_bottom + 14
        draw.rounded_rectangle(
            (20, by, W - 20, by + foot_h - 8),
            radius=16,
            fill=(20, 20, 24),
            outline=HIGHLIGHT,
            width=4,
        )
        for k, line in enumerate(foot):
            centred_text(draw, (W / 2, by + 33 + 44 * k), line, 30, HIGHLIGHT, True)
    _roster(
        draw, roster_y, view, lang, marks.subject or (view.action.fighter if view.action else None)
    )
    return png_bytes(crop(img, BG))


def board_lines(view: UWView, lang: str = "en") -> list[str]:
    """What the image leaves out or abbreviates, for the message beside it (issue 12 item 8):
    each fighter's player and team, HP, PP, first-wound token (③), trophies by name, charm
    left (✿), card and lasting effects in words; then the legend of the symbols. Short
    enough for the table's text block (about 1000 characters with 8 fighters)."""
    names = {f.id: f.name for f in view.fighters}
    teams = len(view.teams) > 1 and view.mode != "tribal-rumble"
    lines: list[str] = []
    for f in view.fighters:
        who = md_escape(f.player) + (
            ", " + w("team", lang, t="ABCDEFGH"[f.team % 8]) if teams else ""
        )
        parts = [f"**{f.name}** ({who}) " + (f"♥{f.hp}" if f.alive else "☠"), f"{f.pp} PP"]
        tokens = ("③ " if f.first_wound else "") + ("✿" if f.charm else "")
        if tokens:
            parts.append(tokens.strip())
        if f.trophies:
            parts.append(f"★ {', '.join(names.get(t, t) for t in f.trophies)}")
        if f.alive:
            parts.append(_card_line(f, lang))
            parts += [e.get(lang) for e in f.effects]
        lines.append(" · ".join(parts))
    lines.append(w("legend", lang))
    return lines
