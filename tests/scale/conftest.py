"""The scale tests run real service processes; ``slow`` marks the longest of them.

They still run in the default ``pytest`` invocation: ``-m "not slow"`` leaves them out.
"""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: a long test with real processes (runs by default)")
