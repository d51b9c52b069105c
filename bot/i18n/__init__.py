"""French and English catalogues for every player-facing string of the Discord layer.

Games bring their own :class:`bot.engine.Text`; the table talk (lobby,
prompts, refusals, timers) lives here so both languages stay complete (a test
compares the keys and placeholders of both catalogues).
"""

from __future__ import annotations

import importlib
import pkgutil

from bot.i18n import en, fr, parts


def _merged() -> dict[str, dict[str, str]]:
    """``en``/``fr`` plus every module of :mod:`bot.i18n.parts`, each key defined once."""
    merged = {"fr": dict(fr.MESSAGES), "en": dict(en.MESSAGES)}
    for info in sorted(pkgutil.iter_modules(parts.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{parts.__name__}.{info.name}")
        for lang, table in (("en", module.EN), ("fr", module.FR)):
            clash = set(table) & set(merged[lang])
            if clash:
                raise ValueError(f"{module.__name__} redefines {sorted(clash)}")
            merged[lang].update(table)
    return merged


CATALOGUES: dict[str, dict[str, str]] = _merged()
COMMANDS: dict[str, dict[str, str]] = {"fr": fr.COMMANDS, "en": en.COMMANDS}


def lang_code(lang: str | None) -> str:
    return "fr" if (lang or "").lower().startswith("fr") else "en"


def t(lang: str | None, key: str, **kwargs: object) -> str:
    """The message ``key`` in ``lang`` (French for any ``fr*`` locale, else English)."""
    text = CATALOGUES[lang_code(lang)].get(key)
    if text is None:
        text = CATALOGUES["en"][key]
    return text.format(**kwargs) if kwargs else text


def command_text(lang: str | None, key: str) -> str:
    return COMMANDS[lang_code(lang)].get(key) or COMMANDS["en"][key]
