"""The ``python -m bot`` command line: start the bot, list games, simulate, verify, perft."""
