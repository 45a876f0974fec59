"""The build, beside pyproject.toml: compiles the solver's core with mypyc where it can.

Everything else about the package is in pyproject.toml. Set ``SOLVER_PURE=1`` to install
plain Python; a build that cannot compile (no mypy, no C compiler) installs plain Python
too. The compiled library is named after its sources (``service/solver/compiled.py``),
so a compiled copy of sources edited since is never run.
"""

from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path

from setuptools import Extension, setup

SOLVER = Path("service") / "solver"


def compiled_core() -> list[Extension]:
    if os.environ.get("SOLVER_PURE") == "1":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("mypyc is not installed: the solver stays plain Python", file=sys.stderr)
        return []
    core = runpy.run_path(str(SOLVER / "compiled.py"))
    sources = [str(SOLVER / f"{name}.py") for name in core["CORE"]]
    library = core["library_name"](SOLVER)
    for old in SOLVER.glob("core_*__mypyc.*"):
        if not old.name.startswith(library):
            old.unlink()  # an editable install's library of earlier sources
    group = "service.solver." + library
    try:
        # No config file: the project's mypy settings name plugins the build lacks.
        extensions: list[Extension] = mypycify(
            ["--config-file=", *sources], opt_level="3", group_name=group
        )
    except (Exception, SystemExit) as error:
        print(f"mypyc failed ({error}): the solver stays plain Python", file=sys.stderr)
        return []
    for extension in extensions:
        extension.optional = True  # a failed C build installs the sources alone
    return extensions


setup(ext_modules=compiled_core())
