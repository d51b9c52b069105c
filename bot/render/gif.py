"""An animated GIF of a match from its per-round PNG images (pure Pillow).

Deterministic: the same frames give the same bytes (one median-cut palette
chosen from a fixed sample of frames, no dithering, no timestamps), so
simulator output can be compared run to run.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

from bot.render.common import BG

FRAME_MS = 900
"""How long each round stays on screen."""
LAST_FRAME_MS = 3000
"""The final position stays longer so the result can be read."""
MAX_SIDE = 640
"""Frames are scaled down to this so a long match stays a small attachment."""


def gif_bytes(
    frames: Sequence[bytes],
    frame_ms: int = FRAME_MS,
    last_frame_ms: int = LAST_FRAME_MS,
    max_side: int = MAX_SIDE,
) -> bytes:
    """Encode PNG ``frames`` (in order) as a looping GIF.

    Every frame is fitted to the first frame's (scaled) size, centred on the
    shared background, because a GIF has a single canvas size.
    """
    if not frames:
        raise ValueError("a GIF needs at least one frame")
    images = [Image.open(io.BytesIO(data)).convert("RGB") for data in frames]
    size = _scaled(images[0].size, max_side)
    fitted = [_fit(img, size) for img in images]
    palette = _shared_palette(fitted)
    # One palette for every frame lets the encoder store only what changed.
    palettised = [img.quantize(palette=palette, dither=Image.Dither.NONE) for img in fitted]
    durations = [frame_ms] * (len(palettised) - 1) + [last_frame_ms]
    buf = io.BytesIO()
    palettised[0].save(
        buf,
        format="GIF",
        save_all=True,
        append_images=palettised[1:],
        duration=durations if len(palettised) > 1 else last_frame_ms,
        loop=0,
        disposal=1,
    )
    return buf.getvalue()


PALETTE_SAMPLES = 8
"""Frames (evenly spaced, first and last included) that choose the shared palette."""


def _shared_palette(frames: list[Image.Image]) -> Image.Image:
    """A 256-colour palette fitted to a sample of the frames, stacked into one image."""
    count = min(PALETTE_SAMPLES, len(frames))
    picks = sorted({round(i * (len(frames) - 1) / max(1, count - 1)) for i in range(count)})
    w, h = frames[0].size
    sample = Image.new("RGB", (w, h * len(picks)))
    for row, index in enumerate(picks):
        sample.paste(frames[index], (0, h * row))
    return sample.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def _scaled(size: tuple[int, int], max_side: int) -> tuple[int, int]:
    w, h = size
    longest = max(w, h)
    if longest <= max_side:
        return (w, h)
    return (max(1, round(w * max_side / longest)), max(1, round(h * max_side / longest)))


def _fit(img: Image.Image, size: tuple[int, int]) -> Image.Image:
    """``img`` scaled to fit ``size`` (keeping its aspect), centred on the background."""
    if img.size == size:
        return img
    scale = min(size[0] / img.width, size[1] / img.height)
    new = (max(1, round(img.width * scale)), max(1, round(img.height * scale)))
    resized = img.resize(new, Image.Resampling.LANCZOS)
    if resized.size == size:
        return resized
    out = Image.new("RGB", size, BG)
    out.paste(resized, ((size[0] - new[0]) // 2, (size[1] - new[1]) // 2))
    return out
