"""Generated files are marked so in .gitattributes (``linguist-generated``), and the files
people write beside them are not: a review folds the former away and shows the latter.

The lines are read here rather than asked of ``git check-attr``, so that the check runs
wherever the suite does, a copy without git included; it understands the forms of
pattern that the file uses, and fails on any other.
"""

from __future__ import annotations

import re
from pathlib import Path

from service.schemas import generate

ROOT = Path(__file__).resolve().parent.parent
ATTRIBUTES = ROOT / ".gitattributes"
SCHEMAS = ROOT / "schemas"
GENERATED_TYPES = ROOT / "clients" / "types" / "generated"
MARK = "linguist-generated"


def pattern_regex(pattern: str) -> re.Pattern[str]:
    """A pattern of .gitattributes as a regular expression over paths from the root:
    ``*`` and ``?`` stay within one folder, ``**/`` spans any number, a pattern without a
    slash matches a file's name in any folder."""
    assert not re.search(r"[\[\]\\!]", pattern), f"a form of pattern not read here: {pattern}"
    assert not pattern.endswith("/"), f"a folder pattern matches nothing in it: {pattern}"
    if "/" not in pattern:
        pattern = "**/" + pattern
    pattern = pattern.removeprefix("/")
    parts = []
    index = 0
    while index < len(pattern):
        if pattern.startswith("**/", index):
            parts.append("(?:.*/)?")
            index += 3
        elif pattern.startswith("/**", index) and index + 3 == len(pattern):
            parts.append("/.+")
            index += 3
        elif pattern[index] == "*":
            parts.append("[^/]*")
            index += 1
        elif pattern[index] == "?":
            parts.append("[^/]")
            index += 1
        else:
            parts.append(re.escape(pattern[index]))
            index += 1
    return re.compile("".join(parts) + r"\Z")


def generated_marks() -> list[tuple[re.Pattern[str], bool]]:
    """Each line that sets or unsets the mark: its pattern, and whether it sets it."""
    marks = []
    for line in ATTRIBUTES.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        pattern, *attributes = line.split()
        for attribute in attributes:
            if attribute in (MARK, f"{MARK}=true"):
                marks.append((pattern_regex(pattern), True))
            elif attribute in (f"-{MARK}", f"!{MARK}", f"{MARK}=false"):
                marks.append((pattern_regex(pattern), False))
    return marks


def marked_generated(path: str, marks: list[tuple[re.Pattern[str], bool]]) -> bool:
    """Whether ``path`` (from the root) ends up marked: the last line that matches wins."""
    state = False
    for regex, sets in marks:
        if regex.match(path):
            state = sets
    return state


def test_the_patterns_are_read_as_git_reads_them() -> None:
    marks = [(pattern_regex("schemas/*.json"), True), (pattern_regex("out/**"), True)]
    assert marked_generated("schemas/action.json", marks)
    assert not marked_generated("schemas/examples/action.json", marks)
    assert not marked_generated("schemas/action.json.orig", marks)
    assert marked_generated("out/a/b.d.ts", marks)
    assert not marked_generated("out", marks)
    assert marked_generated("deep/in/file.txt", [(pattern_regex("*.txt"), True)])
    unmarked = [*marks, (pattern_regex("schemas/action.json"), False)]
    assert not marked_generated("schemas/action.json", unmarked)


def test_every_file_the_generators_write_is_marked_generated() -> None:
    marks = generated_marks()
    schemas = [f"schemas/{name}" for name in generate()]
    types = [p.relative_to(ROOT).as_posix() for p in sorted(GENERATED_TYPES.rglob("*.d.ts"))]
    # The generators write something of every kind (top level, REST, OpenAPI, types).
    assert {"schemas/openapi.json", "schemas/rest/problem.json"} <= set(schemas)
    assert "clients/types/generated/server-message.d.ts" in types
    unmarked = [path for path in schemas + types if not marked_generated(path, marks)]
    assert not unmarked, (
        f"{len(unmarked)} files written by a generator are not marked in .gitattributes, "
        f"e.g. {unmarked[:3]}"
    )


def test_the_files_written_by_hand_beside_them_are_not_marked() -> None:
    marks = generated_marks()
    by_hand = [
        "schemas/asyncapi.yaml",
        *(p.relative_to(ROOT).as_posix() for p in (SCHEMAS / "examples").rglob("*") if p.is_file()),
        "clients/types/generate.mjs",
        "clients/types/package.json",
        "clients/types/tsconfig.json",
        "service/schemas.py",
    ]
    assert len(by_hand) > 6  # the examples were found
    marked = [path for path in by_hand if marked_generated(path, marks)]
    assert not marked, (
        f"{len(marked)} files written by hand are marked generated in .gitattributes, "
        f"e.g. {marked[:3]}"
    )
