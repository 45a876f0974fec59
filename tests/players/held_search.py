"""Searches the tests hold: run in the analysis's worker processes in place of the solver,
they say they started (their process id in a file of ``$HELD_SEARCH_DIR``) and spend CPU
until the test lets them finish (a file ``release`` there), or for ever."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

HELD_SEARCH_DIR = "HELD_SEARCH_DIR"
VERDICTS = {"deal": {"result": "unknown", "line": None, "seconds": 0.0}, "position": None}


def _folder() -> Path:
    return Path(os.environ[HELD_SEARCH_DIR])


def held(record_text: str, seconds: float) -> dict[str, Any]:
    folder = _folder()
    (folder / f"pid-{os.getpid()}").write_text(record_text)
    spins = 0
    while not (folder / "release").exists():
        spins += 1  # CPU, as a search spends it
        if spins % 100_000 == 0:
            time.sleep(0)
    return VERDICTS


def started(folder: Path) -> list[int]:
    """The process ids of the held searches that have started."""
    return [int(path.name.removeprefix("pid-")) for path in folder.glob("pid-*")]


def alive(pid: int) -> bool:
    """Whether process ``pid`` still exists (a zombie not reaped yet counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")
