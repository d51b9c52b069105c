"""Strings of private prompts and of absent players (issue 11 items 3 and 6)."""

from __future__ import annotations

EN: dict[str, str] = {
    "absent.autopilot": (
        "🤖 {who} missed two deadlines: the AI plays their seat from now on. "
        "One click on the button below gives it back."
    ),
    "absent.take_back": "I'm back: give me my seat",
    "prompt.select_labels": "Choose: {first} … {last}",
}

FR: dict[str, str] = {
    "absent.autopilot": (
        "🤖 {who} a laissé passer deux délais : l'IA joue désormais à sa place. "
        "Un clic sur le bouton ci-dessous la lui rend."
    ),
    "absent.take_back": "Je suis là : je reprends ma place",
    "prompt.select_labels": "Choisir : {first} … {last}",
}
