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
    canvas,
    centred_text,
    colour,
    font,
    greyed,
    png_bytes,
    text_on,
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
HEADER_H = 76
BOX_W = 320
SPREAD = 340
ROW_H = 58
NET_GREEN = (40, 160, 60)
CENTRE_FILL = (58, 52, 44)

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


def _header(draw: ImageDraw.ImageDraw, view: MAView, lang: str) -> None:
    rnd = view.round
    gong = (
        (230, 190, 60)
        if rnd >= view.last_round
        else ((60, 120, 230) if view.gong_colour == "blue" else (215, 55, 50))
    )
    draw.ellipse((16, 10, 72, 66), fill=gong, outline=INK, width=2)
    centred_text(draw, (44, 38), str(rnd), 32, text_on(gong), True)
    draw.text((86, 38), f"Gong {rnd}/{view.last_round}", font=font(38, True), fill=INK, anchor="lm")
    status = w(view.phase, lang)
    if view.phase == "action":
        status += f" : {view.countdown}" if lang.startswith("fr") else f": {view.countdown}"
    draw.text(
        (W - 16, 38),
        status,
        font=font(32, True),
        fill=HIGHLIGHT if view.phase == "over" else INK,
        anchor="rm",
    )


def _badges(view: MAView, marks: Marks) -> dict[int, list[Badge]]:
    last = view.last
    actor = marks.subject or (last.fighter if last else None)
    targets = set(last.targets) if last else set()
    out: dict[int, list[Badge]] = {}
    for f in view.fighters:
        if not f.alive:
            continue
        outline = HIGHLIGHT if f.id == actor else (DANGER if f.id in targets else None)
        out.setdefault(f.zone, []).append(
            Badge(
                fid=f.id,
                name=f.name,
                hp=f"♥{f.hp}",
                fill=colour(f.colour),
                outline=outline,
                token=NET_GREEN if f.netted else None,
                marks=marks.fighter(f.id),
            )
        )
    return out


def _banner_lines(view: MAView, lang: str) -> list[str]:
    if view.phase != "over" or not view.result:
        return []
    return wrap(plain(view.result.get(lang)), font(32, True), W - 80)


def _roster_row(
    draw: ImageDraw.ImageDraw, y: float, view: MAView, f: FighterView, actor: str | None
) -> None:
    """One fighter: colour, name, HP, card in play, trophies, net; greyed once eliminated."""
    alive = f.alive
    base = colour(f.colour)
    fill = base if alive else greyed(base)
    ink = INK if alive else GREY
    if f.id == actor:
        draw.rounded_rectangle((8, y, W - 8, y + ROW_H - 4), radius=12, outline=HIGHLIGHT, width=4)
    mid = y + ROW_H / 2 - 2
    draw.rounded_rectangle((18, y + 8, 34, y + ROW_H - 12), radius=5, fill=fill)
    name = f.name if alive else f"☠ {f.name}"
    draw.text((46, mid), name, font=font(30, True), fill=ink, anchor="lm")
    x = 46 + draw.textlength(name, font=font(30, True)) + 16
    if view.mode != "ultimate-warrior":
        letter = "ABC"[f.team % 3]
        draw.rounded_rectangle((x, mid - 18, x + 36, mid + 18), radius=8, outline=ink, width=2)
        centred_text(draw, (x + 18, mid), letter, 28, ink, True)
        x += 52
    if alive:
        x = max(x, 246.0)
        hp = f"♥{f.hp}/{f.max_hp}"
        draw.text((x, mid), hp, font=font(30, True), fill=DANGER, anchor="lm")
        x += draw.textlength(hp, font=font(30, True)) + 20
        draw.text((x, mid), _card_line(f), font=font(30), fill=INK, anchor="lm")
    right = W - 20
    if f.netted:
        draw.ellipse((right - 34, mid - 17, right, mid + 17), fill=NET_GREEN, outline=INK, width=2)
        right -= 46
    elif view.phase == "pick" and alive and not f.dragon and f.picked:
        draw.text((right, mid), "✔", font=font(32, True), fill=INK, anchor="rm")
        right -= 46
    if f.trophies:
        draw.text(
            (right, mid),
            f"★{len(f.trophies)}",
            font=font(30, True),
            fill=HIGHLIGHT if alive else GREY,
            anchor="rm",
        )


