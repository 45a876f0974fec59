"""A serving process tunes Python's garbage collector before it serves."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from service.server import GC_THRESHOLDS

PROBE = """
import gc, json
from service.app import create_app
create_app()
from service.server import tune_garbage_collector
before = gc.get_freeze_count()
tune_garbage_collector()
frozen, thresholds = gc.get_freeze_count(), gc.get_threshold()
print(json.dumps({"before": before, "frozen": frozen, "thresholds": thresholds}))
"""


def test_the_start_up_objects_are_frozen_and_young_collections_are_rarer() -> None:
    # In a process of its own: freezing is process-wide and would change this one.
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=60, check=True
    )
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["before"] == 0
    # The imports, the app and its schemas: tens of thousands of objects at least.
    assert seen["frozen"] > 10_000
    assert tuple(seen["thresholds"]) == GC_THRESHOLDS
    assert GC_THRESHOLDS[0] > 700  # Python's default, which the tuning raises


ENTRY_PROBE = """
import gc, json, uvicorn

def report(app, **options):
    print(json.dumps({"frozen": gc.get_freeze_count(), "thresholds": gc.get_threshold()}))

uvicorn.run = report
from service.__main__ import main
main()
"""


def test_python_m_service_tunes_the_collector_before_it_serves() -> None:
    done = subprocess.run(
        [sys.executable, "-c", ENTRY_PROBE],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        env={**os.environ, "STORE_URL": "memory://", "WORKERS": "1"},
    )
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["frozen"] > 10_000
    assert tuple(seen["thresholds"]) == GC_THRESHOLDS
