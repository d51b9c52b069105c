"""Decision deadlines: which applies, and the per-match overrides.

Issue 6 item 6: defaults of 5 minutes for card picks and turns, 60 s for
in-action choices, 30 s for reactions; a reminder at half time; at the
deadline the AI decides for that seat.
"""

from __future__ import annotations

from typing import Any

DEFAULTS: dict[str, int] = {"pick": 300, "turn": 300, "action": 60, "reaction": 30}
TIMERS_KEY = "_timers"
"""Where the lobby keeps the chosen deadlines among its options."""
SETTINGS_KEY = "timers"
"""Where a started match keeps them in its store settings."""

PICK_CHOICES = (60, 120, 300, 900, 3600, 86400)
ACTION_CHOICES = (30, 60, 120, 300)
REACTION_CHOICES = (15, 30, 60, 120)


def timers(options: dict[str, Any]) -> dict[str, int]:
    out = dict(DEFAULTS)
    out.update({k: int(v) for k, v in (options.get(TIMERS_KEY) or {}).items() if k in DEFAULTS})
    return out


def human(seconds: int, lang: str) -> str:
    if seconds % 3600 == 0:
        return f"{seconds // 3600} h"
    if seconds % 60 == 0:
        return f"{seconds // 60} min"
    return f"{seconds} s"
