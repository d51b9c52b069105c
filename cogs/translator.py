"""Command names and descriptions in French and English (issue 6 item 9).

Every ``locale_str`` of :mod:`cogs.arena` carries ``key=``; the sync payload
then holds ``name_localizations``/``description_localizations`` for French and
both English locales, read from :mod:`bot.i18n`.
"""

from __future__ import annotations

from discord import Locale, app_commands

from bot.engine.registry import all_games, get_game
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
        if key.startswith(("mode:", "level:")):
            return _choice_name(key, locale is Locale.french)
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


def _choice_name(key: str, french: bool) -> str | None:
    """``mode:<game>:<mode>`` -> "Game — Mode"; ``level:<id>`` -> the level's name."""
    from bot.gm.present import ai_levels

    kind, _, rest = key.partition(":")
    if kind == "mode":
        game_id, _, mode_id = rest.partition(":")
        try:
            info = get_game(game_id).info
            mode = info.mode(mode_id)
        except KeyError:
            return None
        lang = "fr" if french else "en"
        return f"{info.names.get(lang)} — {mode.names.get(lang)}"[:100]
    for game in all_games():
        for lid, fr, en in ai_levels(game):
            if lid == rest:
                return (fr if french else en)[:100]
    return None
