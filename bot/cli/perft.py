"""``python -m bot perft GAME ...``: hand over to a game's move-generator check.

Only games that ship a ``perft`` module (MAD) have one; the words after the
game id are passed on untouched.
"""

from __future__ import annotations

import importlib

from bot.cli.errors import CliError


def perft_command(argv: list[str]) -> int:
    if not argv or argv[0].startswith("-"):
        raise CliError(
            "Usage: python -m bot perft GAME [ARGS...]   (for example: python -m bot perft mad --help)"
        )
    game, rest = argv[0], argv[1:]
    module_name = f"bot.games.{game.replace('-', '_')}.perft"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module_name.startswith(exc.name):
            raise CliError(f"There is no perft for {game!r} (no module {module_name}).") from None
        raise
    entry = getattr(module, "main", None)
    if entry is None:
        raise CliError(f"{module_name} has no main(argv) entry point.")
    try:
        code = entry(rest)
    except SystemExit as exc:  # the game's own argparse (--help, bad usage)
        code = exc.code
    if isinstance(code, str):
        print(code)
        return 1
    return int(code or 0)
