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

from dataclasses import dataclass
from functools import cached_property, lru_cache

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
    font,
    png_bytes,
)
from bot.render.fighters import (
    Badge,
    Colour,
    Marks,
    ZoneBox,
    banner_height,
    draw_banner,
    draw_ring,
    fighter_badge,
    flow,
    md_escape,
    plain,
    put_text,
    ring_height,
    wrap,
)
from bot.render.palette import palette_canvas

W = 1024
CENTRE = 6
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


def _zones(view: UWView, lang: str, marks: Marks, actor: str | None) -> list[ZoneBox]:
    """The six zones then the centre, each with its fighters' badges and the prompt's marks."""
    here: dict[int, list[Badge]] = {}
    for f in view.fighters:
        if f.alive and f.zone is not None:
            badge = fighter_badge(f.id, f.name, f.hp, _rgb(f.colour), marks, actor)
            here.setdefault(f.zone, []).append(badge)
    return [
        ZoneBox(
            title=_zone_title(z, lang),
            badges=tuple(here.get(z, ())),
            marks=tuple(marks.zone(z)),
            fill=(60, 56, 40) if z == CENTRE else PANEL,
            outline=GOLD if z == CENTRE else MUTED,
            title_ink=INK if z == CENTRE else MUTED,
        )
        for z in range(7)
    ]


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


@dataclass(frozen=True)
class _Cell:
    """What a living fighter's roster cell shows: its picture is kept by it, and a fighter
    nothing happened to keeps its cell from one view to the next."""

    name: str
    colour: Colour
    hp: str
    pp: int
    trophies: int
    first_wound: bool
    charm: bool
    lines: tuple[str, ...]
    """Under the name: HP and card, special, effects."""
    actor: bool

    @property
    def own_line(self) -> bool:
        """Whether PP, token, trophies and charm need a line of their own (a long name)."""
        return _stats_own_line(self.name, self.pp, self.trophies, self.first_wound)

    @cached_property
    def height(self) -> int:
        return LINE_H * (1 + self.own_line + len(self.lines)) + 14


@lru_cache(maxsize=1024)
def _stats_own_line(name: str, pp: int, trophies: int, first_wound: bool) -> bool:
    fb = font(30, True)
    width = 44 + fb.getlength(f"{pp} PP")
    if trophies:
        width += fb.getlength(f"★{trophies}") + 16
    if first_wound:
        width += 38 + 16
    return fb.getlength(name) + width + 60 > CELL_W


def _cell_of(f: FighterView, lang: str, actor: str | None) -> _Cell:
    return _Cell(
        name=f.name,
        colour=_rgb(f.colour),
        hp=f"♥{f.hp}",
        pp=f.pp,
        trophies=len(f.trophies),
        first_wound=f.first_wound,
        charm=f.charm,
        lines=tuple(_row_lines(f, lang)),
        actor=f.id == actor,
    )


def _stats_right(draw: ImageDraw.ImageDraw, x: float, y: float, c: _Cell) -> None:
    """PP, the first-wound token, trophies and the charm, right-aligned at ``x``."""
    # A used charm stays drawn, dim, so the symbol's place never moves.
    put_text(draw, (x, y), "✿", 34, OK if c.charm else (80, 82, 90), True, "rm")
    x -= 44
    if c.trophies:
        t = f"★{c.trophies}"
        put_text(draw, (x, y), t, 30, GOLD, True, "rm")
        x -= draw.textlength(t, font=font(30, True)) + 16
    if c.first_wound:
        draw.ellipse((x - 38, y - 19, x, y + 19), fill=GOLD, outline=INK, width=2)
        put_text(draw, (x - 19, y + 1), "3", 28, (20, 20, 20), True, "mm")
        x -= 38 + 16
    put_text(draw, (x, y), f"{c.pp} PP", 30, INK, True, "rm")


def _draw_cell(draw: ImageDraw.ImageDraw, x: int, y: int, h: int, c: _Cell) -> None:
    """One living fighter's cell, ``h`` high with the gap under it: name and HP; PP,
    first-wound token, trophies, charm; card; effects."""
    draw.rounded_rectangle(
        (x, y, x + CELL_W, y + h - 8),
        radius=12,
        fill=PANEL,
        outline=HIGHLIGHT if c.actor else None,
        width=4,
    )
    draw.rectangle((x, y + 8, x + 12, y + h - 16), fill=c.colour, outline=MUTED)
    top = y + 6 + LINE_H / 2
    put_text(draw, (x + 24, top), c.name, 30, INK, True, "lm")
    own = c.own_line
    _stats_right(draw, x + CELL_W - 14, top + LINE_H * own, c)
    for k, line in enumerate(c.lines):
        ly = top + LINE_H * (k + 1 + own)
        lx = x + 24.0
        if k == 0 and line.startswith(c.hp):
            put_text(draw, (lx, ly), c.hp, 30, DANGER, True, "lm")
            lx += font(30, True).getlength(c.hp)
            line = line[len(c.hp) :]
        put_text(draw, (lx, ly), line, 30, INK, False, "lm")


def _rows(view: UWView, lang: str, actor: str | None) -> list[list[_Cell]]:
    """The living fighters' cells, two by row, smallest fighters first."""
    alive = sorted((f for f in view.fighters if f.alive), key=lambda f: f.size)
    cells = [_cell_of(f, lang, actor) for f in alive]
    return [cells[k : k + 2] for k in range(0, len(cells), 2)]


def _dead_lines(view: UWView) -> list[str]:
    dead = [f"☠ {f.name} {f.pp} PP" for f in view.fighters if not f.alive]
    return flow(dead, font(30, True), W - 40)


def _foot_lines(view: UWView, lang: str) -> list[str]:
    if view.result is not None:
        return wrap(plain(view.result.get(lang)), font(30, True), W - 60)
    return []


def render_arena(view: UWView, lang: str = "en", decision: Decision | None = None) -> bytes:
    """The esplanade of one view; ``decision`` (a private prompt) marks its legal targets.

    Drawn at its exact size (nothing to crop): the header band, the ring, the result, the
    roster's rows of two cells, then the eliminated."""
    marks = Marks(decision, lang)
    actor = marks.subject or (view.action.fighter if view.action else None)
    zones = _zones(view, lang, marks, actor)
    head = _header_lines(view, lang)
    head_h = 20 + 44 * len(head)
    foot = _foot_lines(view, lang)
    rows = _rows(view, lang, actor)
    row_h = [max(c.height for c in row) for row in rows]
    dead = _dead_lines(view)
    arena_top = head_h + 12
    arena_h = ring_height(zones)
    roster_y = arena_top + arena_h + 20 + banner_height(foot)
    height = roster_y + sum(row_h) + LINE_H * len(dead) + 4
    img, draw = palette_canvas(W, height, BG)
    draw.rectangle((0, 0, W, head_h), fill=PANEL)
    for k, line in enumerate(head):
        put_text(draw, (24, 10 + 22 + 44 * k), line, 32, INK, True, "lm")
    visited = view.action.visited if view.action is not None else []
    arena_bottom = draw_ring(img, arena_top, zones, visited)
    if foot:
        draw_banner(draw, arena_bottom + 14, foot, 30)
    y = roster_y
    for row, h in zip(rows, row_h, strict=True):
        for k, c in enumerate(row):
            _draw_cell(draw, 12 + k * (CELL_W + 12), y, h, c)
        y += h
    for line in dead:
        put_text(draw, (20, y + LINE_H / 2), line, 30, GREY, True, "lm")
        y += LINE_H
    return png_bytes(img)


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
