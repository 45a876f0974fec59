"""Shared output of the benchmarks: a readable table, then one JSON line per figure.

The JSON lines are the machine-readable part (one object per line, keys ``metric``,
``value``, ``unit`` in that order); everything before them is for people.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO


@dataclass(frozen=True)
class Figure:
    metric: str  # e.g. "engine.DS.actions_per_s"
    value: int | float
    unit: str  # "1/s", "B", "ms" ...
    label: str = ""  # a short description for the table
    target: str = ""  # e.g. ">= 100000", shown in the table only

    def json_line(self) -> str:
        return json.dumps({"metric": self.metric, "value": self.value, "unit": self.unit})


def _format_value(value: int | float) -> str:
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:,.3g}" if abs(value) < 100 else f"{value:,.0f}"


def report(title: str, figures: Sequence[Figure], out: TextIO | None = None) -> None:
    """Prints ``title``, a table of ``figures`` and then one JSON line per figure."""
    stream = out if out is not None else sys.stdout
    rows = [("metric", "value", "unit", "target", "what")]
    rows += [(f.metric, _format_value(f.value), f.unit, f.target, f.label) for f in figures]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    print(title, file=stream)
    for n, row in enumerate(rows):
        cells = [
            cell.rjust(w) if i == 1 else cell.ljust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ]
        print("  ".join(cells).rstrip(), file=stream)
        if n == 0:
            print("  ".join("-" * w for w in widths), file=stream)
    print(file=stream)
    for figure in figures:
        print(figure.json_line(), file=stream)
    stream.flush()
