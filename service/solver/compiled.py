"""Which form of the solver's core runs: compiled by mypyc, or from its Python sources.

Where it can, the build (setup.py) compiles the modules of ``CORE`` with mypyc, which runs
the search two to three times faster. Compiling is optional: without a C compiler, or
with ``SOLVER_PURE=1`` set while installing, the package installs as plain Python.

Python imports a compiled module in preference to its source, so a compiled copy of an
older source would run silently after an edit. The build therefore names the library
holding the compiled core after a digest of the sources it was compiled from. Before the
package imports its modules, ``choose_core`` looks for the library named after the
sources as they are now; when there is none (or ``SOLVER_PURE=1`` is set at run time),
every core module is loaded from its source. All of them or none: compiled modules call
each other directly, not through the modules Python has imported.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import warnings
from pathlib import Path

CORE = ("position", "ordering", "pruning", "deadlock", "search")
_HERE = Path(__file__).resolve().parent
_PACKAGE = "service.solver"


def library_name(folder: Path = _HERE) -> str:
    """The compiled library's module name for the core sources in ``folder``."""
    digest = hashlib.sha256()
    for name in CORE:
        digest.update((folder / f"{name}.py").read_bytes())
    return f"core_{digest.hexdigest()[:16]}"


def _found(module: str) -> importlib.machinery.ModuleSpec | None:
    try:
        return importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None


def choose_core() -> None:
    """Loads the core from its sources unless its compiled form is current and wanted."""
    if os.environ.get("SOLVER_PURE") != "1":
        if _found(f"{_PACKAGE}.{library_name()}__mypyc") is not None:
            return  # Python's own import finds the compiled modules
        first = _found(f"{_PACKAGE}.{CORE[0]}")
        if first is not None and not (first.origin or "").endswith(".py"):
            warnings.warn(
                "the compiled solver core was built from older sources; running the "
                "sources instead (reinstall the package to compile them again)",
                stacklevel=2,
            )
    package = sys.modules[_PACKAGE]
    for name in CORE:
        full = f"{_PACKAGE}.{name}"
        if full in sys.modules:
            continue
        spec = importlib.util.spec_from_file_location(full, _HERE / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[full] = module
        spec.loader.exec_module(module)
        setattr(package, name, module)


def is_compiled() -> bool:
    """Whether the compiled core is the one in use."""
    position = sys.modules.get(f"{_PACKAGE}.{CORE[0]}")
    return position is not None and not (position.__file__ or "").endswith(".py")
