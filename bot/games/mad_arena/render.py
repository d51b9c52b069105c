"""The arena image: the ring of zones and the centre as on the table, plus a roster.

A pure function of a view (no state access), drawn for a phone: a 1024 px image
shows about 380 px wide there, so every text is 28 px or more, nothing is cut,
and the image is cropped to what it holds. Each zone is a box titled with the
fighter whose card it is; fighters are badges in their printed colours with
their HP. The roster gives each fighter's HP, card in play (⚡ initiative,
➜ move, ⚔ melee, ➶ ranged, ◆ defence), trophies and the net; the players'
names, trophy points and the legend go in the message text (:func:`board_lines`).
The last action is highlighted: gold outline and path for the actor, red for
its targets. In a private prompt, the legal targets carry the buttons' labels.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import ImageDraw

from bot.engine.decisions import Decision
from bot.games.mad_arena.view import FighterView, MAView
from bot.render.common import (
    BG,
    DANGER,
    GREY,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    colour,
    font,
    greyed,
    png_bytes,
    text_on,
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
HEADER_H = 76
ROW_H = 58
NET_GREEN = (40, 160, 60)
CENTRE_FILL = (58, 52, 44)
ROSTER_BG = (26, 27, 32)

WORDS = {
    "pick": ("Choix secret", "Secret picks"),
    "action": ("Compte à rebours", "Countdown"),
    "over": ("Partie terminée", "Match over"),
    "centre": ("Centre", "Centre"),
    "out": ("éliminé", "out"),
    "by": ("par", "by"),
    "team": ("Équipe", "Team"),
    "legend": (
        "⚡ initiative · ➜ mouvement · ⚔ combat · ➶ tir · ◆ défense · ★ trophées · ✦ botte secrète",
        "⚡ initiative · ➜ move · ⚔ melee · ➶ ranged · ◆ defence · ★ trophies · ✦ secret move",
    ),
    "points": ("pts", "pts"),
    "netted": ("dans le filet", "in the net"),
    "picked": ("carte choisie", "card picked"),
}


def w(key: str, lang: str) -> str:
    fr, en = WORDS[key]
    return fr if lang.startswith("fr") else en


def _card_line(f: FighterView) -> str:
    """The card in play's printed values (the dragon's initiative is the gong's, from the view)."""
    c = f.in_play
    if c is None:
        return f"◆{f.defence}+"
    s = c.stats
    star = " ✦" if c.secret else ""
    return f"⚡{c.initiative} ➜{s['move']} ⚔{s['melee']} ➶{s['ranged']} ◆{s['defence']}+{star}"


def _team(f: FighterView, lang: str) -> str:
    return f"{w('team', lang)} {'ABC'[f.team % 3]}"


def _zone_title(view: MAView, z: int, lang: str) -> str:
    if z == view.centre:
        return w("centre", lang)
    return view.zones[z].name


def _status(view: MAView, lang: str) -> str:
    status = w(view.phase, lang)
    if view.phase == "action":
        status += f" : {view.countdown}" if lang.startswith("fr") else f": {view.countdown}"
    return status


def _gong(view: MAView) -> Colour:
    """The gong's colour: gold for the last round, else the blue or red side up."""
    if view.round >= view.last_round:
        return (230, 190, 60)
    return (60, 120, 230) if view.gong_colour == "blue" else (215, 55, 50)


def _header(draw: ImageDraw.ImageDraw, view: MAView, lang: str) -> None:
    """The gong with the round, "Gong r/n" and the phase."""
    rnd, gong = view.round, _gong(view)
    over = view.phase == "over"
    draw.ellipse((16, 10, 72, 66), fill=gong, outline=INK, width=2)
    put_text(draw, (44, 38), str(rnd), 32, text_on(gong), True, "mm")
    put_text(draw, (86, 38), f"Gong {rnd}/{view.last_round}", 38, INK, True, "lm")
    put_text(draw, (W - 16, 38), _status(view, lang), 32, HIGHLIGHT if over else INK, True, "rm")


def _zones(view: MAView, lang: str, marks: Marks, actor: str | None) -> list[ZoneBox]:
    """The ring's zones then the centre: each titled with the fighter whose card it is and
    edged in that fighter's colour (red: hit by the last action), holding its fighters'
    badges (gold: the actor, red: its targets, green token: netted) and the prompt's marks."""
    last = view.last
    targets = set(last.targets) if last else set()
    hit = set(last.zones) if last else set()
    here: dict[int, list[Badge]] = {}
    for f in view.fighters:
        if f.alive:
            net = NET_GREEN if f.netted else None
            badge = fighter_badge(f.id, f.name, f.hp, colour(f.colour), marks, actor, targets, net)
            here.setdefault(f.zone, []).append(badge)
    n = len(view.zones)
    fills = {f.id: colour(f.colour) for f in view.fighters}
    out: list[ZoneBox] = []
    for i in [*range(n), view.centre]:
        owner = fills.get(view.zones[i].owner, MUTED) if i < n else MUTED
        out.append(
            ZoneBox(
                title=_zone_title(view, i, lang),
                badges=tuple(here.get(i, ())),
                marks=tuple(marks.zone(i)),
                fill=CENTRE_FILL if i == view.centre else PANEL,
                outline=DANGER if i in hit else owner,
                title_ink=INK if i == view.centre else owner,
            )
        )
    return out


def _banner_lines(view: MAView, lang: str) -> list[str]:
    if view.phase != "over" or not view.result:
        return []
    return wrap(plain(view.result.get(lang)), font(32, True), W - 80)


