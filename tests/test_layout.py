"""The shape of ``service/``: modules and functions small enough to read whole, a short
top level, and imports between its packages that point one way.

The packages are layers (CONTRIBUTING.md, "Where a new feature goes"): the engine is
pure Python with nothing but the standard library, the solver and the protocol build on
the engine alone, support and the store stay beneath the domains. A cycle between
packages, or a lower one reaching up, is what lets a change in one place break another,
so these tests read every module's imports (relative ones resolved as Python does) and
say which line breaks which rule.
"""

from __future__ import annotations

import ast
import functools
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SERVICE = ROOT / "service"

MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 80
MAX_TOP_MODULES = 12

# Functions allowed over MAX_FUNCTION_LINES, as (module, qualified name). Each entry is a
# split already under way, not a licence: the entry goes when the split lands, and
# test_long_function_allowances_are_still_needed says when that is.
LONG_FUNCTIONS_ALLOWED: set[tuple[str, str]] = set()

# What each lower package may import of the service besides itself; anything from
# outside the service (pydantic, redis...) is theirs to choose.
LAYERS: dict[str, set[str]] = {
    "service.solver": {"service.engine"},
    "service.protocol": {"service.engine"},
    "service.support": set(),
    "service.store": {"service.config", "service.support"},
}
ENGINE = "service.engine"


@dataclass(frozen=True)
class Module:
    name: str
    path: Path = field(repr=False)
    source: str = field(repr=False)

    @property
    def is_package(self) -> bool:
        return self.path.name == "__init__.py"

    @property
    def package(self) -> str:
        """The package a relative import of this module starts from."""
        return self.name if self.is_package else self.name.rpartition(".")[0]

    @property
    def relative(self) -> str:
        return self.path.relative_to(ROOT).as_posix()

    @functools.cached_property
    def tree(self) -> ast.Module:
        return ast.parse(self.source, filename=self.relative)


@dataclass(frozen=True)
class Import:
    """One module named by an import statement, with where the statement is."""

    target: str
    module: Module
    line: int

    def __str__(self) -> str:
        return f"{self.module.relative}:{self.line} imports {self.target}"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.cache
def service_modules() -> tuple[Module, ...]:
    paths = sorted(SERVICE.rglob("*.py"))
    return tuple(Module(module_name(p), p, p.read_text(encoding="utf-8")) for p in paths)


@functools.cache
def service_module_names() -> frozenset[str]:
    return frozenset(module.name for module in service_modules())


def absolute(module: Module, node: ast.ImportFrom) -> str:
    """The module a ``from ... import`` statement reads from, its dots resolved."""
    if node.level == 0:
        return node.module or ""
    package = module.package.split(".")
    climb = node.level - 1
    if climb >= len(package):
        raise AssertionError(f"{module.relative}:{node.lineno} climbs above the top package")
    base = ".".join(package[: len(package) - climb])
    return f"{base}.{node.module}" if node.module else base


def imports_of(module: Module, known: frozenset[str]) -> Iterator[Import]:
    """Every module that ``module`` imports, at any depth of its code (a lazy import
    in a function binds the layers as much as one at the top)."""
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(alias.name, module, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            source = absolute(module, node)
            # `from . import protocol` imports the submodule, not a name of the package.
            submodules = (f"{source}.{alias.name}" for alias in node.names)
            targets = [name if name in known else source for name in submodules]
            for target in dict.fromkeys(targets):
                yield Import(target, module, node.lineno)


def service_imports() -> Iterator[Import]:
    known = service_module_names()
    for module in service_modules():
        yield from imports_of(module, known)


def in_service(name: str) -> bool:
    return name == "service" or name.startswith("service.")


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def package_or_top_module(name: str) -> str:
    return ".".join(name.split(".")[:2])


Function = ast.FunctionDef | ast.AsyncFunctionDef


def functions(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, Function]]:
    """Every function and method with its qualified name (``Class.method``,
    ``outer.inner``)."""
    for child in ast.iter_child_nodes(tree):
        if isinstance(child, Function):
            name = prefix + child.name
            yield name, child
            yield from functions(child, name + ".")
        elif isinstance(child, ast.ClassDef):
            yield from functions(child, prefix + child.name + ".")
        else:
            yield from functions(child, prefix)


def function_lengths() -> dict[tuple[str, str], int]:
    lengths: dict[tuple[str, str], int] = {}
    for module in service_modules():
        for name, node in functions(module.tree):
            end = node.end_lineno or node.lineno
            lengths[(module.relative, name)] = end - node.lineno + 1
    return lengths


def import_graph() -> dict[str, dict[str, Import]]:
    """Package or top module -> each other one it imports -> the first such import."""
    graph: dict[str, dict[str, Import]] = {
        package_or_top_module(m.name): {} for m in service_modules()
    }
    for found in service_imports():
        source = package_or_top_module(found.module.name)
        target = package_or_top_module(found.target)
        if in_service(found.target) and source != target:
            graph[source].setdefault(target, found)
    return graph


def reachable(graph: dict[str, dict[str, Import]], start: str) -> set[str]:
    seen: set[str] = set()
    stack = [start]
    while stack:
        for target in graph.get(stack.pop(), {}):
            if target not in seen:
                seen.add(target)
                stack.append(target)
    return seen


