"""The drawing helpers of the fighters' and Madsteam's images (bot/render/fighters.py):
wrapping never cuts, flowing never splits an item, marks follow the options' typed args,
names are inert in markdown; the ring's boxes never overlap, and a text drawn from its kept
mask is the very pixels Pillow draws, so caching never changes an image."""

from __future__ import annotations

import itertools

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.engine.decisions import Allocation, Args, Decision, Option, Quantity
from bot.engine.registry import get_game
from bot.engine.text import Text
from bot.render.common import DANGER, HIGHLIGHT, PANEL, clear_drawing_caches, colour, font
from bot.render.fighters import (
    BOX_W,
    RING_W,
    Badge,
    Marks,
    ZoneBox,
    flow,
    md_escape,
    plain,
    put_text,
    ring_height,
    ring_layout,
    wrap,
)
from tests.render.samples import all_samples


class _Zone(Args):
    zone: int


class _Target(Args):
    target: str


class _Pair(Args):
    targets: list[str]


class _Place(Args):
    place: str


def _opt(oid: str, label: str, args: Args | None) -> Option:
    return Option(id=oid, label=Text(fr=label, en=label), args=args)


def test_wrap_never_cuts_and_every_line_fits() -> None:
    f = font(28, True)
    text = "Attaquer Zamioculcas (Vrombissement de lance) Supercalifragilisticexpialidocious"
    lines = wrap(text, f, 200)
    assert all(f.getlength(line) <= 200 for line in lines)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    assert not any(line.endswith("…") for line in lines)


def test_flow_keeps_each_item_whole() -> None:
    f = font(30, True)
    items = [f"☠ Fighter{k}" for k in range(9)]
    lines = flow(items, f, 400)
    assert len(lines) > 1
    assert [i for line in lines for i in line.split("   ")] == items


def test_marks_read_zones_places_targets_pairs_and_allocations() -> None:
    d = Decision(
        key="k",
        seat=0,
        kind="action",
        prompt=Text(fr="?", en="?"),
        options=[
            _opt("a", "👣 Go to 3", _Zone(zone=3)),
            _opt("b", "Melee: Cactus", _Target(target="cactus")),
            _opt("c", "Double shot: Cactus + Agaric", _Pair(targets=["cactus", "agaric"])),
            _opt("d", "5 → Well", _Place(place="well")),
            _opt("e", "End the action", None),
        ],
    )
    m = Marks(d, "en")
    assert m.zone(3) == ["Go to 3"] and m.zone("well") == ["5 → Well"]
    assert m.fighter("cactus") == ["Melee: Cactus", "Double shot: Cactus + Agaric"]
    assert m.fighter("agaric") == ["Double shot: Cactus + Agaric"]
    assert not Marks(None, "en") and m.subject is None
    split = Decision(
        key="s",
        seat=0,
        kind="split",
        prompt=Text(fr="?", en="?"),
        ask=Allocation(
            quantities=[Quantity(id="sorgho", label=Text(fr="Sorgho", en="Sorgho"), max=3)]
        ),
    )
    assert Marks(split, "fr").fighter("sorgho") == ["Sorgho"]


def test_names_are_inert_in_markdown_and_emoji_leave_labels() -> None:
    assert md_escape("**Bob_the|best**") == "\\*\\*Bob\\_the\\|best\\*\\*"
    assert plain("⚔️ Melee: 👣 Cactus") == "⚔ Melee: Cactus"


def _zones(n: int) -> list[ZoneBox]:
    """``n`` ring zones and the centre: empty, crowded, marked, with tokens and outlines."""
    names = ["Zamioculcas", "Bonzaï", "Sorgho", "Jojoba"]
    out = []
    for i in range(n + 1):
        badges = tuple(
            Badge(
                name,
                f"♥{k + i}",
                colour(["black", "yellow", "violet", "green"][k]),
                outline=[None, HIGHLIGHT, DANGER, None][k],
                token=(40, 160, 60) if k == 1 else None,
                marks=("Attack " + name,) if (i + k) % 3 == 0 else (),
            )
            for k, name in enumerate(names[: i % 5])
        )
        marks = ("Go to the zone with a long label",) if i % 4 == 1 else ()
        out.append(ZoneBox(f"Zone {i}", badges, marks, fill=(60, 56, 40) if i == n else PANEL))
    return out


@pytest.mark.parametrize("n", [5, 6, 7])
def test_ring_boxes_are_whole_pixels_inside_the_picture_and_never_overlap(n: int) -> None:
    zones = _zones(n)
    heights = [z.height for z in zones]
    corners, total = ring_layout(heights)
    assert total == ring_height(zones) and len(corners) == n + 1
    boxes = [(x, y, x + BOX_W, y + h) for (x, y), h in zip(corners, heights, strict=True)]
    assert all(isinstance(v, int) for box in boxes for v in box)
    assert all(b[0] >= 0 and b[2] < RING_W and b[1] >= 0 and b[3] <= total for b in boxes)
    assert min(b[1] for b in boxes) == 0 and max(b[3] for b in boxes) == total
    for a, b in itertools.combinations(boxes, 2):
        assert a[2] < b[0] or b[2] < a[0] or a[3] < b[1] or b[3] < a[1], (a, b)


@pytest.mark.parametrize("anchor", ["lm", "mm", "rm", "la", "ls"])
def test_put_text_gives_the_pixels_of_pillows_text(anchor: str) -> None:
    """Whatever the pixel fraction of the point, the size and the ink, a kept mask draws
    what ``ImageDraw.text`` draws, first time (Pillow's own call, seen by the phone
    tests' spies) and from the cache."""
    clear_drawing_caches()
    # The glyphs of the bundled fonts that reach farthest past their advance and their
    # ascent and descent lines (found by measuring them all), then stacked accents.
    lines = ["Zamioculcas ♥10", "⚡4 ➜1 ⚔2+2 ➶0 ◆?", "Équipe gj ✿", "ẨẲڸ ຳᚖ⁄", "a" + "\u0301" * 12]
    for k, (line, xy, size, bold, ink) in enumerate(
        itertools.product(
            lines,
            [(100, 140), (100.5, 140.5), (333.25, 161.75)],
            [28, 34],
            [True, False],
            [(236, 236, 240), DANGER],
        )
    ):
        expected = Image.new("RGB", (600, 300), PANEL)
        ImageDraw.Draw(expected).text(xy, line, font=font(size, bold), fill=ink, anchor=anchor)
        for _ in range(2):
            got = Image.new("RGB", (600, 300), PANEL)
            put_text(ImageDraw.Draw(got), xy, line, size, ink, bold, anchor)
            assert ImageChops.difference(got, expected).getbbox() is None, (k, line, xy)


@pytest.mark.parametrize("game_id", ["mad-arena", "ultimate-warriorz"])
def test_cached_pieces_never_change_an_image(game_id: str) -> None:
    """Every sampled view draws the same bytes from cold caches, warm ones, and caches warmed
    by the other views."""
    game = get_game(game_id)
    samples = [s for s in all_samples() if s.game_id == game_id]

    def draw_all() -> list[bytes]:
        return [game.render(s.view, lang, s.decision) for s in samples for lang in ("en", "fr")]

    warm = draw_all()
    assert draw_all() == warm
    cold = []
    for s in samples:
        for lang in ("en", "fr"):
            clear_drawing_caches()
            cold.append(game.render(s.view, lang, s.decision))
    assert cold == warm
