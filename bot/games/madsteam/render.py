"""The Madsteam image: the board with every hero, the clans, and a seat's own shelter.

A pure function of the typed view (no state, no rule re-derived: supplies,
feeding cost, comfort-capped survivors and scores are the view's numbers),
drawn for a phone: a 1024 px image shows about 380 px wide there, so every text
is 28 px or more, nothing is cut, and the image is cropped to what it holds.

The eight places sit on the ring of a 3x3 grid in the printed order (Well,
Armoury, Forest, House A, House B, Factory, Supermarket, Mine), linked where a
hero may step, the Well-Forest shortcut across the corner; the round and phase
sit in the middle. Heroes are discs in their clan's colour: a standing hero
(played this round) is an upright disc with its value, a lying one a flat
outlined oval. In a private prompt the places a hero may go carry the buttons'
labels. Events, set-aside search cards, objects' effects and full resource
names go in the message text (:func:`board_lines`).
"""

from __future__ import annotations

from PIL import ImageDraw

from bot.engine.decisions import Decision
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
    font,
    png_bytes,
    seat_colour,
    text_on,
)
from bot.render.fighters import Marks, crop, draw_tags, flow, md_escape, tags_height, wrap

W = 1024
GAP = 26
CELL_W = (W - 2 * 12 - 2 * GAP) // 3
LINE = 40
PREY = (240, 130, 110)
ARRIVAL = (240, 160, 90)
LINK = (96, 98, 110)

GRID: dict[str, tuple[int, int]] = {
    "armoury": (0, 0),
    "forest": (1, 0),
    "house_a": (2, 0),
    "house_b": (2, 1),
    "factory": (2, 2),
    "supermarket": (1, 2),
    "mine": (0, 2),
    "well": (0, 1),
}
"""The ring of places on the grid's border, clockwise as on the printed board."""
EDGES = [
    ("well", "armoury"),
    ("armoury", "forest"),
    ("forest", "house_a"),
    ("house_a", "house_b"),
    ("house_b", "factory"),
    ("factory", "supermarket"),
    ("supermarket", "mine"),
    ("mine", "well"),
]
SHORTCUT = ("well", "forest")

