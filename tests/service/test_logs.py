"""The log format: every record, the service's and uvicorn's, is one JSON object per line."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pydantic import ValidationError

from service.config import Settings
from tests.support import free_port

SCRIPT = """
import logging, logging.config
from service.support.logs import log_config

logging.config.dictConfig(log_config("info"))
logging.getLogger("service.games").info("store unavailable: %s", "a \\"quoted\\" reason")
logging.getLogger("uvicorn.error").info("ready", extra={"color_message": "\\x1b[32mready"})
logging.getLogger("uvicorn.access").info('%s - "%s %s"', "127.0.0.1:1", "GET", "/healthz")
logging.getLogger("uvicorn.access").info(
    '%s - "%s %s"', "127.0.0.1:1", "GET", "/games/g/changes?since=3&token=SECRET&x"
)
logging.getLogger("uvicorn.error").info('%s - "WebSocket %s"', "127.0.0.1:1", "/ws?token=SECRET")
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
        ("uvicorn.access", "INFO"),
        ("uvicorn.error", "INFO"),
        ("service.app", "ERROR"),
    ]
    assert entries[0]["message"] == 'store unavailable: a "quoted" reason'
    assert entries[2]["message"] == '127.0.0.1:1 - "GET /healthz"'
    assert all(entry["time"].startswith("20") for entry in entries)
    assert "color_message" not in entries[1]
    # A token a client put in a URL: the parameter is named, its value is not logged.
    assert entries[3]["message"] == '127.0.0.1:1 - "GET /games/g/changes?since=3&token=-&x=-"'
    assert entries[4]["message"] == '127.0.0.1:1 - "WebSocket /ws?token=-"'
    assert "SECRET" not in result.stderr
    assert "ValueError: boom" in entries[5]["exc_info"]
    assert result.stdout == ""


def test_the_log_level_is_one_of_four_names_in_any_case() -> None:
    assert Settings(log_level="DEBUG").log_level == "debug"
    assert Settings().log_level == "info"
    with pytest.raises(ValidationError, match="log_level"):
        Settings(log_level="loud")


# The warning and the Ctrl-C come once the server listens: a SIGINT before uvicorn's own
# handler is installed would end the process with a traceback instead of a clean stop.
SERVICE_WITH_A_WARNING = """
import os, signal, socket, threading, time, warnings
from service.__main__ import main

def warn_then_stop():
    deadline = time.monotonic() + 25
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", int(os.environ["PORT"])), 0.5).close()
            break
        except OSError:
            time.sleep(0.05)
    warnings.warn("a library complains")
    time.sleep(0.2)
    os.kill(os.getpid(), signal.SIGINT)

threading.Thread(target=warn_then_stop, daemon=True).start()
main()
"""


def test_the_running_service_logs_warnings_and_uvicorn_as_json_lines() -> None:
    env = {**os.environ, "PORT": str(free_port()), "LOG_LEVEL": "INFO", "STORE_URL": "memory://"}
    result = subprocess.run(
        [sys.executable, "-W", "always", "-c", SERVICE_WITH_A_WARNING],
        capture_output=True,
        text=True,
        timeout=30,
        env=env,
        check=False,
    )
    entries = [json.loads(line) for line in result.stderr.splitlines()]
    loggers = {entry["logger"] for entry in entries}
    assert {"uvicorn.error", "py.warnings"} <= loggers, result.stderr
    warning = next(entry for entry in entries if entry["logger"] == "py.warnings")
    assert warning["level"] == "WARNING" and "a library complains" in warning["message"]
    assert result.stdout == ""


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid:
                    found.append(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process table in /proc")
@pytest.mark.parametrize(
    ("signal_number", "whole_group"),
    [(signal.SIGINT, True), (signal.SIGTERM, False)],
    ids=["ctrl-c in a terminal", "sigterm to the service"],
)
def test_the_service_stops_with_its_solver_leaving_only_json_lines(
    signal_number: int, whole_group: bool
) -> None:
    """Ctrl-C interrupts the terminal's whole process group, solver processes included;
    a process manager sends SIGTERM to the service alone. Either comes while a solver
    process is busy certifying the winnable deals the service keeps ready."""
    port = free_port()
    env = {**os.environ, "PORT": str(port), "LOG_LEVEL": "INFO", "STORE_URL": "memory://"}
    process = subprocess.Popen(
        [sys.executable, "-m", "service"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 30
        while not any(
            "multiprocessing" in (Path("/proc") / str(child) / "cmdline").read_text()
            for child in _children(process.pid)
        ):
            assert time.monotonic() < deadline, "no solver process started"
            time.sleep(0.1)
        # Past its start-up: searching for a winnable deal.
        time.sleep(2.0)
        if whole_group:
            os.killpg(process.pid, signal_number)
        else:
            process.send_signal(signal_number)
        _, stderr = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    # Every line JSON: a traceback, or a warning printed at exit (semaphores of the
    # solver pool reported leaked), would not be.
    not_json = [line for line in stderr.splitlines() if not line.startswith("{")]
    assert not_json == [], stderr
    entries = [json.loads(line) for line in stderr.splitlines()]
    # (uvicorn ends with the signal that stopped it, except for SIGINT.)
    assert process.returncode in (0, -signal_number), stderr
    assert [e for e in entries if e["level"] in ("WARNING", "ERROR", "CRITICAL")] == []
    assert "Finished server process" in entries[-1]["message"]
