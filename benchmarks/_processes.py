"""The processes a benchmark runs beside itself: starting, waiting for, reading and
stopping them; and the percentile every benchmark reports."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Protocol

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
READY_TIMEOUT = 60.0
STOP_TIMEOUT = 8.0


# Ports for child processes are drawn from here up to the kernel's ephemeral range.
_LOWEST_PICKED = 20_000
_picker = random.SystemRandom()


def free_port() -> int:
    """A loopback port free now, for a child process to listen on.

    Taken below the kernel's ephemeral range: a port from ``bind(0)`` comes from that
    range, and between closing it here and the child binding it, it can become the local
    port of any outgoing connection on the machine (a client of Redis, say), and the
    child fails with "address already in use". Outgoing connections never take ports
    below the range. Drawn at random, so that processes picking at once rarely meet.
    """
    ephemeral = _first_ephemeral_port()
    if ephemeral > _LOWEST_PICKED + 1_000:
        for _ in range(200):
            port = _picker.randrange(_LOWEST_PICKED, ephemeral)
            with socket.socket() as sock:
                try:
                    sock.bind((HOST, port))
                except OSError:
                    continue
                return port
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        chosen: int = sock.getsockname()[1]
        return chosen


def _first_ephemeral_port() -> int:
    """Where the kernel's local ports for outgoing connections start (Linux's default
    elsewhere)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32_768


def raise_open_files() -> int:
    """Raises this process's open-file limit to the hard limit, which it returns."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux); nan when it cannot be read."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return float("nan")
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile_ms(samples: Sequence[float], q: float) -> float:
    """Nearest-rank percentile of durations in seconds, in milliseconds (nan if none)."""
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1] * 1000


class Listening(Protocol):
    """A server as a benchmark's clients see it: the port it listens on, its process id."""

    @property
    def port(self) -> int: ...

    @property
    def pid(self) -> int: ...


@dataclass
class Process:
    """A child process listening on ``port``, its output kept in a temporary file."""

    name: str
    proc: subprocess.Popen[bytes]
    port: int
    log: IO[bytes]

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def tail(self, lines: int = 30) -> str:
        with contextlib.suppress(OSError, ValueError):
            self.log.flush()
            self.log.seek(0)
            return "".join(self.log.read().decode(errors="replace").splitlines(True)[-lines:])
        return ""

    def stop(self) -> None:
        """SIGTERM (uvicorn's graceful shutdown), then SIGKILL; bounded in time."""
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self.proc.wait(5)
        self.log.close()


def spawn(
    name: str,
    command: Sequence[str],
    port: int,
    env: Mapping[str, str] | None = None,
    pass_fds: Sequence[int] = (),
) -> Process:
    log = tempfile.TemporaryFile()  # noqa: SIM115 - closed by Process.stop
    proc = subprocess.Popen(
        list(command),
        env=None if env is None else dict(env),
        cwd=str(ROOT),
        pass_fds=pass_fds,
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    return Process(name, proc, port, log)


def start_service(
    name: str, store_url: str, settings: Mapping[str, str] | None = None, command: str = ""
) -> Process:
    """``python -m service`` on a free port (or ``python -c command``, which runs it)."""
    port = free_port()
    env = {
        **os.environ,
        "STORE_URL": store_url,
        "HOST": HOST,
        "PORT": str(port),
        "LOG_LEVEL": "warning",
        "PYTHONUNBUFFERED": "1",
        # No solving in the background unless a benchmark asks for it.
        "WINNABLE_POOL_SIZE": "0",
        **(settings or {}),
    }
    argv = [sys.executable, "-c", command] if command else [sys.executable, "-m", "service"]
    return spawn(name, argv, port, env)


def start_redis(workdir: Path) -> Process:
    """A private redis-server on a free port, without persistence."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("redis-server is needed (apt-get install redis-server)")
    port = free_port()
    command = [
        binary,
        *("--port", str(port), "--bind", HOST, "--save", "", "--appendonly", "no"),
        *("--dir", str(workdir), "--maxclients", "20000"),
    ]
    return spawn("redis", command, port, env=None)


async def wait_ready(
    http: Any, process: Process, path: str = "/readyz", timeout: float = READY_TIMEOUT
) -> None:
    """Until ``path`` answers 200; fails at once if the process exits."""
    deadline = time.monotonic() + timeout
    last: object = None
    while time.monotonic() < deadline:
        if process.proc.poll() is not None:
            raise RuntimeError(f"{process.name} exited:\n{process.tail()}")
        try:
            response = await http.get(f"{process.url}{path}", timeout=2.0)
            if response.status_code == 200:
                return
            last = f"{path} answered {response.status_code}"
        except Exception as exc:  # still starting
            last = exc
        await asyncio.sleep(0.05)
    raise RuntimeError(f"{process.name} not ready: {last}\n{process.tail()}")


async def wait_redis(port: int) -> None:
    import redis.asyncio as aioredis

    client = aioredis.Redis(host=HOST, port=port)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                await client.ping()
                return
            except Exception:
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.05)
    finally:
        await client.aclose()
