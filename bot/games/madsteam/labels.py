"""Names of places and resources in both languages, with real plurals."""

from __future__ import annotations

from bot.engine.text import Text

PLACE_NAMES: dict[str, Text] = {
    "well": Text(fr="Puits", en="Well"),
    "armoury": Text(fr="Armurerie", en="Armoury"),
    "forest": Text(fr="Forêt", en="Forest"),
    "house_a": Text(fr="Maison A", en="House A"),
    "house_b": Text(fr="Maison B", en="House B"),
    "factory": Text(fr="Usine", en="Factory"),
    "supermarket": Text(fr="Supermarché", en="Supermarket"),
    "mine": Text(fr="Mine", en="Mine"),
}

# (fr singular, fr plural, en singular, en plural)
RES_WORDS: dict[str, tuple[str, str, str, str]] = {
    "water": ("eau", "eaux", "water", "water"),
    "food": ("nourriture", "nourritures", "food", "food"),
    "cans": ("conserve", "conserves", "can", "cans"),
    "wood": ("bois", "bois", "wood", "wood"),
    "metal": ("métal", "métaux", "metal", "metal"),
    "chips": ("puce", "puces", "chip", "chips"),
    "ammo": ("munition", "munitions", "ammo", "ammo"),
    "comfort": ("confort", "confort", "comfort", "comfort"),
}
RES_EMOJI: dict[str, str] = {
    "water": "💧",
    "food": "🍖",
    "cans": "🥫",
    "wood": "🪵",
    "metal": "🔩",
    "chips": "💾",
    "ammo": "🔫",
    "comfort": "🛋️",
}


def res_name(r: str) -> Text:
    w = RES_WORDS[r]
    return Text(fr=w[1].capitalize(), en=w[3].capitalize())


def amount(n: int, r: str, lang: str) -> str:
    """``3 bois`` / ``1 chip`` / ``2 chips``: the count and its noun in ``lang``."""
    fs, fp, es, ep = RES_WORDS[r]
    if lang.startswith("fr"):
        return f"{n} {fs if n in (0, 1) else fp}"
    return f"{n} {es if n == 1 else ep}"


def amounts(bag: dict[str, int], lang: str) -> str:
    parts = [amount(v, k, lang) for k, v in bag.items() if v]
    if not parts:
        return "rien" if lang.startswith("fr") else "nothing"
    return ", ".join(parts)


def bag_text(bag: dict[str, int]) -> Text:
    return Text(fr=amounts(bag, "fr"), en=amounts(bag, "en"))


def survivors(n: int, lang: str) -> str:
    if lang.startswith("fr"):
        return f"{n} survivant" + ("" if n in (0, 1) else "s")
    return f"{n} survivor" + ("" if n == 1 else "s")
