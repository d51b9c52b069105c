"""Command names and descriptions in French and English (issue 6 item 9).

Every ``locale_str`` of :mod:`cogs.arena` carries ``key=``; the sync payload
then holds ``name_localizations``/``description_localizations`` for French and
both English locales, read from :mod:`bot.i18n`.
"""

from __future__ import annotations

from typing import Any

from discord import Locale, app_commands

from bot.engine.registry import get_game
from bot.i18n import COMMANDS


class ArenaTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        if key is None:
            return None
        if key in ("mode-choice", "level-choice"):
            return _choice_name(string.extras, locale is Locale.french)
        if key.startswith("game:"):
            try:
                names = get_game(key.removeprefix("game:")).info.names
            except KeyError:
                return None
            return names.fr if locale is Locale.french else names.en
        if locale is Locale.french:
            return COMMANDS["fr"].get(key)
        if locale in (Locale.american_english, Locale.british_english):
            return COMMANDS["en"].get(key)
        return None


def _choice_name(extras: dict[str, Any], french: bool) -> str | None:
    """A mode choice -> "Game — Mode"; a level choice -> the level's name (from the game)."""
    lang = "fr" if french else "en"
    try:
        info = get_game(str(extras.get("game"))).info
    except KeyError:
        return None
    if extras.get("key") == "mode-choice":
        try:
            mode = info.mode(str(extras.get("mode")))
        except KeyError:
            return None
        return f"{info.names.get(lang)} — {mode.names.get(lang)}"[:100]
    for lv in info.ai_levels:
        if lv.id == extras.get("level"):
            return lv.names.get(lang)[:100]
    return None
