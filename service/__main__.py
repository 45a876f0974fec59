"""``python -m service``: run the service with uvicorn, configured from the environment.

``WORKERS`` above 1 runs that many service processes behind one port: the listening
socket is opened here and each forked process accepts connections on it, with an event
loop, Redis connections and a pub/sub reader of its own. They share games through Redis
exactly as separate instances do, so a game's watchers on any process get its changes.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import sys
import traceback

import uvicorn

from .app import create_app
from .config import Settings
from .server import server_options, tune_garbage_collector
from .support.logs import log_config


def _config(settings: Settings) -> uvicorn.Config:
    return uvicorn.Config(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        log_config=log_config(settings.log_level),
        log_level=settings.log_level,
        **server_options(settings),
    )


def main() -> None:
    settings = Settings()
    # Python's warnings become log records, so that they too are JSON lines.
    logging.captureWarnings(True)
    if settings.workers == 1:
        app = create_app(settings)
        tune_garbage_collector()
        uvicorn.run(
            app,
            host=settings.host,
            port=settings.port,
            log_config=log_config(settings.log_level),
            log_level=settings.log_level,
            **server_options(settings),
        )
        return
    if settings.store_url.startswith("memory://"):
        # Each process would keep games of its own: a client would find its game on one
        # connection and not on the next.
        sys.exit("WORKERS above 1 needs a shared store: set STORE_URL to a Redis URL")
    _run_workers(settings)


def _run_workers(settings: Settings) -> None:
    family = socket.AF_INET6 if ":" in settings.host else socket.AF_INET
    listener = socket.create_server((settings.host, settings.port), family=family, backlog=2048)
    workers: list[int] = []
    for _ in range(settings.workers):
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                # The application is made in each process: nothing with an event loop, a
                # connection or a thread crosses the fork (the parent only binds the socket).
                # uvicorn re-raises the signal that stopped it, as uvicorn.run expects.
                config = _config(settings)
                tune_garbage_collector()
                with contextlib.suppress(KeyboardInterrupt):
                    uvicorn.Server(config).run(sockets=[listener])
                code = 0
            except BaseException:
                traceback.print_exc()
            finally:
                os._exit(code)
        workers.append(pid)
    listener.close()
    _supervise(workers)


def _supervise(workers: list[int]) -> None:
    """Forwards SIGTERM and SIGINT to every process; when one process ends, stops the others
    and exits with its status, so that whatever runs the service can restart it whole."""
    stopping = False

    def stop(signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True
        for pid in workers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    status = 0
    running = set(workers)
    while running:
        try:
            pid, wait_status = os.wait()
        except ChildProcessError:
            break
        if pid not in running:
            continue  # not a worker (none is forked here besides them)
        running.discard(pid)
        code = os.waitstatus_to_exitcode(wait_status)
        if not stopping:
            logging.getLogger("service").error("a worker process ended (%s); stopping", code)
            status = code or 1
            stop(signal.SIGTERM, None)
    sys.exit(status)


if __name__ == "__main__":
    main()
