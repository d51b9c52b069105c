"""Render + encode CPU time and bytes per image, per game (issue 16 item 3).

Draws the images of ``tests/render/samples.py`` (public, a seat's, a prompt's marks;
start, middle and end of seeded AI matches; every mode at its smallest and largest
player count) in both languages, uncached, ``--repeat`` times each, and prints per game
a Markdown row: images, CPU ms p50/p95/max for render + encode, the encode's share,
bytes mean/max and the image sizes. The goal is p95 <= 30 ms CPU per image.

A second table times the encode alone (``png_bytes``) on the very images drawn, so that
it can be compared while the renderers change: CPU ms p50/p95 (each image's quickest of
``--repeat`` runs, so other processes on the machine weigh less), kB, the error of the
decoded PNG against the drawn RGB image (mean and max over pixels and channels, of 255),
and the same figures for the previous encode (an octree palette from every second pixel,
written by Pillow at zlib level 3), timed on the same images in turn. A picture drawn on
a palette (``bot/render/palette.py``: every game but Madsteam, whose palette is fixed) is
encoded there as its RGB copy would be, so those columns time the RGB pictures' encode.

``--rgb`` draws the pictures in RGB, as before palette drawing (the first table's
figures then compare with a default run's).

    .venv/bin/python bench/bench_render.py [--repeat 3] [--rgb]
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image, ImageChops, ImageStat  # noqa: E402

import bot.render.common as common  # noqa: E402
import bot.render.palette as palette  # noqa: E402
from bot.engine.registry import get_game  # noqa: E402
from tests.render.samples import all_samples  # noqa: E402

GOAL_MS = 30.0


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def reference_png(img: Image.Image) -> bytes:
    """The encode before issue 16's cheaper one: octree palette from every second pixel
    of every second row, Pillow's PNG writer at zlib level 3."""
    small = img.resize((img.width // 2, img.height // 2), Image.Resampling.NEAREST)
    palette = small.quantize(256, method=Image.Quantize.FASTOCTREE)
    buf = io.BytesIO()
    img.quantize(palette=palette, dither=Image.Dither.NONE).save(
        buf, format="PNG", compress_level=3
    )
    return buf.getvalue()


def error(img: Image.Image, png: bytes) -> tuple[float, int]:
    """Mean and max difference of the decoded ``png`` to ``img``, over pixels and channels."""
    diff = ImageChops.difference(img, Image.open(io.BytesIO(png)).convert("RGB"))
    return statistics.mean(ImageStat.Stat(diff).mean), max(hi for _, hi in diff.getextrema())


class EncodeFigures:
    """CPU ms, kB and error of one encoder over one game's drawn images."""

    def __init__(self) -> None:
        self.ms: list[float] = []
        self.kb: list[float] = []
        self.mean_err: list[float] = []
        self.max_err = 0

    def measure(self, encode: Callable[[Image.Image], bytes], img: Image.Image, n: int) -> None:
        best = float("inf")
        for _ in range(n):
            t = time.process_time()
            png = encode(img)
            best = min(best, time.process_time() - t)
        self.ms.append(best * 1000)
        self.kb.append(len(png) / 1024)
        mean, worst = error(img, png)
        self.mean_err.append(mean)
        self.max_err = max(self.max_err, worst)

    def cells(self) -> str:
        return (
            f"{statistics.median(self.ms):.1f} | {pct(self.ms, 0.95):.1f} "
            f"| {statistics.mean(self.kb):.0f} | {max(self.kb):.0f} "
            f"| {statistics.mean(self.mean_err):.2f} | {self.max_err}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="draws of each image (default 3)")
    ap.add_argument("--rgb", action="store_true", help="draw RGB pictures, as before palettes")
    args = ap.parse_args()
    palette.PALETTE_DRAWING = not args.rgb

    samples = all_samples()
    warmed: set[str] = set()
    for s in samples:  # imports each renderer and loads its fonts before timing
        if s.game_id not in warmed:
            get_game(s.game_id).render(s.view, "en")
            warmed.add(s.game_id)
    encode_s = 0.0
    drawn: list[Image.Image] = []
    real_png = common.png_bytes

    def timed_png(img: Image.Image) -> bytes:
        nonlocal encode_s
        t = time.process_time()
        data = real_png(img)
        encode_s += time.process_time() - t
        drawn.append(img)
        return data

    # Every renderer imported png_bytes by name: time it where they call it.
    for name, module in list(sys.modules.items()):
        if name.startswith("bot.") and getattr(module, "png_bytes", None) is real_png:
            module.png_bytes = timed_png  # type: ignore[attr-defined]

    ms: dict[str, list[float]] = defaultdict(list)
    enc: dict[str, float] = defaultdict(float)
    size: dict[str, list[int]] = defaultdict(list)
    dims: dict[str, set[tuple[int, int]]] = defaultdict(set)
    images: dict[str, list[Image.Image]] = defaultdict(list)
    for s in samples:
        game = get_game(s.game_id)
        for lang in ("en", "fr"):
            for _ in range(args.repeat):
                encode_s = 0.0
                drawn.clear()
                t = time.process_time()
                if s.decision is None:
                    png = game.render(s.view, lang)
                else:
                    png = game.render(s.view, lang, s.decision)
                ms[s.game_id].append((time.process_time() - t) * 1000)
                enc[s.game_id] += encode_s * 1000
            size[s.game_id].append(len(png))
            dims[s.game_id].add(Image.open(io.BytesIO(png)).size)
            images[s.game_id] += [img.convert("RGB") for img in drawn]

    print("| game | images | CPU ms p50 | p95 | max | encode share | kB mean | kB max | sizes |")
    print("|---|---|---|---|---|---|---|---|---|")
    worst = 0.0
    for gid in ms:
        xs = ms[gid]
        p95 = pct(xs, 0.95)
        worst = max(worst, p95)
        sizes = sorted(dims[gid])
        shown = f"{sizes[0][0]}x{sizes[0][1]}..{sizes[-1][0]}x{sizes[-1][1]}"
        print(
            f"| {gid} | {len(size[gid])} | {statistics.median(xs):.1f} | {p95:.1f} "
            f"| {max(xs):.1f} | {enc[gid] / sum(xs):.0%} "
            f"| {statistics.mean(size[gid]) / 1024:.0f} | {max(size[gid]) / 1024:.0f} "
            f"| {shown} |"
        )
    verdict = "met" if worst <= GOAL_MS else "NOT met"
    print(f"\nworst p95: {worst:.1f} ms CPU per image (goal <= {GOAL_MS:.0f} ms: {verdict})")

    print("\nEncode alone, on the images drawn above (error: of 255, decoded PNG vs drawn RGB):\n")
    print(
        "| game | images | encode ms p50 | p95 | kB mean | kB max | error mean | max "
        "| previous ms p50 | p95 | kB mean | kB max | error mean | max |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    totals = (EncodeFigures(), EncodeFigures())
    for gid, imgs in images.items():
        now, before = EncodeFigures(), EncodeFigures()
        for img in imgs:  # in turn, so that both see the same load on the machine
            now.measure(real_png, img, args.repeat)
            before.measure(reference_png, img, args.repeat)
        print(f"| {gid} | {len(imgs)} | {now.cells()} | {before.cells()} |")
        for total, part in zip(totals, (now, before), strict=True):
            total.ms += part.ms
            total.kb += part.kb
            total.mean_err += part.mean_err
            total.max_err = max(total.max_err, part.max_err)
    count = sum(len(imgs) for imgs in images.values())
    print(f"| all | {count} | {totals[0].cells()} | {totals[1].cells()} |")
    used = "the stdlib's zlib" if common._deflate is common._zlib_deflate else "ISA-L (isal)"
    print(f"\ndeflate: {used}")


if __name__ == "__main__":
    main()
