"""The Madsteam image: the board with every hero, the clans, and a seat's own shelter.

A pure function of the typed view (no state, no rule re-derived: supplies,
feeding cost, comfort-capped survivors and scores are the view's numbers),
drawn for a phone: a 1024 px image shows about 380 px wide there, so every text
is 28 px or more, nothing is cut, and the image is sized to what it holds (its
layout is measured first).

The eight places sit on the ring of a 3x3 grid in the printed order (Well,
Armoury, Forest, House A, House B, Factory, Supermarket, Mine), linked where a
hero may step, the Well-Forest shortcut across the corner; the round and phase
sit in the middle. Heroes are discs in their clan's colour: a standing hero
(played this round) is an upright disc with its value, a lying one a flat
outlined oval. In a private prompt the places a hero may go carry the buttons'
labels. Events, set-aside search cards, objects' effects and full resource
names go in the message text (:func:`board_lines`).

It is cheap to draw again (issue 16 item 3): strings, heroes, room slots and tags are
cached pieces pasted on a palette canvas (:mod:`bot.games.madsteam.render_tiles`), so
a picture costs its fills, its pastes and the PNG's compression.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.engine.decisions import Decision
from bot.games.madsteam.render_tiles import (
    ARRIVAL,
    COST_INK,
    LINK,
    PREY,
    Colour,
    advance,
    canvas,
    clan_text,
    ix,
    put_hero,
    put_items,
    put_tags,
    put_text,
    shelter_text,
    slots_tile,
)
from bot.games.madsteam.view import MSView, PlaceView, PlayerView
from bot.render.common import BG, HIGHLIGHT, INK, MUTED, OK, PANEL, font, png_bytes, seat_colour
from bot.render.fighters import Marks, md_escape, tags_height, wrap

W = 1024
GAP = 26
CELL_W = (W - 2 * 12 - 2 * GAP) // 3
LINE = 40

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
def _place_lines(pv: PlaceView, lang: str) -> list[tuple[str, Colour]]:
    """A place's lines under its name: supply, search cards and objects, slots, prey."""
    out: list[tuple[str, Colour]] = []
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
PER_ROW = max(1, (CELL_W - 16) // (HERO_W + 2))
"""Heroes side by side in a place."""


def _hero_rows(pv: PlaceView) -> int:
    return -(-len(pv.heroes) // PER_ROW)


def _cell_height(pv: PlaceView, lang: str, marks: Marks) -> int:
    h = 14 + LINE + LINE * len(_place_lines(pv, lang))
    h += HERO_ROW * _hero_rows(pv) + 10
    h += tags_height(marks.zone(pv.id), CELL_W - 20)
    return h + 8


def _place(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    x0: int,
    y0: int,
    h: int,
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
        fill=ix(PANEL),
        outline=ix(HIGHLIGHT if labels else (ARRIVAL if hot else MUTED)),
        width=7 if (labels or hot) else 2,
    )
    y = y0 + 14
    put_text(img, (x0 + 14, y + LINE // 2), pv.name.get(lang), 32, INK, PANEL, bold=True)
    y += LINE
    for text, ink in _place_lines(pv, lang):
        put_text(img, (x0 + 14, y + LINE // 2), text, 28, ink, PANEL)
        y += LINE
    for k, hv in enumerate(pv.heroes):
        hx = x0 + 12 + HERO_W // 2 + (k % PER_ROW) * (HERO_W + 2)
        hy = y + HERO_ROW // 2 + (k // PER_ROW) * HERO_ROW
        ringed = not hv.standing and (hv.seat, pv.id, hv.value) in movable
        put_hero(img, (hx, hy), hv.seat, hv.value, hv.standing, ringed)
    y += HERO_ROW * _hero_rows(pv) + 10
    put_tags(img, x0 + 10, y, CELL_W - 20, labels)


def _centre(img: Image.Image, x0: int, y0: int, h: int, view: MSView, lang: str) -> None:
    """The round and the phase in the middle of the ring (clear of the shortcut's corner),
    blended over the background like any text (the shortcut passes near)."""
    phase = PHASES.get(view.phase, (view.phase, view.phase))
    cx, cy = x0 + CELL_W // 2 + 14, y0 + h // 2 + 10
    rnd = _w(f"Tour {view.round}/{view.rounds}", f"Round {view.round}/{view.rounds}", lang)
    put_text(img, (cx, cy - 28), rnd, 36, INK, BG, bold=True, anchor="mm")
    lines = wrap(_w(phase[0], phase[1], lang), font(30, True), CELL_W - 40)
    for k, line in enumerate(lines):
        put_text(img, (cx, cy + 20 + 36 * k), line, 30, HIGHLIGHT, BG, bold=True, anchor="mm")


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
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    top: int,
    row_h: list[int],
    view: MSView,
    lang: str,
    marks: Marks,
    movable: set[tuple[int, str, int]],
) -> int:
    """The places on the grid; returns the y below it."""
    places = {pv.id: pv for pv in view.places}
    ys = [top, top + row_h[0] + GAP, top + row_h[0] + row_h[1] + 2 * GAP]
    xs = [12 + c * (CELL_W + GAP) for c in range(3)]

    def box(pid: str) -> tuple[int, int, int, int]:
        c, r = GRID[pid]
        return (xs[c], ys[r], xs[c] + CELL_W, ys[r] + row_h[r])

    for a, b in [*EDGES, SHORTCUT]:
        (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = box(a), box(b)
        draw.line(
            ((ax0 + ax1) / 2, (ay0 + ay1) / 2, (bx0 + bx1) / 2, (by0 + by1) / 2),
            fill=ix(LINK),
            width=14,
        )
    for pid, pv in places.items():
        x0, y0, _, _ = box(pid)
        _place(img, draw, x0, y0, row_h[GRID[pid][1]], view, pv, lang, marks, movable)
    _centre(img, xs[1], ys[1], row_h[1], view, lang)
    return ys[2] + row_h[2]


# --- the clans ----------------------------------------------------------------------------
Item = tuple[str, Colour]
SEP = " · "
CLAN_TEXT_W = W - 80
"""Width of a clan's lines of numbers (from x 40)."""


def _stats_items(p: PlayerView, lang: str) -> list[Item]:
    """Survivors, comfort and feeding cost (white), then each resource (grey)."""
    stats = [
        _w(f"Survivants {p.survivors}", f"Survivors {p.survivors}", lang),
        _w(f"Confort {p.comfort}", f"Comfort {p.comfort}", lang),
        _w(f"Nourrir {p.feed_cost}", f"Feed {p.feed_cost}", lang),
    ]
    res = [f"{_res(k, lang)} {v}" for k, v in p.resources.items()]
    return [(s, INK) for s in stats] + [(r, MUTED) for r in res]


def _flow_items(items: list[Item], width: float) -> list[list[Item]]:
    """Items side by side, as many per line as fit ``width`` (an item is never split),
    measured as :func:`put_items` sets them."""
    sep = advance(SEP, 28)
    lines: list[list[Item]] = []
    current: list[Item] = []
    x = 0.0
    for text, ink in items:
        adv = advance(text, 28)
        if current and x + sep + adv > width:
            lines.append(current)
            current, x = [], 0.0
        x += (sep if current else 0.0) + adv
        current.append((text, ink))
    if current:
        lines.append(current)
    return lines


def _player_title(p: PlayerView, lang: str) -> list[str]:
    title = p.name + (f" — {p.shelter.get(lang)}" if p.shelter else "")
    return wrap(title, font(30, True), W - 260)


def _player_h(p: PlayerView, lang: str) -> int:
    lines = len(_player_title(p, lang)) + len(_flow_items(_stats_items(p, lang), CLAN_TEXT_W))
    return LINE * lines + 24


def _player_panel(
    img: Image.Image, draw: ImageDraw.ImageDraw, view: MSView, p: PlayerView, y: int, lang: str
) -> int:
    """A clan: its name and shelter, its score (★ with the first-player token), then its
    survivors, comfort, feeding cost and resources, items flowed over as few lines as fit."""
    h = _player_h(p, lang)
    fill = seat_colour(p.seat)
    turn = view.turn == p.seat
    own = view.seat == p.seat
    # Gold: the clan whose turn it is; its own colour: the seat this image is drawn for.
    draw.rounded_rectangle(
        (12, y, W - 12, y + h - 8),
        radius=12,
        fill=ix(PANEL),
        outline=ix(HIGHLIGHT) if turn else (ix(fill) if own else None),
        width=4,
    )
    draw.rectangle((12, y + 6, 26, y + h - 14), fill=ix(fill))
    ly = y + 8 + LINE // 2
    for line in _player_title(p, lang):
        put_text(img, (40, ly), line, 30, INK, PANEL, bold=True, cache=clan_text)
        ly += LINE
    right = _w(f"{p.score} PS", f"{p.score} SP", lang)
    if p.first:
        right = _w("★1er  ", "★1st  ", lang) + right
    put_text(
        img,
        (W - 30, y + 8 + LINE // 2),
        right,
        30,
        HIGHLIGHT,
        PANEL,
        bold=True,
        anchor="rm",
        cache=clan_text,
    )
    for line_items in _flow_items(_stats_items(p, lang), CLAN_TEXT_W):
        put_items(img, (40, ly), line_items, (SEP, MUTED), 28, PANEL, clan_text)
        ly += LINE
    return y + h


# --- the seat's own shelter -------------------------------------------------------------------
ROOM_W = (W - 24 - 12 - 24) // 2
ROOM_TEXT_W = ROOM_W - 24 - 4 * 32 - 14


def _room_lines(power: str) -> list[str]:
    return wrap(power, font(28), ROOM_TEXT_W)


def _object_lines(p: PlayerView, lang: str) -> list[tuple[str, Colour]]:
    """The seat's working objects (✓: used this round) and those still to repair."""
    active = [o.name.get(lang) + (" ✓" if o.used else "") for o in p.active]
    repair = [o.name.get(lang) for o in p.inactive]
    lines = [
        (_w("Objets actifs : ", "Active objects: ", lang) + (", ".join(active) or "—"), OK),
        (_w("À réparer : ", "To repair: ", lang) + (", ".join(repair) or "—"), MUTED),
    ]
    return [(line, ink) for text, ink in lines for line in wrap(text, font(28), W - 60)]


def _shelter(img: Image.Image, draw: ImageDraw.ImageDraw, p: PlayerView, y: int, lang: str) -> int:
    """The seat's rooms (survivors, feeding cost, power, lit while complete) and its objects;
    returns the y below them."""
    shelter = p.shelter.get(lang) if p.shelter else "—"
    draw.rectangle((12, y + 4, 26, y + LINE - 4), fill=ix(seat_colour(p.seat)))
    title = _w(f"Votre abri : {shelter}", f"Your shelter: {shelter}", lang)
    put_text(img, (36, y + LINE // 2), title, 32, INK, BG, bold=True, cache=shelter_text)
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
                fill=ix(PANEL),
                outline=ix(OK if room.active else MUTED),
                width=4 if room.active else 1,
            )
            mid = y + 6 + LINE // 2
            name = room.name.get(lang)
            put_text(img, (rx + 12, mid), name, 28, INK, PANEL, bold=True, cache=shelter_text)
            cost = f"-{room.cost}"
            put_text(
                img,
                (rx + ROOM_W - 12, mid),
                cost,
                28,
                COST_INK,
                PANEL,
                bold=True,
                anchor="rm",
                cache=shelter_text,
            )
            sy = y + 6 + LINE + 6
            if room.slots:
                img.paste(slots_tile(room.slots, room.survivors, p.seat), (rx + 12, sy))
            ink = OK if room.active else MUTED
            for n, line in enumerate(_room_lines(room.power.get(lang))):
                at = (rx + 12 + 4 * 32 + 14, sy + 13 + LINE * n)
                put_text(img, at, line, 28, ink, PANEL, cache=shelter_text)
        y += h
    for line, ink in _object_lines(p, lang):
        put_text(img, (24, y + LINE // 2), line, 28, ink, BG, cache=shelter_text)
        y += LINE
    return y


def _shelter_h(p: PlayerView, lang: str) -> int:
    h = LINE + 8
    for i in range(0, len(p.rooms), 2):
        pair = p.rooms[i : i + 2]
        h += max(LINE * (1 + len(_room_lines(r.power.get(lang)))) + 20 for r in pair)
    return h + LINE * len(_object_lines(p, lang))


MARGIN = 12
"""Empty border around the drawing (the image is sized to what it holds: no crop pass)."""


def render_view(view: MSView, lang: str = "en", decision: Decision | None = None) -> bytes:
    """PNG of the board (every hero lying or standing), each clan, and the seat's shelter.

    ``decision`` (a private prompt) marks the places its options move a hero to, and rings
    the heroes it may stand up. The layout is measured first and the canvas made exactly
    its size (the last clan's box or the shelter's last line, then the margin).
    """
    marks = Marks(decision, lang)
    me = next((p for p in view.players if p.seat == view.seat), None)
    row_h = _rows(view, lang, marks)
    board_h = sum(row_h) + 2 * GAP
    clans_h = sum(_player_h(p, lang) for p in view.players)
    height = MARGIN + board_h + 20 + clans_h
    # The last clan's box stops 8 px above its slot; the descenders of the shelter's last
    # line reach about 4 px above its slot's end.
    height += 16 + _shelter_h(me, lang) + MARGIN - 4 if me is not None else MARGIN - 8
    img, draw = canvas(W, height)
    y = _board(img, draw, MARGIN, row_h, view, lang, marks, _movable(view, decision)) + 20
    for p in view.players:
        y = _player_panel(img, draw, view, p, y, lang)
    if me is not None:
        _shelter(img, draw, me, y + 16, lang)
    return png_bytes(img)


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
