"""Postures and the values they give (book, "Bouger", "Attaquer", "Conséquences des cas spéciaux")."""

from __future__ import annotations

from typing import Literal

from bot.engine.text import Text

Posture = Literal["garde", "defensive", "balancee", "agressive", "dechainee"]
POSTURES: tuple[Posture, ...] = ("garde", "defensive", "balancee", "agressive", "dechainee")

POSTURE_NAMES: dict[str, Text] = {
    "garde": Text(fr="En garde", en="On guard"),
    "defensive": Text(fr="Défensive", en="Defensive"),
    "balancee": Text(fr="Balancée", en="Balanced"),
    "agressive": Text(fr="Agressive", en="Aggressive"),
    "dechainee": Text(fr="Déchaînée", en="Unleashed"),
    "sol": Text(fr="Au sol", en="On the ground"),
}
POSTURE_EMOJI: dict[str, str] = {
    "garde": "🤺",  # not 🛡️: that is the defence dice on the same buttons
    "defensive": "🔰",
    "balancee": "⚖️",
    "agressive": "⚔️",
    "dechainee": "🔥",
    "sol": "⬇️",
}

# "Bouger": hexes to cross; "Attaquer": attacker's dice = this same value.
MOVE: dict[str, int] = {"garde": 0, "defensive": 1, "balancee": 2, "agressive": 3, "dechainee": 4}
ATTACK: dict[str, int] = dict(MOVE)
# "Le défenseur, lui, lance un nombre de dés équivalent à sa propre posture".
DEFENCE: dict[str, int] = {
    "garde": 4,
    "defensive": 3,
    "balancee": 2,
    "agressive": 1,
    "dechainee": 0,
}

# "Au sol": Bouger 0, Attaque 1, Défense 1.
GROUND_MOVE = 0
GROUND_ATTACK = 1
GROUND_DEFENCE = 1

START_HP = 7
MAX_HP = 7
HANDICAP_HP = 3
ROUNDS = 10


def disarmed(dice: int) -> int:
    """ "Désarmé": -2 dice, minimum 1.

    Choice (RULES.md): the minimum keeps a penalised value at 1 die but never
    raises a value that was already 0 (en garde attack, déchaîné defence), so
    the penalty never helps.
    """
    return min(dice, max(1, dice - 2))


def move_allowance(posture: str, down: bool, hp: int) -> int:
    """Hexes the fighter must cross: the posture's value, 0 on the ground,
    never more than its HP at 3 HP or less ("Handicap")."""
    if down:
        return GROUND_MOVE
    value = MOVE[posture]
    if hp <= HANDICAP_HP:
        value = min(value, hp)
    return value


def attack_dice(posture: str, down: bool, is_disarmed: bool) -> int:
    """Attacker's dice ("Attaquer", "Au sol", "Désarmé"); the handicap does not change it."""
    value = GROUND_ATTACK if down else ATTACK[posture]
    return disarmed(value) if is_disarmed else value


def defence_dice(posture: str, down: bool, is_disarmed: bool) -> int:
    """Defender's dice ("Attaquer", "Au sol", "Désarmé")."""
    value = GROUND_DEFENCE if down else DEFENCE[posture]
    return disarmed(value) if is_disarmed else value


def attack_value(posture: str, down: bool) -> int:
    """The attack value read on the posture table for "Blessures": the posture's,
    or the "au sol" space's (1). The disarmed penalty is "-2 dés": dice only."""
    return GROUND_ATTACK if down else ATTACK[posture]


def defence_value(posture: str, down: bool) -> int:
    """The defence value read on the posture table for "Blessures" (see :func:`attack_value`)."""
    return GROUND_DEFENCE if down else DEFENCE[posture]


def damage(attack_value: int, defence_value: int) -> int:
    """ "Blessures": attack value minus defence value, at least 1."""
    return max(1, attack_value - defence_value)