RES_SHORT = {
    "water": ("Eau", "Water"),
    "food": ("Nourr.", "Food"),
    "cans": ("Conserves", "Cans"),
    "wood": ("Bois", "Wood"),
    "metal": ("Métal", "Metal"),
    "chips": ("Puces", "Chips"),
    "ammo": ("Munitions", "Ammo"),
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


def _w(fr: str, en: str, lang: str) -> str:
    return fr if lang.startswith("fr") else en


def _res(r: str, lang: str) -> str:
    return RES_SHORT[r][0 if lang.startswith("fr") else 1]


# --- the board ----------------------------------------------------------------------------
def _place_lines(pv: PlaceView, lang: str) -> list[tuple[str, tuple[int, int, int]]]:
    """A place's lines under its name: supply, search cards and objects, slots, prey."""
    out: list[tuple[str, tuple[int, int, int]]] = []
    if pv.supply is not None and pv.resource is not None:
        out.append((f"{_res(pv.resource, lang)} {pv.supply}", INK))
    if pv.search_left is not None:
        out.append((_w(f"Fouille {pv.search_left}", f"Search {pv.search_left}", lang), INK))
        if pv.objects:
            out.append((_w(f"Objets {len(pv.objects)}", f"Objects {len(pv.objects)}", lang), INK))
    if pv.slots:
        free = sum(1 for s in pv.slots if s is None)
        out.append(
            (_w(f"Places {free}/{len(pv.slots)}", f"Slots {free}/{len(pv.slots)}", lang), INK)
        )
    if pv.gibier_top is not None:
        top = pv.gibier_top
        out.append(
            (
                _w(
                    f"Gibier F{top.strength} ({pv.gibier_count})",
                    f"Prey S{top.strength} ({pv.gibier_count})",
                    lang,
                ),
                PREY,
            )
        )
    return out


HERO_W = 60
HERO_ROW = 62


def _hero_rows(pv: PlaceView) -> int:
    per_row = max(1, (CELL_W - 16) // (HERO_W + 2))
    return -(-len(pv.heroes) // per_row)


def _cell_height(pv: PlaceView, lang: str, marks: Marks) -> int:
    h = 14 + LINE + LINE * len(_place_lines(pv, lang))
    h += HERO_ROW * _hero_rows(pv) + 10
    h += tags_height(marks.zone(pv.id), CELL_W - 20)
    return h + 8


def _hero(
    draw: ImageDraw.ImageDraw, x: float, y: float, seat: int, value: int, standing: bool
) -> None:
    """A hero centred at (x, y): upright filled disc when standing, flat outlined oval lying."""
    fill = seat_colour(seat)
    if standing:
        draw.ellipse((x - 24, y - 29, x + 24, y + 29), fill=fill, outline=INK, width=2)
        centred_text(draw, (x, y), str(value), 30, text_on(fill), True)
    else:
        draw.ellipse((x - 29, y - 19, x + 29, y + 19), fill=BG, outline=fill, width=5)
        centred_text(draw, (x, y), str(value), 28, fill, True)


def _place(
    draw: ImageDraw.ImageDraw,
    x0: float,
    y0: float,
    h: float,
    view: MSView,
    pv: PlaceView,
    lang: str,
    marks: Marks,
    movable: set[tuple[int, str, int]],
) -> None:
    labels = marks.zone(pv.id)
    hot = view.arrival_place == pv.id
    draw.rounded_rectangle(
        (x0, y0, x0 + CELL_W, y0 + h),
        radius=16,
        fill=PANEL,
        outline=HIGHLIGHT if labels else (ARRIVAL if hot else MUTED),
        width=7 if (labels or hot) else 2,
    )
    y = y0 + 14
    draw.text(
        (x0 + 14, y + LINE / 2), pv.name.get(lang), font=font(32, True), fill=INK, anchor="lm"
    )
    y += LINE
    for text, ink in _place_lines(pv, lang):
        draw.text((x0 + 14, y + LINE / 2), text, font=font(28), fill=ink, anchor="lm")
        y += LINE
    per_row = max(1, (CELL_W - 16) // (HERO_W + 2))
    for k, hv in enumerate(pv.heroes):
        hx = x0 + 12 + HERO_W / 2 + (k % per_row) * (HERO_W + 2)
        hy = y + HERO_ROW / 2 + (k // per_row) * HERO_ROW
        _hero(draw, hx, hy, hv.seat, hv.value, hv.standing)
        if not hv.standing and (hv.seat, pv.id, hv.value) in movable:
            draw.ellipse((hx - 31, hy - 23, hx + 31, hy + 23), outline=HIGHLIGHT, width=4)
    y += HERO_ROW * _hero_rows(pv) + 10
    draw_tags(draw, x0 + 10, y, CELL_W - 20, labels)


def _centre(
    draw: ImageDraw.ImageDraw, x0: float, y0: float, h: float, view: MSView, lang: str
) -> None:
    """The round and the phase in the middle of the ring (clear of the shortcut's corner)."""
    phase = PHASES.get(view.phase, (view.phase, view.phase))
    cx, cy = x0 + CELL_W / 2 + 14, y0 + h / 2 + 10
    draw.text(
        (cx, cy - 28),
        _w(f"Tour {view.round}/{view.rounds}", f"Round {view.round}/{view.rounds}", lang),
        font=font(36, True),
        fill=INK,
        anchor="mm",
    )
    lines = wrap(_w(phase[0], phase[1], lang), font(30, True), CELL_W - 40)
    for k, line in enumerate(lines):
        draw.text((cx, cy + 20 + 36 * k), line, font=font(30, True), fill=HIGHLIGHT, anchor="mm")


def _rows(view: MSView, lang: str, marks: Marks) -> list[int]:
    """Each grid row's height: its tallest place (the middle row holds the round too)."""
    row_h = [0, 150, 0]
    for pv in view.places:
        r = GRID[pv.id][1]
        row_h[r] = max(row_h[r], _cell_height(pv, lang, marks))
    return row_h


def _movable(view: MSView, decision: Decision | None) -> set[tuple[int, str, int]]:
    """The heroes a move prompt's options stand up, as (seat, place, value): ringed in gold."""
    if decision is None:
        return set()
    p = next((p for p in view.players if p.seat == decision.seat), None)
    out: set[tuple[int, str, int]] = set()
    for opt in decision.options:
        hero = getattr(opt.args, "hero", None)
        if p is not None and isinstance(hero, int) and 0 <= hero < len(p.heroes):
            h = p.heroes[hero]
            out.add((p.seat, h.place, h.value))
    return out


def _board(
    draw: ImageDraw.ImageDraw,
    top: float,
    view: MSView,
    lang: str,
    marks: Marks,
    movable: set[tuple[int, str, int]],
) -> float:
    """The places on the grid; returns the y below it."""
    places = {pv.id: pv for pv in view.places}
    row_h = _rows(view, lang, marks)
    ys = [top, top + row_h[0] + GAP, top + row_h[0] + row_h[1] + 2 * GAP]
    xs = [12 + c * (CELL_W + GAP) for c in range(3)]

    def box(pid: str) -> tuple[float, float, float, float]:
        c, r = GRID[pid]
        return (xs[c], ys[r], xs[c] + CELL_W, ys[r] + row_h[r])

    for a, b in [*EDGES, SHORTCUT]:
        (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = box(a), box(b)
        draw.line(
            ((ax0 + ax1) / 2, (ay0 + ay1) / 2, (bx0 + bx1) / 2, (by0 + by1) / 2),
            fill=LINK,
            width=14,
        )
    for pid, pv in places.items():
        x0, y0, _, _ = box(pid)
        _place(draw, x0, y0, row_h[GRID[pid][1]], view, pv, lang, marks, movable)
    _centre(draw, xs[1], ys[1], row_h[1], view, lang)
    return ys[2] + row_h[2]


# --- the clans ----------------------------------------------------------------------------
def _player_lines(p: PlayerView, lang: str) -> list[str]:
    stats = _w(
        f"Survivants {p.survivors} · Confort {p.comfort} · Nourrir {p.feed_cost}",
        f"Survivors {p.survivors} · Comfort {p.comfort} · Feed {p.feed_cost}",
        lang,
    )
    res = flow([f"{_res(k, lang)} {v}" for k, v in p.resources.items()], font(28), W - 80, " · ")
    return [stats, *res]


def _player_title(p: PlayerView, lang: str) -> list[str]:
    title = p.name + (f" — {p.shelter.get(lang)}" if p.shelter else "")
    return wrap(title, font(30, True), W - 260)


def _player_h(p: PlayerView, lang: str) -> int:
    return LINE * (len(_player_title(p, lang)) + len(_player_lines(p, lang))) + 24


def _player_panel(
    draw: ImageDraw.ImageDraw, view: MSView, p: PlayerView, y: float, lang: str
) -> float:
    h = _player_h(p, lang)
    fill = seat_colour(p.seat)
    turn = view.turn == p.seat
    own = view.seat == p.seat
    # Gold: the clan whose turn it is; its own colour: the seat this image is drawn for.
    draw.rounded_rectangle(
        (12, y, W - 12, y + h - 8),
        radius=12,
        fill=PANEL,
        outline=HIGHLIGHT if turn else (fill if own else None),
        width=4,
    )
    draw.rectangle((12, y + 6, 26, y + h - 14), fill=fill)
    ly = y + 8 + LINE / 2
    for line in _player_title(p, lang):
        draw.text((40, ly), line, font=font(30, True), fill=INK, anchor="lm")
        ly += LINE
    right = _w(f"{p.score} PS", f"{p.score} SP", lang)
    if p.first:
        right = _w("★1er  ", "★1st  ", lang) + right
    draw.text((W - 30, y + 8 + LINE / 2), right, font=font(30, True), fill=HIGHLIGHT, anchor="rm")
    for k, line in enumerate(_player_lines(p, lang)):
        draw.text(
            (40, ly + LINE * k), line, font=font(28), fill=INK if k == 0 else MUTED, anchor="lm"
        )
    return y + h


# --- the seat's own shelter -------------------------------------------------------------------
ROOM_W = (W - 24 - 12 - 24) // 2


def _room_lines(power: str) -> list[str]:
    return wrap(power, font(28), ROOM_W - 24 - 4 * 32 - 14)


def _shelter(draw: ImageDraw.ImageDraw, p: PlayerView, y: float, lang: str) -> float:
    """The seat's rooms (survivors, feeding cost, power, lit while complete) and its objects."""
    shelter = p.shelter.get(lang) if p.shelter else "—"
    draw.rectangle((12, y + 4, 26, y + LINE - 4), fill=seat_colour(p.seat))
    draw.text(
        (36, y + LINE / 2),
        _w(f"Votre abri : {shelter}", f"Your shelter: {shelter}", lang),
        font=font(32, True),
        fill=INK,
        anchor="lm",
    )
    y += LINE + 8
    rooms = p.rooms
    for i in range(0, len(rooms), 2):
        pair = rooms[i : i + 2]
        h = max(LINE * (1 + len(_room_lines(r.power.get(lang)))) + 20 for r in pair)
        for k, room in enumerate(pair):
            rx = 24 + k * (ROOM_W + 12)
            draw.rounded_rectangle(
                (rx, y, rx + ROOM_W, y + h - 8),
                radius=10,
                fill=PANEL,
                outline=OK if room.active else MUTED,
                width=4 if room.active else 1,
            )
            draw.text(
                (rx + 12, y + 6 + LINE / 2),
                room.name.get(lang),
                font=font(28, True),
                fill=INK,
                anchor="lm",
            )
            draw.text(
                (rx + ROOM_W - 12, y + 6 + LINE / 2),
                f"-{room.cost}",
                font=font(28, True),
                fill=(210, 140, 230),
                anchor="rm",
            )
            sy = y + 6 + LINE + 6
            for s in range(room.slots):
                sx = rx + 12 + s * 32
                square = (sx, sy, sx + 26, sy + 26)
                if s < room.survivors:
                    draw.rectangle(square, fill=seat_colour(p.seat))
                else:
                    draw.rectangle(square, outline=MUTED, width=2)
            for n, line in enumerate(_room_lines(room.power.get(lang))):
                draw.text(
                    (rx + 12 + 4 * 32 + 14, sy + 13 + LINE * n),
                    line,
                    font=font(28),
                    fill=OK if room.active else MUTED,
                    anchor="lm",
                )
        y += h
    active = [o.name.get(lang) + (" ✓" if o.used else "") for o in p.active]
    repair = [o.name.get(lang) for o in p.inactive]
    lines = [
        (_w("Objets actifs : ", "Active objects: ", lang) + (", ".join(active) or "—"), OK),
        (_w("À réparer : ", "To repair: ", lang) + (", ".join(repair) or "—"), MUTED),
    ]
    for text, ink in lines:
        for line in wrap(text, font(28), W - 60):
            draw.text((24, y + LINE / 2), line, font=font(28), fill=ink, anchor="lm")
            y += LINE
    return y


def _shelter_h(p: PlayerView, lang: str) -> int:
    h = LINE + 8
    for i in range(0, len(p.rooms), 2):
        pair = p.rooms[i : i + 2]
        h += max(LINE * (1 + len(_room_lines(r.power.get(lang)))) + 20 for r in pair)
    active = ", ".join(o.name.get(lang) + " ✓" for o in p.active) or "—"
    repair = ", ".join(o.name.get(lang) for o in p.inactive) or "—"
    for text in (
        _w("Objets actifs : ", "Active objects: ", lang) + active,
        _w("À réparer : ", "To repair: ", lang) + repair,
    ):
        h += LINE * len(wrap(text, font(28), W - 60))
    return h


def render_view(view: MSView, lang: str = "en", decision: Decision | None = None) -> bytes:
    """PNG of the board (every hero lying or standing), each clan, and the seat's shelter.

    ``decision`` (a private prompt) marks the places its options move a hero to, and rings
    the heroes it may stand up.
    """
    marks = Marks(decision, lang)
    me = next((p for p in view.players if p.seat == view.seat), None)
    height = 12 + sum(_rows(view, lang, marks)) + 2 * GAP + 20
    height += sum(_player_h(p, lang) for p in view.players)
    if me is not None:
        height += 16 + _shelter_h(me, lang)
    img, draw = canvas(W, height + 12)
    y = _board(draw, 12, view, lang, marks, _movable(view, decision)) + 20
    for p in view.players:
        y = _player_panel(draw, view, p, y, lang)
    if me is not None:
        _shelter(draw, me, y + 16, lang)
    return png_bytes(crop(img, BG))


TEXT_MAX = 1000
"""The table shows at most about this many characters of a game's text beside its image."""


def board_lines(view: MSView, lang: str = "en") -> list[str]:
    """What the image leaves out, for the message beside it: events in play and the next
    one, set-aside search cards, and each clan's working objects with their effects (names
    only when the effects would not fit the table's text block)."""
    lines: list[str] = []
    ev = "; ".join(f"{e.name.get(lang)} ({e.effects.get(lang)})" for e in view.events_active)
    lines.append(_w("Événements en jeu : ", "Events in play: ", lang) + (ev or "—"))
    if view.next_event is not None:
        nxt = view.next_event
        lines.append(
            _w("Prochain : ", "Next: ", lang) + f"{nxt.name.get(lang)} ({nxt.effects.get(lang)})"
        )
    for pv in view.places:
        if pv.search_aside:
            aside = ", ".join(t.get(lang) for t in pv.search_aside)
            lines.append(
                _w(
                    f"Fouilles écartées, {pv.name.fr} : ",
                    f"Search cards set aside, {pv.name.en}: ",
                    lang,
                )
                + aside
            )
    for effects in (True, False):
        clans = []
        for p in view.players:
            objs = "; ".join(
                o.name.get(lang)
                + (f" ({o.effect.get(lang)})" if effects else "")
                + (" ✓" if o.used else "")
                for o in p.active
            )
            clans.append(
                f"**{md_escape(p.name)}** · " + _w("objets : ", "objects: ", lang) + (objs or "—")
            )
        if effects is False or len("\n".join(lines + clans)) <= TEXT_MAX:
            break
    return lines + clans
