"""The PNG encode every game's images go through (issue 16 item 3): a valid 8-bit palette
PNG, the same bytes for the same image (in any thread or process: the image cache and
"re-send only when it changed" compare them), and no visible change on every game's
boards: flat colours within a few units, anti-aliased edges close, no stray pixel far off."""

from __future__ import annotations

import hashlib
import io
import statistics
import struct
import subprocess
import sys
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

import bot.render.common as common
from bot.engine.registry import discovered_games, get_game
from bot.render.common import COLOURS, INK, MUTED, PANEL, canvas, font, png_bytes
from tests.render.samples import play_samples

ROOT = Path(__file__).resolve().parents[2]

MEAN_ERROR = 1.0
"""Largest mean difference (of 255, over pixels and channels) of a decoded board."""
MAX_ERROR = 64
"""Largest difference of any one pixel's channel: an anti-aliased edge pixel may take a
neighbouring shade, never a colour of its own."""
FLAT_ERROR = 10
"""Largest difference of a colour covering at least ``FLAT_SHARE`` of the image."""
FLAT_SHARE = 0.005


def board() -> Image.Image:
    """A board-sized picture like the games draw: panels, every player colour, lines and
    anti-aliased text of several sizes on several backgrounds (sampled palette path)."""
    img, draw = canvas(1024, 900)
    for k, (name, rgb) in enumerate(COLOURS.items()):
        x, y = 20 + (k % 4) * 250, 20 + (k // 4) * 150
        draw.rounded_rectangle((x, y, x + 230, y + 130), radius=14, fill=PANEL, outline=rgb)
        draw.ellipse((x + 10, y + 10, x + 70, y + 70), fill=rgb)
        draw.text((x + 80, y + 20), name.title(), font=font(30, bold=True), fill=rgb)
        draw.text((x + 10, y + 85), f"{k + 1} HP · 3 ⚔", font=font(28), fill=INK)
        draw.line((x, y + 140, x + 230, y + 145), fill=MUTED, width=1)
    draw.text((20, 500), "Anti-aliased text, ÉÀÇ 0123", font=font(48), fill=INK)
    for k in range(40):
        draw.line((20 + 24 * k, 600, 40 + 24 * k, 880), fill=COLOURS["cyan"], width=1)
    return img


def chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    """The PNG's chunks (type, data), each CRC checked."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    out, at = [], 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind, data = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", png[at + 8 + length : at + 12 + length])
        assert crc == zlib.crc32(kind + data), kind
        out.append((kind, data))
        at += 12 + length
    return out


def decoded(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def errors(img: Image.Image, png: bytes) -> tuple[float, int, int]:
    """Mean and max difference of the decoded PNG to ``img``, and the largest difference
    of a colour covering at least ``FLAT_SHARE`` of it."""
    back = decoded(png)
    diff = ImageChops.difference(img, back)
    mean = statistics.mean(ImageStat.Stat(diff).mean)
    worst = max(hi for _, hi in diff.getextrema())
    area = img.width * img.height
    src, dst = img.tobytes(), back.tobytes()
    flat = 0
    for count, rgb in img.getcolors(area) or []:
        if count < FLAT_SHARE * area:
            continue
        at = src.find(bytes(rgb))
        while at % 3:  # a match across two pixels: look on
            at = src.find(bytes(rgb), at + 1)
        flat = max(flat, *(abs(a - b) for a, b in zip(rgb, dst[at : at + 3], strict=True)))
    return mean, worst, flat


def test_a_board_is_an_8_bit_palette_png_of_its_palette_image() -> None:
    img = board()
    png = png_bytes(img)
    found = chunks(png)
    assert [kind for kind, _ in found] == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    w, h, depth, colour_type, *_ = struct.unpack(">IIBBBBB", found[0][1])
    assert (w, h, depth, colour_type) == (1024, 900, 8, 3)
    raw = zlib.decompress(found[2][1])
    assert len(raw) == h * (w + 1)
    assert all(raw[row * (w + 1)] == 0 for row in range(h))  # filter None on every row
    expected = common.palette_of(img)
    back = Image.open(io.BytesIO(png))
    assert back.mode == "P" and back.tobytes() == expected.tobytes()
    assert found[1][1] == bytes(expected.getpalette("RGB") or [])
    mean, worst, flat = errors(img, png)
    assert mean <= MEAN_ERROR and worst <= MAX_ERROR and flat <= FLAT_ERROR


def test_small_and_other_modes_round_trip() -> None:
    """A badge-sized image gets its exact palette; RGBA encodes as its RGB; a grey image
    is left to Pillow and comes back unchanged."""
    img, draw = canvas(120, 40)
    draw.rectangle((10, 10, 50, 30), fill=COLOURS["red"])
    draw.rectangle((60, 10, 110, 30), fill=COLOURS["blue"])
    assert ImageChops.difference(img, decoded(png_bytes(img))).getbbox() is None
    rgba = img.convert("RGBA")
    assert png_bytes(rgba) == png_bytes(img)
    grey = img.convert("L")
    back = Image.open(io.BytesIO(png_bytes(grey)))
    assert back.mode == "L" and back.tobytes() == grey.tobytes()


def test_a_palette_image_is_written_on_its_own_palette() -> None:
    """An image drawn on a fixed palette (Madsteam's) keeps its indices and colours through
    the same writer as the boards; one with transparency is left to Pillow."""
    img, draw = canvas(300, 80)
    draw.rectangle((10, 10, 140, 70), fill=COLOURS["green"])
    draw.text((150, 20), "Abri", font=font(28), fill=INK)
    fixed = img.quantize(32, method=Image.Quantize.FASTOCTREE)
    data = png_bytes(fixed)
    assert data == common.palette_png(fixed)
    back = Image.open(io.BytesIO(data))
    assert back.mode == "P" and back.tobytes() == fixed.tobytes()
    assert back.convert("RGB").tobytes() == fixed.convert("RGB").tobytes()
    clear = fixed.copy()
    clear.info["transparency"] = 0
    back = Image.open(io.BytesIO(png_bytes(clear)))
    assert back.info.get("transparency") == 0 and back.tobytes() == clear.tobytes()


def test_the_same_image_gives_the_same_bytes_in_any_thread() -> None:
    img = board()
    first = png_bytes(img)
    assert png_bytes(img.copy()) == first
    with ThreadPoolExecutor(max_workers=4) as pool:
        assert set(pool.map(lambda _: png_bytes(board()), range(8))) == {first}
    img.putpixel((512, 450), (1, 2, 3))
    assert png_bytes(img) != first


def test_isal_deflates_and_zlib_stands_in_the_same_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """``isal`` is a dependency: its deflate is the one in use. Without it the stdlib's
    zlib writes the same pixels, and is as deterministic."""
    from isal import isal_zlib

    img = board()
    fast = png_bytes(img)
    idat = dict(chunks(fast))[b"IDAT"]
    assert idat == isal_zlib.compress(zlib.decompress(idat), common.ISAL_LEVEL)
    monkeypatch.setattr(common, "_deflate", common._zlib_deflate)
    slow = png_bytes(img)
    assert slow != fast and png_bytes(img.copy()) == slow
    assert Image.open(io.BytesIO(slow)).tobytes() == Image.open(io.BytesIO(fast)).tobytes()
    assert dict(chunks(slow))[b"PLTE"] == dict(chunks(fast))[b"PLTE"]


def test_another_process_gives_the_same_bytes() -> None:
    code = (
        "import hashlib; from tests.render.test_encode import board; "
        "from bot.render.common import png_bytes; "
        "print(hashlib.sha256(png_bytes(board())).hexdigest())"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == hashlib.sha256(png_bytes(board())).hexdigest()


def drawn_boards(game_id: str, monkeypatch: pytest.MonkeyPatch) -> list[Image.Image]:
    """The RGB images ``png_bytes`` is handed for the samples of one seeded AI match of
    ``game_id`` (``tests/render/samples.py``: public, a seat's and a prompt's marks at its
    start, middle and end), in both languages."""
    game = get_game(game_id)
    mode = game.info.modes[0]
    samples = play_samples(game, mode.id, min(mode.player_counts), f"encode-{game_id}")
    game.render(samples[0].view, "en")  # imports the renderer, so it can be spied on
    images: list[Image.Image] = []
    real = common.png_bytes

    def keep(img: Image.Image) -> bytes:
        images.append(img.convert("RGB"))
        return real(img)

    for name, module in list(sys.modules.items()):
        if name.startswith("bot.") and getattr(module, "png_bytes", None) is real:
            monkeypatch.setattr(module, "png_bytes", keep)
    for sample in samples:
        for lang in ("en", "fr"):
            game.render(sample.view, lang, sample.decision)
    return images


@pytest.mark.parametrize("game_id", sorted(g.info.id for g in discovered_games()))
def test_no_visible_change_on_every_game(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    images = drawn_boards(game_id, monkeypatch)
    assert len(images) >= 12
    for img in images:
        mean, worst, flat = errors(img, png_bytes(img))
        assert mean <= MEAN_ERROR, (img.size, mean)
        assert worst <= MAX_ERROR, (img.size, worst)
        assert flat <= FLAT_ERROR, (img.size, flat)
