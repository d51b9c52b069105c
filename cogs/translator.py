"""Command names and descriptions in French and English (issue 6 item 9).

Every ``locale_str`` of :mod:`cogs.arena` carries ``key=``; the sync payload
then holds ``name_localizations``/``description_localizations`` for French and
both English locales, read from :mod:`bot.i18n`.
"""

from __future__ import annotations

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
