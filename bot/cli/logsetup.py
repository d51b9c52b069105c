"""Logging for the running bot, with the Discord token redacted everywhere.

A token in a log file is a stolen bot, so every record is scrubbed: the
filter sits on the root logger and its handlers, and a record factory applies
it to records created by any logger (including handlers added later, such as
discord.py's own).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

REDACTED = "[REDACTED]"


class RedactToken(logging.Filter):
    """Replace the token in a record's message, arguments and exception text."""

    def __init__(self, secret: str) -> None:
        super().__init__()
        self.secret = secret
        self.previous_factory: Callable[..., logging.LogRecord] | None = None

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.secret:
            return True
        try:
            message = record.getMessage()
        except Exception:  # a malformed record: scrub its raw parts instead
            message = " ".join([str(record.msg), *map(str, record.args or ())])
        if self.secret in message:
            record.msg = message.replace(self.secret, REDACTED)
            record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text and self.secret in record.exc_text:
            record.exc_text = record.exc_text.replace(self.secret, REDACTED)
        if record.stack_info and self.secret in record.stack_info:
            record.stack_info = record.stack_info.replace(self.secret, REDACTED)
        return True


def install_redaction(secret: str) -> RedactToken:
    """Scrub ``secret`` from every log record from now on."""
    redactor = RedactToken(secret)
    root = logging.getLogger()
    root.addFilter(redactor)
    for handler in root.handlers:
        handler.addFilter(redactor)
    previous: Callable[..., logging.LogRecord] = logging.getLogRecordFactory()
    redactor.previous_factory = previous

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        redactor.filter(record)
        return record

    logging.setLogRecordFactory(factory)
    return redactor


def remove_redaction(redactor: RedactToken) -> None:
    """Undo :func:`install_redaction` (tests; the bot keeps it for its lifetime)."""
    root = logging.getLogger()
    root.removeFilter(redactor)
    for handler in root.handlers:
        handler.removeFilter(redactor)
    if redactor.previous_factory is not None:
        logging.setLogRecordFactory(redactor.previous_factory)
        redactor.previous_factory = None


def configure_logging(secret: str, level: int = logging.INFO) -> RedactToken:
    """Plain timestamped lines on stderr, token redacted."""
    logging.basicConfig(
        level=level,
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
    )
    return install_redaction(secret)