def render_arena(view: MAView, lang: str = "en", decision: Decision | None = None) -> bytes:
    """The arena image of one view: a pure function (same view and prompt, same bytes).

    ``decision`` (a private prompt) marks its legal zones and fighters with its buttons' labels.
    """
    marks = Marks(decision, lang)
    # Outlined in gold: the fighter this prompt is for, else the last one to act.
    actor = marks.subject or (view.last.fighter if view.last else None)
    n = len(view.zones)
    centre = view.centre
    badges = _badges(view, marks)
    heights = [zone_height(BOX_W, marks.zone(z), badges.get(z, [])) for z in [*range(n), centre]]
    pts, centre_pt, arena_h = ring_layout(heights[:n], heights[n], SPREAD)
    arena_top = HEADER_H + 12
    arena_bottom = arena_top + arena_h
    banner = _banner_lines(view, lang)
    banner_h = 44 * len(banner) + 30 if banner else 0
    roster_y = arena_bottom + 20 + banner_h
    alive = [f for f in view.fighters if f.alive]
    out_lines = flow([f"☠ {f.name}" for f in view.fighters if not f.alive], font(30, True), W - 40)
    height = int(roster_y + ROW_H * (len(alive) + len(out_lines)) + 20)
    img, draw = canvas(W, height, BG)
    _header(draw, view, lang)

    def at(z: int) -> tuple[float, float]:
        x, y = centre_pt if z == centre else pts[z]
        return (W / 2 + x, arena_top + y)

    # Ring links (movement / range), the last action's path, then the zones.
    for i in range(n):
        draw.line((at(i), at((i + 1) % n)), fill=(70, 72, 82), width=8)
        draw.line((at(i), at(centre)), fill=(58, 60, 70), width=6)
    last = view.last
    path = last.path if last else []
    if len(path) > 1:
        draw.line([at(z) for z in path], fill=HIGHLIGHT, width=10, joint="curve")
    hit_zones = set(last.zones) if last else set()
    for i in [*range(n), centre]:
        x, y = at(i)
        owner = view.zones[i].owner if i < n else None
        owner_fill = next((colour(f.colour) for f in view.fighters if f.id == owner), MUTED)
        draw_zone(
            draw,
            x,
            y,
            BOX_W,
            heights[i],
            _zone_title(view, i, lang),
            badges.get(i, []),
            marks.zone(i),
            fill=CENTRE_FILL if i == centre else (46, 49, 57),
            outline=DANGER if i in hit_zones else owner_fill,
            title_ink=INK if i == centre else owner_fill,
        )

    if banner:
        by = arena_bottom + 14
        draw.rounded_rectangle(
            (20, by, W - 20, by + banner_h - 8),
            radius=16,
            fill=(20, 20, 24),
            outline=HIGHLIGHT,
            width=4,
        )
        for k, line in enumerate(banner):
            centred_text(draw, (W / 2, by + 33 + 44 * k), line, 32, HIGHLIGHT, True)

    draw.rectangle((0, roster_y - 6, W, height), fill=(26, 27, 32))
    for k, f in enumerate(alive):
        _roster_row(draw, roster_y + k * ROW_H, view, f, actor)
    y = roster_y + ROW_H * len(alive)
    for k, line in enumerate(out_lines):
        draw.text((20, y + 26 + k * ROW_H), line, font=font(30, True), fill=GREY, anchor="lm")
    return png_bytes(crop(img, BG))


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
