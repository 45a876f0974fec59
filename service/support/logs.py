"""Logging of the service: one JSON object per line, for the service's loggers and
uvicorn's alike, so that a log collector never has to parse free text."""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import parse_qsl, urlencode

from pythonjsonlogger.core import RESERVED_ATTRS

FIELDS = "%(levelname)s %(name)s %(message)s"
RENAMED = {"levelname": "level", "name": "logger"}
# uvicorn repeats each message with terminal colours in this attribute.
NOT_LOGGED = [*RESERVED_ATTRS, "color_message"]
# Query parameters the service reads; the values of any others are not logged.
KNOWN_QUERY_PARAMETERS = {"since"}


class QueryRedaction(logging.Filter):
    """Keeps the values of unknown query parameters out of uvicorn's request lines.

    The service never takes a token in a URL, but a client may still put one there (a
    browser cannot set headers on a WebSocket): such a line keeps the parameter's name and
    loses its value.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.startswith("uvicorn") and isinstance(record.args, tuple):
            record.args = tuple(_redacted(arg) for arg in record.args)
        return True


def _redacted(arg: object) -> object:
    if not (isinstance(arg, str) and arg.startswith("/") and "?" in arg):
        return arg
    path, _, query = arg.partition("?")
    pairs = parse_qsl(query, keep_blank_values=True)
    kept = [(key, value if key in KNOWN_QUERY_PARAMETERS else "-") for key, value in pairs]
    return f"{path}?{urlencode(kept)}"


def log_config(level: str) -> dict[str, Any]:
    """A ``logging.config.dictConfig`` configuration (uvicorn's ``log_config``).

    It replaces uvicorn's own configuration, so uvicorn's loggers get no handler of their
    own: their records reach the root handler, and every line has the same shape.
    """
    level = level.upper()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "json": {
                "()": "pythonjsonlogger.json.JsonFormatter",
                "fmt": FIELDS,
                "rename_fields": RENAMED,
                "reserved_attrs": NOT_LOGGED,
                "timestamp": "time",
            }
        },
        "filters": {"queries": {"()": QueryRedaction}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": "json",
                "filters": ["queries"],
                "stream": "ext://sys.stderr",
            }
        },
        "root": {"handlers": ["stderr"], "level": level},
    }
