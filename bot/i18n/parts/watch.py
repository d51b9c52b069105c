"""Strings of where a match is played (its thread), of spectators, and of retired prompts."""

from __future__ import annotations

EN: dict[str, str] = {
    "watch.thread_on": "Play in a thread",
    "watch.thread_off": "Play in this channel",
    "watch.thread_yes": "Played in a thread of its own",
    "watch.thread_no": "Played in this channel",
    "watch.played_in": "The match is played in {where}.",
    "watch.no_thread": "(I could not open a thread here, so the match is played in this channel.)",
    "watch.spectator": (
        "You are watching this match: it has no seat for you. "
        "Join the next one with `/arena start`, or with the **Rematch** button at the end."
    ),
    "watch.retired": "This prompt is closed: {why}",
    "watch.by_ai": "the AI answered for **{who}** when the time ran out.",
    "watch.by_autopilot": "the AI is playing **{who}**'s seat.",
    "watch.answered": "you answered it in another message.",
    "watch.moved_on": "the match has moved on.",
    "watch.match_over": "the match is over.",
}

FR: dict[str, str] = {
    "watch.thread_on": "Jouer dans un fil",
    "watch.thread_off": "Jouer dans ce salon",
    "watch.thread_yes": "Se joue dans son propre fil",
    "watch.thread_no": "Se joue dans ce salon",
    "watch.played_in": "La partie se joue dans {where}.",
    "watch.no_thread": "(Je n'ai pas pu ouvrir de fil ici : la partie se joue donc dans ce salon.)",
    "watch.spectator": (
        "Vous regardez cette partie : vous n'y avez pas de place. "
        "Rejoignez la suivante avec `/arène lancer`, ou avec le bouton **Revanche** à la fin."
    ),
    "watch.retired": "Ce choix est clos : {why}",
    "watch.by_ai": "l'IA a répondu pour **{who}** à la fin du temps imparti.",
    "watch.by_autopilot": "l'IA joue à la place de **{who}**.",
    "watch.answered": "vous y avez répondu dans un autre message.",
    "watch.moved_on": "la partie a avancé depuis.",
    "watch.match_over": "la partie est terminée.",
}
