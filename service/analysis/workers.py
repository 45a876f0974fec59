"""The solver's worker processes: how they start and how they are stopped at once."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
from concurrent.futures import Executor, ProcessPoolExecutor
from multiprocessing.process import BaseProcess


def _ignore_interrupts() -> None:
    """Run in each worker process as it starts. Ctrl-C in a terminal interrupts the
    whole process group: a worker would die mid-search and its KeyboardInterrupt come
    back through the pool as the parent's own. The parent stops its workers itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def worker_processes(workers: int) -> Executor:
    # Spawned, not forked: a fork would copy the event loop and its sockets.
    return ProcessPoolExecutor(
        workers, mp_context=multiprocessing.get_context("spawn"), initializer=_ignore_interrupts
    )


def processes_of(executor: Executor) -> list[BaseProcess]:
    return list((getattr(executor, "_processes", None) or {}).values())


# Background searches (analyses, certifying pool deals) yield the CPU to the process that
# serves: on a machine with as many searches as cores, requests would otherwise wait.
BACKGROUND_NICENESS = 10


def run_in_background(executor: Executor) -> None:
    """Lowers the CPU priority of the executor's processes (started by its first call)."""
    for process in processes_of(executor):
        if process.pid is not None:
            with contextlib.suppress(OSError):
                os.setpriority(os.PRIO_PROCESS, process.pid, BACKGROUND_NICENESS)


def stop_now(executor: Executor) -> threading.Thread | None:
    """Shuts a process pool down without waiting for the search under way: a solver
    process holds no state worth finishing, and shutting down must not wait seconds.

    Returns the pool's manager thread, which closes its queues once the processes are
    gone: a caller about to exit joins it, or the pool's semaphores are reported leaked
    (uvicorn ends the process with the signal that stopped it, before exit clean-ups).
    """
    manager: threading.Thread | None = getattr(executor, "_executor_manager_thread", None)
    processes = processes_of(executor)
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(Exception):
            process.terminate()
    return manager
