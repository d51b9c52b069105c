"""Player-facing text in both languages the bot speaks.

Games produce :class:`Text` pairs instead of bare strings so the Discord layer
can answer each reader in French or English without a second lookup.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

Lang = Literal["fr", "en"]


class Text(BaseModel):
    """A string in French and English."""

    model_config = ConfigDict(frozen=True)

    fr: str
    en: str

    def get(self, lang: str) -> str:
        """The text in ``lang``; anything that is not French reads English."""
        return self.fr if lang.startswith("fr") else self.en

    def format(self, **kwargs: object) -> Text:
        return Text(fr=self.fr.format(**kwargs), en=self.en.format(**kwargs))


def lang_of(locale: str | None) -> Lang:
    """Map a Discord locale (``fr``, ``en-US``...) to one of our two languages."""
    return "fr" if (locale or "").lower().startswith("fr") else "en"


def plural(n: int, one: str, many: str, lang: str = "en") -> str:
    """``n`` and its noun, singular or plural as the language wants.

    French uses the singular for 0 and 1 ("0 dé", "1 dé", "2 dés"); English only for 1.
    """
    single = n in (0, 1) if lang.startswith("fr") else n == 1
    return f"{n} {one if single else many}"
