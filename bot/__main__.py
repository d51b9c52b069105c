"""``python -m bot``: see :mod:`bot.cli.main`."""

from bot.cli.main import main

raise SystemExit(main())
