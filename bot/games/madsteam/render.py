"""The Madsteam image: the board with every hero, the clans, and a seat's own shelter.

A pure function of the typed view (no state, no rule re-derived: supplies,
feeding cost, comfort-capped survivors and scores are the view's numbers).
1024 px wide with large type, readable on a phone. Heroes are discs in their
clan's colour: a standing hero (played this round) is an upright disc with its
value; a lying one is a flat, outlined oval.
"""

from __future__ import annotations

from PIL import ImageDraw

from bot.games.madsteam.view import MSView, PlaceView, PlayerView
from bot.render.common import (
    BG,
    HIGHLIGHT,
    INK,
    MUTED,
    OK,
    PANEL,
    canvas,
    centred_text,
    fit_text,
    font,
    png_bytes,
    seat_colour,
    text_on,
)

W = 1024
BOARD_H = 640
PANEL_H = 96
SHELTER_H = 430

# Board positions (centres) of the ring, as on the printed board.
POS: dict[str, tuple[int, int]] = {
    "well": (150, 345),
    "armoury": (200, 135),
    "forest": (430, 215),
    "house_a": (650, 135),
    "house_b": (870, 215),
    "factory": (870, 445),
    "supermarket": (620, 545),
    "mine": (360, 525),
}
BOX_W, BOX_H = 220, 150
RES_SHORT = {
    "water": ("Eau", "Wat"),
    "food": ("Nour", "Food"),
    "cans": ("Cons", "Cans"),
    "wood": ("Bois", "Wood"),
    "metal": ("Mét", "Met"),
    "chips": ("Puce", "Chip"),
    "ammo": ("Mun", "Ammo"),
}
PHASES = {
    "shelter-pick": ("Choix des abris", "Shelter choice"),
    "setup": ("Mise en place", "Set-up"),
    "events": ("Événements", "Events"),
    "harvest": ("Récolte", "Harvest"),
    "shelter": ("Abri", "Shelter"),
    "resolve": ("Résolution", "Resolution"),
    "comfort": ("Confort", "Comfort"),
    "over": ("Partie terminée", "Game over"),
}
EDGES = [
    ("well", "armoury"),
    ("armoury", "forest"),
    ("forest", "house_a"),
    ("house_a", "house_b"),
    ("house_b", "factory"),
    ("factory", "supermarket"),
    ("supermarket", "mine"),
    ("mine", "well"),
    ("well", "forest"),
]


def _w(fr: str, en: str, lang: str) -> str:
    return fr if lang.startswith("fr") else en


def _res_line(res: dict[str, int], lang: str) -> str:
    i = 0 if lang.startswith("fr") else 1
    return "  ".join(f"{RES_SHORT[k][i]} {v}" for k, v in res.items())


def _hero(
    draw: ImageDraw.ImageDraw, x: float, y: float, seat: int, value: int, standing: bool
) -> None:
    fill = seat_colour(seat)
    if standing:
        draw.ellipse((x - 17, y - 22, x + 17, y + 22), fill=fill, outline=INK, width=2)
        centred_text(draw, (x, y), str(value), 22, text_on(fill), True)
    else:
        draw.ellipse((x - 22, y - 12, x + 22, y + 12), fill=BG, outline=fill, width=4)
        centred_text(draw, (x, y), str(value), 18, fill, True)


