"""Logging of the service: one JSON object per line, for the service's loggers and
uvicorn's alike, so that a log collector never has to parse free text."""

from __future__ import annotations

from typing import Any

from pythonjsonlogger.core import RESERVED_ATTRS

FIELDS = "%(levelname)s %(name)s %(message)s"
RENAMED = {"levelname": "level", "name": "logger"}
# uvicorn repeats each message with terminal colours in this attribute.
NOT_LOGGED = [*RESERVED_ATTRS, "color_message"]


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
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": "json",
                "stream": "ext://sys.stderr",
            }
        },
        "root": {"handlers": ["stderr"], "level": level},
    }
