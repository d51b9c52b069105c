"""The match GIF: every frame, in order, deterministic, one canvas size."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.render.common import png_bytes
from bot.render.gif import LAST_FRAME_MS, gif_bytes


def frame(colour: tuple[int, int, int], size: tuple[int, int] = (300, 200)) -> bytes:
    img = Image.new("RGB", size, colour)
    img.paste((255, 255, 255), (10, 10, 40, 40))
    return png_bytes(img)


def test_frames_in_order_with_a_longer_last_frame() -> None:
    frames = [frame((200, 0, 0)), frame((0, 200, 0)), frame((0, 0, 200))]
    gif = Image.open(io.BytesIO(gif_bytes(frames, frame_ms=500)))
    assert gif.n_frames == 3 and gif.info["loop"] == 0
    colours, durations = [], []
    for i in range(3):
        gif.seek(i)
        colours.append(gif.convert("RGB").getpixel((150, 150)))
        durations.append(gif.info["duration"])
    assert colours == [(200, 0, 0), (0, 200, 0), (0, 0, 200)]
    assert durations == [500, 500, LAST_FRAME_MS]


def test_same_frames_same_bytes() -> None:
    frames = [frame((i * 50, 100, 30)) for i in range(4)]
    assert gif_bytes(frames) == gif_bytes(list(frames))


def test_large_and_mismatched_frames_share_one_scaled_canvas() -> None:
    frames = [frame((10, 10, 10), (1600, 1000)), frame((90, 90, 90), (500, 500))]
    gif = Image.open(io.BytesIO(gif_bytes(frames, max_side=800)))
    assert gif.size == (800, 500)
    gif.seek(1)
    assert gif.convert("RGB").getpixel((400, 250)) == (90, 90, 90)


def test_no_frames_is_refused() -> None:
    with pytest.raises(ValueError):
        gif_bytes([])


def test_a_single_frame_is_a_still_gif() -> None:
    gif = Image.open(io.BytesIO(gif_bytes([frame((1, 2, 3))])))
    assert gif.n_frames == 1 and gif.convert("RGB").getpixel((150, 150)) == (1, 2, 3)
