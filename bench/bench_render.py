"""Render + encode CPU time and bytes per image, per game (issue 16 item 3).

Draws the images of ``tests/render/samples.py`` (public, a seat's, a prompt's marks;
start, middle and end of seeded AI matches; every mode at its smallest and largest
player count) in both languages, uncached, ``--repeat`` times each, and prints per game
a Markdown row: images, CPU ms p50/p95/max for render + encode, the encode's share,
bytes mean/max and the image sizes. The goal is p95 <= 30 ms CPU per image.

    .venv/bin/python bench/bench_render.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

import bot.render.common as common  # noqa: E402
from bot.engine.registry import get_game  # noqa: E402
from tests.render.samples import all_samples  # noqa: E402

GOAL_MS = 30.0


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="draws of each image (default 3)")
    args = ap.parse_args()

    samples = all_samples()
    warmed: set[str] = set()
    for s in samples:  # imports each renderer and loads its fonts before timing
        if s.game_id not in warmed:
            get_game(s.game_id).render(s.view, "en")
            warmed.add(s.game_id)
    encode_s = 0.0
    real_png = common.png_bytes

    def timed_png(img: Image.Image) -> bytes:
        nonlocal encode_s
        t = time.process_time()
        data = real_png(img)
        encode_s += time.process_time() - t
        return data

    # Every renderer imported png_bytes by name: time it where they call it.
    for name, module in list(sys.modules.items()):
        if name.startswith("bot.") and getattr(module, "png_bytes", None) is real_png:
            module.png_bytes = timed_png  # type: ignore[attr-defined]

    ms: dict[str, list[float]] = defaultdict(list)
    enc: dict[str, float] = defaultdict(float)
    size: dict[str, list[int]] = defaultdict(list)
    dims: dict[str, set[tuple[int, int]]] = defaultdict(set)
    for s in samples:
        game = get_game(s.game_id)
        for lang in ("en", "fr"):
            for _ in range(args.repeat):
                encode_s = 0.0
                t = time.process_time()
                if s.decision is None:
                    png = game.render(s.view, lang)
                else:
                    png = game.render(s.view, lang, s.decision)
                ms[s.game_id].append((time.process_time() - t) * 1000)
                enc[s.game_id] += encode_s * 1000
            size[s.game_id].append(len(png))
            dims[s.game_id].add(Image.open(io.BytesIO(png)).size)

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


if __name__ == "__main__":
    main()