def _place(draw: ImageDraw.ImageDraw, view: MSView, pv: PlaceView, lang: str) -> None:
    cx, cy = POS[pv.id]
    x0, y0 = cx - BOX_W // 2, cy - BOX_H // 2
    hot = view.arrival_place == pv.id
    draw.rounded_rectangle(
        (x0, y0, x0 + BOX_W, y0 + BOX_H),
        radius=14,
        fill=PANEL,
        outline=HIGHLIGHT if hot else MUTED,
        width=4 if hot else 2,
    )
    draw.text((x0 + 10, y0 + 8), pv.name.get(lang), font=font(22, True), fill=INK)
    info = ""
    if pv.supply is not None and pv.resource is not None:
        info = f"{RES_SHORT[pv.resource][0 if lang.startswith('fr') else 1]} {pv.supply}"
    if pv.search_left is not None:
        info = _w(
            f"Fouille {pv.search_left} · Obj {len(pv.objects)}",
            f"Search {pv.search_left} · Obj {len(pv.objects)}",
            lang,
        )
    if pv.slots:
        free = sum(1 for s in pv.slots if s is None)
        info = _w(f"Places libres {free}/4", f"Free slots {free}/4", lang)
    draw.text((x0 + 10, y0 + 36), info, font=font(19), fill=MUTED)
    if pv.gibier_top is not None:
        top = pv.gibier_top
        g = _w(
            f"Gibier F{top.strength} ({pv.gibier_count})",
            f"Prey S{top.strength} ({pv.gibier_count})",
            lang,
        )
        draw.text((x0 + 10, y0 + 60), g, font=font(19), fill=(230, 120, 100))
    for k, h in enumerate(pv.heroes):
        hx = x0 + 28 + (k % 5) * 42
        hy = y0 + 108 + (k // 5) * 34 - (12 if len(pv.heroes) > 5 else 0)
        _hero(draw, hx, hy, h.seat, h.value, h.standing)


def _player_panel(
    draw: ImageDraw.ImageDraw, view: MSView, p: PlayerView, y: int, lang: str
) -> None:
    fill = seat_colour(p.seat)
    draw.rounded_rectangle((12, y + 4, W - 12, y + PANEL_H - 4), radius=12, fill=PANEL)
    draw.rectangle((12, y + 4, 24, y + PANEL_H - 4), fill=fill)
    title = (
        p.name
        + (f" — {p.shelter.get(lang)}" if p.shelter else "")
        + (" ★1er" if p.first and lang.startswith("fr") else (" ★1st" if p.first else ""))
    )
    draw.text((36, y + 10), title, font=font(24, True), fill=INK)
    pts = _w(f"{p.score} PS", f"{p.score} SP", lang)
    draw.text((W - 30, y + 10), pts, font=font(26, True), fill=HIGHLIGHT, anchor="ra")
    line = _w(
        f"Survivants {p.survivors} · Confort {p.comfort} · Nourrir {p.feed_cost} · Objets {len(p.active)}/{len(p.active) + len(p.inactive)} · Évén. {len(p.resolved)}",
        f"Survivors {p.survivors} · Comfort {p.comfort} · Feed {p.feed_cost} · Objects {len(p.active)}/{len(p.active) + len(p.inactive)} · Events {len(p.resolved)}",
        lang,
    )
    draw.text((36, y + 42), line, font=font(20), fill=INK)
    draw.text((36, y + 68), _res_line(p.resources, lang), font=font(19), fill=MUTED)


def _shelter(draw: ImageDraw.ImageDraw, p: PlayerView, y: int, lang: str) -> None:
    draw.rounded_rectangle(
        (12, y, W - 12, y + SHELTER_H - 8),
        radius=14,
        fill=PANEL,
        outline=seat_colour(p.seat),
        width=3,
    )
    shelter = p.shelter.get(lang) if p.shelter else "—"
    draw.text(
        (28, y + 10),
        _w(f"Votre abri : {shelter}", f"Your shelter: {shelter}", lang),
        font=font(26, True),
        fill=INK,
    )
    cw, ch = 240, 120
    for i, room in enumerate(p.rooms):
        rx = 24 + (i % 4) * (cw + 6)
        ry = y + 50 + (i // 4) * (ch + 8)
        draw.rounded_rectangle(
            (rx, ry, rx + cw, ry + ch),
            radius=10,
            fill=BG,
            outline=OK if room.active else MUTED,
            width=3 if room.active else 1,
        )
        draw.text((rx + 8, ry + 6), room.name.get(lang), font=font(20, True), fill=INK)
        draw.text(
            (rx + cw - 8, ry + 6),
            f"-{room.cost}",
            font=font(20, True),
            fill=(200, 120, 220),
            anchor="ra",
        )
        for s in range(room.slots):
            sx = rx + 10 + s * 34
            box = (sx, ry + 38, sx + 26, ry + 64)
            if s < room.survivors:
                draw.rectangle(box, fill=seat_colour(p.seat))
            else:
                draw.rectangle(box, outline=MUTED, width=2)
        for n, text in enumerate(fit_text(room.power.get(lang), font(17), cw - 16, lines=2)):
            draw.text(
                (rx + 8, ry + 74 + n * 21),
                text,
                font=font(17),
                fill=OK if room.active else MUTED,
            )
    oy = y + 50 + 2 * (ch + 8) + 4
    act = (
        ", ".join(
            f"{o.name.get(lang)} ({o.effect.get(lang)})" + (" ✓" if o.used else "")
            for o in p.active
        )
        or "—"
    )
    ina = ", ".join(f"{o.name.get(lang)} ({o.effect.get(lang)})" for o in p.inactive) or "—"
    line_w = W - 56
    active = fit_text(_w(f"Actifs : {act}", f"Active: {act}", lang), font(19), line_w)[0]
    draw.text((28, oy), active, font=font(19), fill=OK)
    draw.text(
        (28, oy + 28),
        fit_text(_w(f"À réparer : {ina}", f"To repair: {ina}", lang), font(19), line_w)[0],
        font=font(19),
        fill=MUTED,
    )
    draw.text(
        (28, oy + 56),
        _w(
            f"Survivants comptés {p.survivors_scored}/{p.survivors} (confort {p.comfort}) · chasse +{p.hunt_bonus}",
            f"Survivors counted {p.survivors_scored}/{p.survivors} (comfort {p.comfort}) · hunt +{p.hunt_bonus}",
            lang,
        ),
        font=font(19),
        fill=INK,
    )


def render_view(view: MSView, lang: str = "en") -> bytes:
    """PNG of the board (every hero lying or standing), each clan, and the seat's shelter."""
    me = next((p for p in view.players if p.seat == view.seat), None)
    height = BOARD_H + 95 + PANEL_H * len(view.players) + (SHELTER_H if me else 0) + 10
    img, draw = canvas(W, height)
    phase = PHASES.get(view.phase, (view.phase, view.phase))
    head = _w(
        f"Madsteam — tour {view.round}/{view.rounds} — {phase[0]}",
        f"Madsteam — round {view.round}/{view.rounds} — {phase[1]}",
        lang,
    )
    draw.text((16, 10), head, font=font(28, True), fill=INK)
    for a, b in EDGES:
        draw.line((*POS[a], *POS[b]), fill=(90, 90, 100), width=8)
    for pv in view.places:
        _place(draw, view, pv, lang)
    y = BOARD_H
    ev = ", ".join(f"{e.name.get(lang)} ({e.effects.get(lang)})" for e in view.events_active) or "—"
    nxt = (
        f"{view.next_event.name.get(lang)} ({view.next_event.effects.get(lang)})"
        if view.next_event
        else "—"
    )
    aside = " · ".join(
        pv.name.get(lang) + _w(" : ", ": ", lang) + ", ".join(t.get(lang) for t in pv.search_aside)
        for pv in view.places
        if pv.search_aside
    )
    line_w = W - 32
    draw.text(
        (16, y),
        fit_text(_w(f"Événements en jeu : {ev}", f"Events in play: {ev}", lang), font(21), line_w)[
            0
        ],
        font=font(21),
        fill=(240, 160, 90),
    )
    draw.text(
        (16, y + 30),
        fit_text(_w(f"Prochain : {nxt}", f"Next: {nxt}", lang), font(21), line_w)[0],
        font=font(21),
        fill=MUTED,
    )
    aside_text = _w(f"Fouilles écartées — {aside}", f"Search cards set aside — {aside}", lang)
    draw.text((16, y + 60), fit_text(aside_text, font(18), line_w)[0], font=font(18), fill=MUTED)
    y += 95
    for p in view.players:
        _player_panel(draw, view, p, y, lang)
        y += PANEL_H
    if me is not None:
        _shelter(draw, me, y + 4, lang)
    return png_bytes(img)
