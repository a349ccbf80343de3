"""Log records on stderr: one JSON object per line (LOG_FORMAT=json, production's default) or plain text.

Every record carries the request it was logged in (request_id, method, path) through a filter on the handler, so a
log shipper can join the access line, a warning from a service and the audit entry of the same request.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime

from flask import Flask, has_request_context, request
from flask.logging import default_handler

from ..config import ConfigError
from .request_context import current_request_id

ACCESS_LOGGER = "insightshop.access"
# Attributes a record may carry through `extra=` that belong in the JSON object (the access line's).
EXTRA_FIELDS = ("status", "duration_ms", "endpoint")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s%(request_tag)s %(message)s"


class RequestContextFilter(logging.Filter):
    """Adds request_id, method and path to every record (None outside a request); never drops a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = current_request_id()
        if not hasattr(record, "method"):
            record.method = request.method if has_request_context() else None
        if not hasattr(record, "path"):
            record.path = loggable_path() if has_request_context() else None
        return True


def loggable_path() -> str:
    """The request's path with secrets in it (password-reset and verification tokens) blanked out; the query
    string is never logged."""
    path = request.path
    for name, value in (request.view_args or {}).items():
        if "token" in name and value:
            path = path.replace(str(value), "[redacted]")
    return path


class JsonFormatter(logging.Formatter):
    """One JSON object per record: timestamp, level, logger, message, request fields, exception text."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "timestamp": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None),
            "method": getattr(record, "method", None),
            "path": getattr(record, "path", None),
        }
        entry.update({name: getattr(record, name) for name in EXTRA_FIELDS if hasattr(record, name)})
        if record.exc_info:
            entry["exc_info"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack_info"] = self.formatStack(record.stack_info)
        # default=str: a message argument that is not JSON (a Decimal, an exception) must not lose the line.
        return json.dumps(entry, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    """For people at a terminal: the usual line, with the request id in brackets when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        request_id = getattr(record, "request_id", None)
        record.request_tag = f" [{request_id}]" if request_id else ""
        return super().format(record)


class StderrHandler(logging.StreamHandler):
    """Writes to whatever sys.stderr is now (as logging's last-resort handler does), not the stream at creation:
    test runners and process managers swap it."""

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, _value) -> None:
        pass


def make_handler(log_format: str) -> logging.Handler:
    handler = StderrHandler()
    handler.addFilter(RequestContextFilter())
    if log_format == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(TextFormatter(TEXT_FORMAT))
    handler._insightshop = True  # so that a second app in the same process replaces it instead of doubling lines
    return handler


def init_app(app: Flask) -> None:
    """Send every logger's records (the app's, libraries', the access line) to one handler on the root logger."""
    log_format = app.config.get("LOG_FORMAT", "text")
    if log_format not in ("json", "text"):
        raise ConfigError(f"LOG_FORMAT must be json or text, not {log_format!r}")
    root = logging.getLogger()
    for handler in [h for h in root.handlers if getattr(h, "_insightshop", False)]:
        root.removeHandler(handler)
    root.addHandler(make_handler(log_format))
    root.setLevel(app.config.get("LOG_LEVEL", "INFO"))
    app.logger.removeHandler(default_handler)  # Flask's own stderr handler would print each app record twice
    logging.getLogger(ACCESS_LOGGER).setLevel(logging.INFO)
