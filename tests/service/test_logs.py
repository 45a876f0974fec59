"""The log format: every record, the service's and uvicorn's, is one JSON object per line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from pydantic import ValidationError

from service.config import Settings

SCRIPT = """
import logging, logging.config
from service.logs import log_config

logging.config.dictConfig(log_config("info"))
logging.getLogger("service.games").info("store unavailable: %s", "a \\"quoted\\" reason")
logging.getLogger("uvicorn.error").info("ready", extra={"color_message": "\\x1b[32mready"})
logging.getLogger("uvicorn.access").info('%s - "%s %s"', "127.0.0.1:1", "GET", "/healthz")
logging.getLogger("service.ws").debug("below the level")
try:
    raise ValueError("boom")
except ValueError:
    logging.getLogger("service.app").exception("unhandled error")
"""


def test_each_record_is_one_json_line_with_level_logger_message_and_time() -> None:
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=30, check=True
    )
    entries = [json.loads(line) for line in result.stderr.splitlines()]
    assert [(e["logger"], e["level"]) for e in entries] == [
        ("service.games", "INFO"),
        ("uvicorn.error", "INFO"),
        ("uvicorn.access", "INFO"),
        ("service.app", "ERROR"),
    ]
    assert entries[0]["message"] == 'store unavailable: a "quoted" reason'
    assert entries[2]["message"] == '127.0.0.1:1 - "GET /healthz"'
    assert all(entry["time"].startswith("20") for entry in entries)
    assert "color_message" not in entries[1]
    assert "ValueError: boom" in entries[3]["exc_info"]
    assert result.stdout == ""


def test_the_log_level_is_one_of_four_names_in_any_case() -> None:
    assert Settings(log_level="DEBUG").log_level == "debug"
    assert Settings().log_level == "info"
    with pytest.raises(ValidationError, match="log_level"):
        Settings(log_level="loud")
