"""How a command refuses bad input: a message for the operator, not a traceback."""

from __future__ import annotations

USAGE_ERROR = 2
"""Exit code for bad input or configuration (argparse uses 2 as well)."""


class CliError(Exception):
    """A clear, friendly refusal; ``main`` prints it on stderr and exits with ``code``."""

    def __init__(self, message: str, code: int = USAGE_ERROR) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
