"""Entry point of ``python -m bot``: parse the command line and dispatch.

``main(argv)`` returns the exit code instead of exiting, so tests run every
command in-process. Refusals (:class:`CliError`) become a message on stderr
and their exit code, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.cli.errors import CliError

DESCRIPTION = """\
Arena Master: a Discord referee for board games.

Without a command, starts the bot (DISCORD_TOKEN from .env or the environment).
The other commands work offline, without a token."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    games = sub.add_parser("games", help="list the games, their player counts and modes")
    games.add_argument("--json", action="store_true", help="print the list as JSON")

    sim = sub.add_parser(
        "simulate",
        help="play a full match with AI seats; write images, a GIF and the log",
        description="Play a full match with AI seats and write one PNG per round, "
        "the final position, an animated GIF and the Markdown event and dice log.",
    )
    sim.add_argument("--game", required=True, help="game id (see: python -m bot games)")
    sim.add_argument("--players", type=int, help="number of seats (default: the mode's smallest)")
    sim.add_argument("--mode", help="mode id (default: the game's first mode)")
    sim.add_argument("--seed", help="seed of the dice (default: a random one, printed)")
    sim.add_argument("--out", default="sim-out", help="output directory (default: sim-out)")
    sim.add_argument("--json", action="store_true", help="end with one JSON summary line")
    sim.add_argument("--cards", metavar="PATH", help="card data file (sets the option 'cards')")
    sim.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option, repeatable (see: python -m bot games)",
    )
    sim.add_argument(
        "--lang", choices=["fr", "en"], default="en", help="language of images and log"
    )

    ver = sub.add_parser(
        "verify",
        help="recompute every roll of a finished match and replay its decisions",
        description="Check a finished match: every roll against the revealed seed and its "
        "published SHA-256, and a replay of every decision. Exit 0 if all match, 1 otherwise.",
    )
    ver.add_argument("logfile", nargs="?", help="a Markdown or JSON match log")
    ver.add_argument("--db", metavar="PATH", help="the bot's SQLite file")
    ver.add_argument("--match", type=int, metavar="ID", help="match id in --db")

    sub.add_parser(
        "perft",
        help="a game's move-generator check, e.g. python -m bot perft mad --help",
        add_help=False,
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args_list = sys.argv[1:] if argv is None else list(argv)
    try:
        if args_list and args_list[0] == "perft":
            from bot.cli.perft import perft_command

            return perft_command(args_list[1:])
        parser = build_parser()
        try:
            args = parser.parse_args(args_list)
        except SystemExit as exc:  # argparse printed usage or help
            return int(exc.code or 0) if not isinstance(exc.code, str) else 2
        return dispatch(args)
    except CliError as exc:
        print(exc.message.rstrip("\n"), file=sys.stderr)
        return exc.code


def dispatch(args: argparse.Namespace) -> int:
    if args.command is None:
        from bot.cli.run import run

        return run()
    if args.command == "games":
        from bot.cli.games import games_command

        return games_command(args.json)
    if args.command == "simulate":
        from bot.cli.simulate import SimulateArgs, simulate_command

        return simulate_command(
            SimulateArgs(
                game=args.game,
                players=args.players,
                mode=args.mode,
                seed=args.seed,
                out=Path(args.out),
                json=args.json,
                cards=args.cards,
                options=args.option,
                lang=args.lang,
            )
        )
    if args.command == "verify":
        from bot.cli.verify import verify_command

        return verify_command(args.logfile, args.db, args.match)
    raise CliError(f"Unknown command {args.command!r}.")
