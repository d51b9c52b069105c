"""The dice log reads like the table: every roll line can be checked by hand.

§2.4 (Combat, Tir) and the Bottes secrètes: from the line alone (dice,
modifier, target number, sums, HP before -> after) a player recomputes the
hits, as the issue asks ("a dice log that a player can check by hand").
"""

from __future__ import annotations

import re

import bot.games.mad_arena  # noqa: F401
from bot.engine import Match, SeatSpec
from bot.engine.autoplay import play_out
from bot.engine.events import RollEvent

ZONE_LINE = re.compile(
    r"(?P<name>[^;:]+?) (?P<a>\d+) -> (?P<b>\d+) HP \((?:\[(?P<seen>[\d, ]+)\] )?vs (?P<d>\d)\+: (?P<k>\d+) hits?\)"
)
SINGLE = re.compile(r"^(?P<k>\d+) hits?: (?P<name>.+?) (?P<a>\d+) -> (?P<b>\d+) HP")


def _rolls() -> list[RollEvent]:
    out: list[RollEvent] = []
    for mode, n, seed in [
        ("ultimate-warrior", 7, 3),
        ("ultimate-warrior", 7, 11),
        ("ultimate-warrior", 7, 6),
        ("ultimate-warrior", 6, 5),
        ("team-spirit", 2, 1),
        ("brothers-in-arms", 3, 2),
        ("brothers-in-arms", 6, 4),
    ]:
        m = Match.create(
            "mad-arena", [SeatSpec(name=f"P{i}", ai=True) for i in range(n)], seed=seed, mode=mode
        )
        play_out(m, max_decisions=3000)
        out += [e for e in m.events if isinstance(e, RollEvent)]
    return out


ROLLS = _rolls()


def _number(pattern: str, text: str) -> int:
    """The number a roll's line gives for ``pattern`` (which must be there)."""
    found = re.search(pattern, text)
    assert found, (pattern, text)
    return int(found[1])


def test_single_target_rolls_show_dice_target_hits_and_hp() -> None:
    """Each die (+ modifier) >= the target number wounds by 1 HP, down to 0."""
    checked = 0
    for r in ROLLS:
        if r.target is None:
            continue
        assert r.result is not None
        m = SINGLE.match(r.result.en)
        assert m, r.text.en
        hits = sum(1 for d in r.dice if d + r.modifier >= r.target)
        assert int(m["k"]) == hits, r.text.en
        a, b = int(m["a"]), int(m["b"])
        assert b == max(0, a - hits), r.text.en
        assert f"{a} -> {b}" in r.text.fr and f"(cible {r.target}+)" in r.text.fr
        checked += 1
    assert checked > 100


def test_zone_rolls_list_each_fighter_with_its_own_target_number() -> None:
    """Powder keg: one roll against each fighter's defence. Strike: the dice that
    miss one target pass, in the chosen order, to the next (shown in brackets)."""
    kinds = set()
    for r in ROLLS:
        if r.target is not None:
            continue
        assert r.result is not None
        en = r.result.en
        if "bramble net" in r.purpose.en:
            kinds.add("net")
            total = sum(r.dice)
            assert en.startswith(f"sum {total} "), r.text.en
            continue
        lines = list(ZONE_LINE.finditer(en))
        assert lines, r.text.en
        remaining = list(r.dice)
        total = 0
        for m in lines:
            d, k = int(m["d"]), int(m["k"])
            if "Strike" in r.purpose.en:
                kinds.add("strike")
                seen = [int(x) for x in m["seen"].split(",")]
                assert seen == remaining, r.text.en
                remaining = [x for x in seen if x < d]
                assert k == sum(1 for x in seen if x >= d), r.text.en
            else:
                kinds.add("keg")
                assert k == sum(1 for x in r.dice if x >= d), r.text.en
            assert int(m["b"]) == max(0, int(m["a"]) - k), r.text.en
            total += k
        assert en.startswith(f"{total} hit"), r.text.en
    assert kinds == {"net", "strike", "keg"}


def test_computed_dice_counts_are_explained_on_the_line() -> None:
    """Kamikaze (min(6, 8 - HP)), Terminotaure (cards played), the dragon's split
    and the kick's landing (by thrown size) say why they roll that many dice."""
    seen = set()
    for r in ROLLS:
        p = r.purpose.en
        seen |= {k for k in ("kamikaze", "Terminotaure", "landing", "of its") if k in p}
        if "kamikaze" in p:
            hp = _number(r"8 - (\d+) HP", p)
            assert len(r.dice) == min(6, 8 - hp) - ("netted" in p), r.text.en
        if "Terminotaure" in p:
            k = _number(r"dice = (\d+) card", p)
            assert len(r.dice) == k - ("netted" in p), r.text.en
        if "landing" in p:
            size = _number(r"size (\d+)", p)
            assert len(r.dice) == (1 if size <= 8 else 2 if size <= 12 else 3), r.text.en
        if "of its" in p:
            assert len(r.dice) == _number(r"\((\d+) of its", p), r.text.en
    assert seen == {"kamikaze", "Terminotaure", "landing", "of its"}
