"""The drawing helpers of the fighters' and Madsteam's images (bot/render/fighters.py):
wrapping never cuts, flowing never splits an item, marks follow the options' typed args,
cropping keeps everything drawn, names are inert in markdown."""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.engine.decisions import Allocation, Args, Decision, Option, Quantity
from bot.engine.text import Text
from bot.render.common import BG, font
from bot.render.fighters import Marks, crop, flow, md_escape, plain, wrap


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


def test_crop_keeps_what_is_drawn_and_spares_a_full_image() -> None:
    img = Image.new("RGB", (1024, 800), BG)
    ImageDraw.Draw(img).rectangle((300, 200, 301, 201), fill=(255, 255, 255))
    out = crop(img, BG)
    assert out.width < 200 and out.height < 200
    assert out.getbbox() is not None and (255, 255, 255) in [
        c for _, c in out.getcolors(10**6) or []
    ]
    full = Image.new("RGB", (400, 300), (200, 0, 0))
    assert crop(full, BG) is full


def test_names_are_inert_in_markdown_and_emoji_leave_labels() -> None:
    assert md_escape("**Bob_the|best**") == "\\*\\*Bob\\_the\\|best\\*\\*"
    assert plain("⚔️ Melee: 👣 Cactus") == "⚔ Melee: Cactus"
