"""Generated files are marked so in .gitattributes (``linguist-generated``), and the files
people write beside them are not: a review folds the former away and shows the latter.

git itself says which attributes a path has (``git check-attr``), so the patterns are
read as every tool that honours the file reads them.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from service.schemas import generate

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "schemas"
GENERATED_TYPES = ROOT / "clients" / "js" / "types"


def marked_generated(paths: list[str]) -> set[str]:
    """The paths (from the root) that .gitattributes marks ``linguist-generated``."""
    answer = subprocess.run(
        ["git", "check-attr", "linguist-generated", "--", *paths],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    marked = set()
    for line in answer.splitlines():
        path, _, value = line.rsplit(": ", 2)
        if value in ("set", "true"):
            marked.add(path)
    return marked


def test_every_file_the_generators_write_is_marked_generated() -> None:
    schemas = [f"schemas/{name}" for name in generate()]
    types = [p.relative_to(ROOT).as_posix() for p in sorted(GENERATED_TYPES.rglob("*.d.ts"))]
    # The generators write something of every kind (top level, REST, OpenAPI, types).
    assert {"schemas/openapi.json", "schemas/rest/problem.json"} <= set(schemas)
    assert "clients/js/types/protocol/server-message.d.ts" in types
    unmarked = sorted(set(schemas + types) - marked_generated(schemas + types))
    assert not unmarked, (
        f"{len(unmarked)} files written by a generator are not marked in .gitattributes, "
        f"e.g. {unmarked[:3]}"
    )


def test_the_files_written_by_hand_beside_them_are_not_marked() -> None:
    by_hand = [
        "schemas/asyncapi.yaml",
        *(p.relative_to(ROOT).as_posix() for p in (SCHEMAS / "examples").rglob("*") if p.is_file()),
        "clients/js/tools/generate-types.mjs",
        "clients/js/package.json",
        "clients/js/tsconfig.json",
        "clients/js/src/index.js",
        "service/schemas.py",
    ]
    assert len(by_hand) > 6  # the examples were found
    marked = sorted(marked_generated(by_hand))
    assert not marked, (
        f"{len(marked)} files written by hand are marked generated in .gitattributes, "
        f"e.g. {marked[:3]}"
    )