def cycles(graph: dict[str, dict[str, Import]]) -> list[list[str]]:
    """The groups of packages that import each other, directly or not (each group a
    strongly connected component of more than one)."""
    reach = {node: reachable(graph, node) for node in graph}
    groups: list[list[str]] = []
    placed: set[str] = set()
    for node in sorted(graph):
        if node in placed or node not in reach[node]:
            continue
        group = sorted(other for other in reach[node] if node in reach[other])
        placed.update(group)
        groups.append(group)
    return groups


def described_cycles(graph: dict[str, dict[str, Import]]) -> list[str]:
    """Each cycle of ``graph`` with the import lines that close it."""
    return [
        f"{' <-> '.join(group)}, through: "
        + "; ".join(
            str(evidence)
            for source in group
            for target, evidence in graph[source].items()
            if target in group
        )
        for group in cycles(graph)
    ]


# --------------------------------------------------------------------------- the checks


def test_the_checks_read_the_service_as_python_does() -> None:
    """Guards the rest against passing on nothing: modules found, dots resolved."""
    names = service_module_names()
    expected = {"service", "service.engine", "service.engine.game", "service.openapi.common"}
    assert expected <= names, f"modules not found: {sorted(expected - names)}"
    openapi = next(m for m in service_modules() if m.name == "service.openapi")
    common = next(m for m in service_modules() if m.name == "service.openapi.common")
    schemas = next(m for m in service_modules() if m.name == "service.schemas")
    # `from .common import ...` in a package's __init__.py, `from ..protocol import ...`
    # in a module of a package, and `from . import protocol` naming a submodule.
    for module, target in [
        (openapi, "service.openapi.common"),
        (common, "service.protocol"),
        (schemas, "service.protocol"),
    ]:
        found = {i.target for i in imports_of(module, names)}
        assert target in found, f"{module.relative}: {target} not among {sorted(found)}"
    lengths = function_lengths()
    for function in [("service/openapi/common.py", "errors"), *LONG_FUNCTIONS_ALLOWED]:
        assert function in lengths, f"function not found: {function}"


def test_no_module_is_over_the_line_limit() -> None:
    long = {
        module.relative: lines
        for module in service_modules()
        if (lines := len(module.source.splitlines())) > MAX_MODULE_LINES
    }
    assert not long, (
        f"modules over {MAX_MODULE_LINES} lines (split them by what their parts do): {long}"
    )


def test_no_function_is_over_the_line_limit() -> None:
    long = [
        f"{path}: {name} ({lines} lines)"
        for (path, name), lines in function_lengths().items()
        if lines > MAX_FUNCTION_LINES and (path, name) not in LONG_FUNCTIONS_ALLOWED
    ]
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines: {long}"


def test_long_function_allowances_are_still_needed() -> None:
    lengths = function_lengths()
    stale = [
        f"{path}: {name}"
        for path, name in sorted(LONG_FUNCTIONS_ALLOWED)
        if lengths.get((path, name), 0) <= MAX_FUNCTION_LINES
    ]
    assert not stale, (
        f"gone or now within {MAX_FUNCTION_LINES} lines, so remove them from "
        f"LONG_FUNCTIONS_ALLOWED: {stale}"
    )


def test_the_top_of_the_service_stays_short() -> None:
    top = sorted(path.name for path in SERVICE.glob("*.py"))
    assert len(top) <= MAX_TOP_MODULES, (
        f"{len(top)} modules at the top of service/, over {MAX_TOP_MODULES} "
        f"(move some into the package of their domain): {top}"
    )


def test_packages_import_each_other_in_one_direction() -> None:
    graph = import_graph()
    found = described_cycles(graph)
    assert not found, f"import cycles between parts of the service: {found}"


def test_the_engine_imports_only_itself_and_the_standard_library() -> None:
    outside = [
        str(found)
        for found in service_imports()
        if within(found.module.name, ENGINE)
        and not within(found.target, ENGINE)
        and (in_service(found.target) or found.target.split(".")[0] not in sys.stdlib_module_names)
    ]
    assert not outside, f"the engine imports beyond itself and the standard library: {outside}"


@pytest.mark.parametrize("package", sorted(LAYERS), ids=lambda name: name.split(".")[-1])
def test_a_lower_package_imports_only_what_lies_beneath_it(package: str) -> None:
    allowed = LAYERS[package] | {package}
    upward = [
        str(found)
        for found in service_imports()
        if within(found.module.name, package)
        and in_service(found.target)
        and not any(within(found.target, name) for name in allowed)
    ]
    beneath = "".join(f", {name}" for name in sorted(LAYERS[package]))
    assert not upward, f"{package} may import of the service only itself{beneath}: {upward}"


def test_modules_import_each_other_in_one_direction() -> None:
    """Within a package too: a circle closed by an import inside a function still ties
    both modules together (and fails at the first call that runs before both loaded)."""
    names = service_module_names()
    graph: dict[str, dict[str, Import]] = {name: {} for name in names}
    for step in service_imports():
        if step.target in names and step.target != step.module.name:
            graph[step.module.name].setdefault(step.target, step)
    found = described_cycles(graph)
    assert not found, f"import cycles between modules of the service: {found}"
