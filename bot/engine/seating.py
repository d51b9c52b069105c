"""Per-seat choices a game asks in the lobby (a fighter, a team), declared by the game.

A game lists them in ``GameInfo.seat_choices``; the lobby shows one select per
choice (the player for their own seat, the host for any seat), and the values
reach ``setup`` on :attr:`bot.engine.game.SeatSpec.choices`. The lobby knows no
game word: names, values and when a choice applies all come from here. The game's
``setup`` still validates what it receives (a lobby is not a referee).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from bot.engine.text import Text


class ChoiceValue(BaseModel):
    """One value a seat choice may take (``agaric``), with its name and an optional emoji."""

    id: str
    names: Text
    emoji: str | None = None


class SeatChoice(BaseModel):
    """A choice each seat makes in the lobby.

    ``unique``: two seats never hold the same value (a fighter); the lobby refuses a
    taken value and shows which are taken. ``host_only``: only the host sets it (the
    teams the host composes). ``modes`` and ``when`` say when it applies: in these
    modes (empty: all), and only while each named option has one of the listed values.
    """

    id: str
    names: Text
    values: list[ChoiceValue]
    unique: bool = False
    host_only: bool = False
    modes: list[str] = Field(default_factory=list)
    when: dict[str, list[Any]] = Field(default_factory=dict)
    help: Text | None = None

    def value(self, value_id: str | None) -> ChoiceValue | None:
        for v in self.values:
            if v.id == value_id:
                return v
        return None

    def applies(self, mode: str, options: dict[str, Any]) -> bool:
        """Whether the lobby asks it for this mode and these options."""
        if self.modes and mode not in self.modes:
            return False
        return all(options.get(k) in allowed for k, allowed in self.when.items())


def active_choices(
    choices: list[SeatChoice], mode: str, options: dict[str, Any]
) -> list[SeatChoice]:
    """The seat choices that apply now, in the game's order."""
    return [c for c in choices if c.applies(mode, options)]


def taken(values: list[dict[str, str]], choice: SeatChoice, but: int | None = None) -> set[str]:
    """Values of ``choice`` already held by the seats (``values`` per seat), except seat ``but``."""
    return {v[choice.id] for i, v in enumerate(values) if i != but and choice.id in v}