@dataclass(frozen=True)
class _Row:
    """What one fighter's roster row shows: its picture is kept by it, and a fighter
    nothing happened to keeps its row from one view to the next."""

    name: str
    fill: Colour
    alive: bool
    team: str | None
    """The team's letter (none in Ultimate Warrior, every fighter for itself)."""
    hp: str
    card: str
    netted: bool
    picked: bool
    """Its secret pick is made (a tick while the picks are secret)."""
    trophies: int
    actor: bool


def _row_of(view: MAView, f: FighterView, actor: str | None) -> _Row:
    base = colour(f.colour)
    return _Row(
        name=f.name if f.alive else f"☠ {f.name}",
        fill=base if f.alive else greyed(base),
        alive=f.alive,
        team=None if view.mode == "ultimate-warrior" else "ABC"[f.team % 3],
        hp=f"♥{f.hp}/{f.max_hp}",
        card=_card_line(f),
        netted=f.netted,
        picked=view.phase == "pick" and f.alive and not f.dragon and f.picked,
        trophies=len(f.trophies),
        actor=f.id == actor,
    )


def _draw_row(draw: ImageDraw.ImageDraw, y: int, r: _Row) -> None:
    """One fighter: colour, name, team, HP, card in play, trophies, net or pick's tick;
    greyed once eliminated, outlined in gold when acting."""
    ink = INK if r.alive else GREY
    if r.actor:
        draw.rounded_rectangle((8, y, W - 8, y + ROW_H - 4), radius=12, outline=HIGHLIGHT, width=4)
    mid = y + ROW_H / 2 - 2
    draw.rounded_rectangle((18, y + 8, 34, y + ROW_H - 12), radius=5, fill=r.fill)
    put_text(draw, (46, mid), r.name, 30, ink, True, "lm")
    x = 46 + font(30, True).getlength(r.name) + 16
    if r.team is not None:
        draw.rounded_rectangle((x, mid - 18, x + 36, mid + 18), radius=8, outline=ink, width=2)
        put_text(draw, (x + 18, mid), r.team, 28, ink, True, "mm")
        x += 52
    if r.alive:
        x = max(x, 246.0)
        put_text(draw, (x, mid), r.hp, 30, DANGER, True, "lm")
        x += font(30, True).getlength(r.hp) + 20
        put_text(draw, (x, mid), r.card, 30, INK, False, "lm")
    right = W - 20
    if r.netted:
        draw.ellipse((right - 34, mid - 17, right, mid + 17), fill=NET_GREEN, outline=INK, width=2)
        right -= 46
    elif r.picked:
        put_text(draw, (right, mid), "✔", 32, INK, True, "rm")
        right -= 46
    if r.trophies:
        put_text(
            draw, (right, mid), f"★{r.trophies}", 30, HIGHLIGHT if r.alive else GREY, True, "rm"
        )


def render_arena(view: MAView, lang: str = "en", decision: Decision | None = None) -> bytes:
    """The arena image of one view: a pure function (same view and prompt, same bytes).

    ``decision`` (a private prompt) marks its legal zones and fighters with its buttons'
    labels. Drawn at its exact size (nothing to crop): the header, the ring, the result,
    then the roster (the living, then the eliminated).
    """
    marks = Marks(decision, lang)
    # Outlined in gold: the fighter this prompt is for, else the last one to act.
    actor = marks.subject or (view.last.fighter if view.last else None)
    zones = _zones(view, lang, marks, actor)
    banner = _banner_lines(view, lang)
    arena_top = HEADER_H + 12
    roster_y = arena_top + ring_height(zones) + 20 + banner_height(banner)
    rows = [_row_of(view, f, actor) for f in view.fighters if f.alive]
    out_lines = flow([f"☠ {f.name}" for f in view.fighters if not f.alive], font(30, True), W - 40)
    height = roster_y + ROW_H * (len(rows) + len(out_lines)) + 10
    img, draw = palette_canvas(W, height, BG)
    _header(draw, view, lang)
    path = view.last.path if view.last else []
    arena_bottom = draw_ring(img, arena_top, zones, path)
    if banner:
        draw_banner(draw, arena_bottom + 14, banner, 32)
    draw.rectangle((0, roster_y - 6, W, height), fill=ROSTER_BG)
    for k, r in enumerate(rows):
        _draw_row(draw, roster_y + k * ROW_H, r)
    y = roster_y + ROW_H * len(rows)
    for k, line in enumerate(out_lines):
        put_text(draw, (20, y + 26 + k * ROW_H), line, 30, GREY, True, "lm")
    return png_bytes(img)


def board_lines(view: MAView, lang: str = "en") -> list[str]:
    """What the image leaves out, for the message beside it: players, teams, trophy points,
    who eliminated whom, and the legend of the symbols."""
    lines: list[str] = []
    for f in view.fighters:
        player = md_escape(f.player)
        who = player if view.mode == "ultimate-warrior" else f"{player}, {_team(f, lang)}"
        parts = [f"**{f.name}** ({who})"]
        if f.alive:
            parts.append(f"♥{f.hp}/{f.max_hp}")
            parts.append(_card_line(f))
        else:
            by = next((g.name for g in view.fighters if g.id == f.eliminated_by), "?")
            parts.append(f"☠ {w('out', lang)} ({w('by', lang)} {by})")
        if f.trophies:
            names = ", ".join(
                next((g.name for g in view.fighters if g.id == t.fighter), t.fighter)
                for t in f.trophies
            )
            parts.append(f"★{len(f.trophies)} {names} ({f.trophy_points} {w('points', lang)})")
        if f.netted:
            parts.append(w("netted", lang))
        if view.phase == "pick" and f.alive and not f.dragon and f.picked:
            parts.append("✔ " + w("picked", lang))
        lines.append(" · ".join(parts))
    lines.append(w("legend", lang))
    return lines
