"""The shared wording of rolls: real plurals in French (0 and 1 singular) and English."""

from __future__ import annotations

from bot.engine.text import Text
from bot.games.fighters import rolltexts


def test_dice_and_hits_use_real_plurals() -> None:
    assert rolltexts.dice(0) == Text(fr="0 dé", en="0 dice")
    assert rolltexts.dice(1) == Text(fr="1 dé", en="1 die")
    assert rolltexts.dice(3) == Text(fr="3 dés", en="3 dice")
    assert rolltexts.hits(1) == Text(fr="1 touche", en="1 hit")
    assert rolltexts.hits(2) == Text(fr="2 touches", en="2 hits")


def test_a_result_names_each_hp_change() -> None:
    change = rolltexts.hp_change("Cactus", 8, 6)
    assert rolltexts.hits_on(2, [change]) == Text(
        fr="2 touches : Cactus 8 -> 6 PV", en="2 hits: Cactus 8 -> 6 HP"
    )
    line = rolltexts.target_result(change, 2, 3, [5, 3, 2])
    assert line == Text(
        fr="Cactus 8 -> 6 PV ([5, 3, 2] cible 3+ : 2 touches)",
        en="Cactus 8 -> 6 HP ([5, 3, 2] vs 3+: 2 hits)",
    )
    total = rolltexts.hits_in_all(2, [line], Text(fr="fin", en="end"))
    assert total.fr.startswith("2 touches au total : Cactus") and total.fr.endswith(" ; fin")
    assert total.en.startswith("2 hits in all: Cactus") and total.en.endswith("; end")


def test_purposes_name_the_target_and_the_note() -> None:
    note = Text(fr=" (dans le filet : -1 dé)", en=" (netted: -1 die)")
    assert rolltexts.MELEE.at("Baobab", note) == Text(
        fr="un combat contre Baobab (dans le filet : -1 dé)",
        en="melee against Baobab (netted: -1 die)",
    )
    assert rolltexts.SHOT.at("Jojoba") == Text(fr="le tir sur Jojoba", en="the shot at Jojoba")
    assert rolltexts.REROLL.at("Jojoba").en == "the reroll against Jojoba"
