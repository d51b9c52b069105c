"""The wording of attack rolls, shared by the fighting games (French and English).

Every roll names what it is for (its purpose) and, once resolved, its result,
so a player can check it by hand. Counts use real plurals (French singular
for 0 and 1, English for 1 only: ``bot.engine.text.plural``).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.text import Text, plural


def dice(n: int) -> Text:
    """``1 dé`` / ``2 dés``, ``1 die`` / ``2 dice``."""
    return Text(fr=plural(n, "dé", "dés", "fr"), en=plural(n, "die", "dice", "en"))


def hits(n: int) -> Text:
    """``0 touche`` / ``2 touches``, ``0 hits`` / ``1 hit``."""
    return Text(fr=plural(n, "touche", "touches", "fr"), en=plural(n, "hit", "hits", "en"))


def hp_change(name: str, before: int, after: int) -> str:
    """``Cactus 8 -> 6``: the HP before and after, checkable by hand."""
    return f"{name} {before} -> {after}"


def hits_on(n: int, changes: list[str]) -> Text:
    """One roll's result on one or more fighters: ``2 touches : Cactus 8 -> 6 PV``."""
    body = "; ".join(changes)
    h = hits(n)
    return Text(fr=f"{h.fr} : {body} PV", en=f"{h.en}: {body} HP")


def target_result(change: str, n: int, defence: int, rolled: list[int] | None = None) -> Text:
    """One target of a shared roll: ``Cactus 8 -> 6 HP ([5, 3, 2] vs 3+: 2 hits)``."""
    seen = f"[{', '.join(map(str, rolled))}] " if rolled is not None else ""
    h = hits(n)
    return Text(
        fr=f"{change} PV ({seen}cible {defence}+ : {h.fr})",
        en=f"{change} HP ({seen}vs {defence}+: {h.en})",
    )


def hits_in_all(n: int, lines: list[Text], tail: Text | None = None) -> Text:
    """A roll against several fighters: the total, then each target's line."""
    parts = [*lines, *([tail] if tail else [])]
    h = hits(n)
    return Text(
        fr=f"{h.fr} au total : " + " ; ".join(x.fr for x in parts),
        en=f"{h.en} in all: " + "; ".join(x.en for x in parts),
    )


@dataclass(frozen=True)
class Purpose:
    """What a roll is for, with ``{target}`` standing for the target's name."""

    fr: str
    en: str

    def at(self, target: str, note: Text | None = None) -> Text:
        """This purpose against ``target``, followed by ``note`` (why the dice differ)."""
        return Text(
            fr=self.fr.format(target=target) + (note.fr if note else ""),
            en=self.en.format(target=target) + (note.en if note else ""),
        )


MELEE = Purpose(fr="un combat contre {target}", en="melee against {target}")
"""Mad Arena §2.4 Combat."""
RANGED = Purpose(fr="un tir sur {target}", en="a ranged attack on {target}")
"""Mad Arena §2.4 Tir."""
CLOSE_COMBAT = Purpose(fr="le corps à corps contre {target}", en="melee against {target}")
"""Ultimate Warriorz §4.3 Corps à corps."""
SHOT = Purpose(fr="le tir sur {target}", en="the shot at {target}")
"""Ultimate Warriorz §4.3 Tir."""
REROLL = Purpose(fr="la relance contre {target}", en="the reroll against {target}")
"""Ultimate Warriorz PORTE-BONHEUR: the dice the defender made the attacker reroll."""
