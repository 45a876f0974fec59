"""The documentation agrees with the code: rule ids, error codes, routes, messages, settings.

docs/protocol.md and the README hold tables that a front-end developer relies on (rule
ids with their messages, error codes, limits, the configuration); these tests read the
tables back and compare them with the engine, the protocol models and the settings.
"""

from __future__ import annotations

import fnmatch
import json
import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from starlette.routing import Route, WebSocketRoute

from service import protocol
from service.config import Settings
from service.engine.game import DoubleSolitaire, SolitaireReflechi
from service.engine.rules import REJECTION_MESSAGES
from service.openapi import openapi_document
from service.routes import ROUTES

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PROTOCOL = ROOT / "docs" / "protocol.md"
SCHEMAS = ROOT / "schemas"


# --------------------------------------------------------------------------- helpers


def text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def section(path: Path, name: str) -> str:
    """The text between ``<!-- name:start -->`` and ``<!-- name:end -->``."""
    match = re.search(rf"<!-- {name}:start -->\n(.*?)<!-- {name}:end -->", text(path), re.S)
    assert match, f"{path.name} has no <!-- {name}:start/end --> section"
    return match.group(1)


def table_rows(markdown: str) -> list[list[str]]:
    """The body rows of the Markdown table(s) in ``markdown``, cells stripped."""
    rows = []
    for line in markdown.splitlines():
        line = line.strip()
        if not line.startswith("|"):
            continue
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if all(re.fullmatch(r":?-+:?", cell) for cell in cells):
            continue
        rows.append(cells)
    return rows[1:]  # without the header row


def code_span(cell: str) -> str:
    match = re.fullmatch(r"`([^`]*)`", cell)
    assert match, f"expected a single `code` span, got {cell!r}"
    return match.group(1)


def env_name(field: str) -> str:
    return field.upper()


def default_text(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


# --------------------------------------------------------------------------- rules


def raisable_rule_ids() -> set[str]:
    """Every rule id the engine can refuse an action with (the ``R_*`` attributes)."""
    return {
        getattr(cls, name)
        for cls in (DoubleSolitaire, SolitaireReflechi)
        for name in dir(cls)
        if name.startswith("R_")
    }


def test_rule_table_lists_exactly_the_rules_the_engine_raises() -> None:
    rows = table_rows(section(PROTOCOL, "rules-table"))
    ids = [code_span(row[0]) for row in rows]
    assert len(ids) == len(set(ids)), "a rule id is listed twice"
    expected = raisable_rule_ids()
    assert set(ids) == expected, (
        f"docs/protocol.md rule table: missing {sorted(expected - set(ids))}, "
        f"not raised by the engine {sorted(set(ids) - expected)}"
    )


def test_rule_table_messages_are_those_of_the_engine() -> None:
    for row in table_rows(section(PROTOCOL, "rules-table")):
        assert len(row) == 4, row
        rule_id, _, english, finnish = row
        assert (english, finnish) == REJECTION_MESSAGES[code_span(rule_id)], rule_id


# --------------------------------------------------------------------------- protocol.md


def test_error_table_lists_every_error_code() -> None:
    rows = table_rows(section(PROTOCOL, "error-codes"))
    codes = [code_span(row[0]) for row in rows]
    assert sorted(codes) == sorted(code.value for code in protocol.ErrorCode)


def documented_routes() -> list[str]:
    routes = []
    for route in ROUTES:
        if isinstance(route, WebSocketRoute):
            routes.append(route.path)
        elif isinstance(route, Route):
            methods = sorted((route.methods or {"GET"}) - {"HEAD"})
            routes.extend(f"{method} {route.path}" for method in methods)
    return routes


@pytest.mark.parametrize("route", documented_routes())
def test_every_route_is_documented(route: str) -> None:
    # In a code span, alone or followed by its query string: `GET /games/{game_id}/changes?…`
    assert re.search(rf"`{re.escape(route)}[`?]", text(PROTOCOL)), f"{route} is not documented"


def message_types(schema: str) -> list[str]:
    document = json.loads((SCHEMAS / schema).read_text(encoding="utf-8"))
    return sorted(document["discriminator"]["mapping"])


@pytest.mark.parametrize(
    "kind", message_types("client-message.json") + message_types("server-message.json")
)
def test_every_message_type_has_a_heading(kind: str) -> None:
    headings = [line for line in text(PROTOCOL).splitlines() if line.startswith("#")]
    assert any(f"`{kind}`" in heading for heading in headings), kind


def test_every_change_event_is_explained() -> None:
    document = json.loads((SCHEMAS / "server-message.json").read_text(encoding="utf-8"))
    events = document["$defs"]["Change"]["properties"]["events"]["items"]
    for kind in events["discriminator"]["mapping"]:
        assert f"\n| `{kind}` |" in text(PROTOCOL), kind


def test_limits_table_shows_the_default_settings() -> None:
    fields = Settings.model_fields
    env = {env_name(name): name for name in fields}
    seen = set()
    for row in table_rows(section(PROTOCOL, "limits")):
        _, default, setting = row
        for variable in re.findall(r"`([A-Z_]+)`", setting):
            assert variable in env, f"{variable} is not a setting"
            value = default_text(fields[env[variable]].default)
            assert re.search(rf"(?<![\d.]){re.escape(value)}(?![\d.])", default), (
                f"limits table: {variable} defaults to {value}, the table says {default!r}"
            )
            seen.add(variable)
    assert {"MAX_FRAME_BYTES", "RATE_PER_SECOND", "RATE_BURST", "MAX_SUBSCRIPTIONS"} <= seen


# --------------------------------------------------------------------------- tokens

TOKENS = ["game token", "race token", "player token"]


def token_issuers() -> dict[str, str]:
    """``METHOD path`` of every operation whose answer carries a token (``player_token``,
    whatever its kind) -> the kind docs/protocol.md's token table gives it."""
    rows = table_rows(section(PROTOCOL, "tokens"))
    assert [row[0].strip("*") for row in rows] == TOKENS, "one row per kind of token"
    issuers: dict[str, str] = {}
    for row in rows:
        for route in re.findall(r"`([A-Z]+ /[^`]*)`", row[2]):
            assert route not in issuers, f"{route} is given two kinds of token"
            issuers[route] = row[0].strip("*")
    return issuers


def test_the_token_table_says_which_route_gives_which_kind() -> None:
    issuers = token_issuers()
    document = openapi_document()
    schemas = document["components"]["schemas"]
    answering = set()
    for path, item in document["paths"].items():
        for method, operation in item.items():
            for status, response in operation["responses"].items():
                schema = response.get("content", {}).get("application/json", {}).get("schema")
                ref = (schema or {}).get("$ref", "")
                properties = schemas.get(ref.rpartition("/")[2], {}).get("properties", {})
                if status.startswith("2") and "player_token" in properties:
                    answering.add(f"{method.upper()} {path}")
    assert answering == set(issuers), (
        f"token table: missing {sorted(answering - set(issuers))}, "
        f"giving no token {sorted(set(issuers) - answering)}"
    )


TOKEN_DOCUMENTS = [
    README,
    *sorted((ROOT / "docs").glob("*.md")),
    ROOT / "clients" / "python" / "README.md",
    ROOT / "clients" / "js" / "README.md",
    SCHEMAS / "asyncapi.yaml",
    SCHEMAS / "openapi.json",
]


@pytest.mark.parametrize("document", TOKEN_DOCUMENTS, ids=lambda path: path.name)
def test_tokens_go_by_the_names_of_the_token_table(document: Path) -> None:
    """The race token was once a "race player token", and the game token a "player
    token" of the game: names that mixed two kinds up."""
    words = " ".join(text(document).split()).lower()
    for old in ("race player token", "player token of the game", "player token of their"):
        assert old not in words, f"{document.name} says {old!r}"


# --------------------------------------------------------------------------- README


def test_readme_names_the_two_commands() -> None:
    readme = text(README)
    assert "make run" in readme and "make test" in readme
    assert "STORE_URL=redis://" in readme
    port = Settings.model_fields["port"].default
    host = Settings.model_fields["host"].default
    assert f"http://{host}:{port}" in readme


def test_readme_configuration_table_covers_every_setting() -> None:
    fields = Settings.model_fields
    rows = {code_span(row[0]): row for row in table_rows(section(README, "settings"))}
    expected = {env_name(name) for name in fields}
    assert set(rows) == expected, (
        f"README configuration table: missing {sorted(expected - set(rows))}, "
        f"unknown {sorted(set(rows) - expected)}"
    )
    for name, field in fields.items():
        _, default, meaning = rows[env_name(name)]
        assert code_span(default) == default_text(field.default) or (
            isinstance(field.default, float) and float(code_span(default)) == field.default
        ), f"{env_name(name)}: default is {field.default!r}, the README says {default}"
        assert meaning, env_name(name)


# --------------------------------------------------------------------------- links


def slug(heading: str) -> str:
    """GitHub's anchor for a Markdown heading."""
    words = heading.strip().lstrip("#").strip().lower().replace("`", "")
    words = "".join(c for c in words if c in "-_ " or unicodedata.category(c)[0] in {"L", "N"})
    return words.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    lines = text(path).splitlines()
    return {slug(line) for line in lines if re.match(r"#{1,6} ", line)}


@pytest.mark.parametrize("document", [README, PROTOCOL], ids=lambda p: p.name)
def test_relative_links_resolve(document: Path) -> None:
    for target in re.findall(r"\]\(([^)\s]+)\)", text(document)):
        if re.match(r"[a-z]+:", target):
            continue
        path_part, _, fragment = target.partition("#")
        path = (document.parent / path_part).resolve() if path_part else document
        assert path.exists(), f"{document.name}: broken link {target}"
        if fragment and path.suffix == ".md":
            assert fragment in anchors(path), f"{document.name}: no anchor for {target}"


# --------------------------------------------------------------------------- layout


def ignored_by_git(name: str) -> bool:
    patterns = [
        line.strip().rstrip("/")
        for line in text(ROOT / ".gitignore").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    return any(fnmatch.fnmatch(name, pattern) for pattern in patterns)


def tracked_entries(folder: Path) -> list[Path]:
    """The entries of ``folder`` a fresh clone has (not hidden, not ignored by git)."""
    return sorted(
        path
        for path in folder.iterdir()
        if not path.name.startswith(".") and not ignored_by_git(path.name)
    )


def layout_names() -> list[str]:
    """What the README's layout table must name: every top-level folder, every package of
    the service, and the modules at the service's top."""
    names = [f"{path.name}/" for path in tracked_entries(ROOT) if path.is_dir()]
    for path in tracked_entries(ROOT / "service"):
        if path.is_dir() and (path / "__init__.py").exists():
            names.append(f"service/{path.name}/")
        elif path.suffix == ".py" and path.name != "__init__.py":
            names.append(path.name)
    return names


def layout_rows() -> list[tuple[list[str], str]]:
    """The table's rows: the paths of the first cell, and the description."""
    rows = []
    for line in section(README, "layout").splitlines()[2:]:
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        rows.append((re.findall(r"`([^`]+)`", cells[0]), " | ".join(cells[1:])))
    return rows


@pytest.mark.parametrize("name", layout_names())
def test_readme_layout_names_every_module_and_folder(name: str) -> None:
    table = section(README, "layout")
    assert f"`{name}" in table, f"README 'Where things are' does not name {name}"


def test_layout_walk_finds_the_known_places() -> None:
    names = layout_names()
    assert {"service/", "tests/", "docs/", "service/engine/", "service/ws/", "app.py"} <= set(names)


def test_every_path_the_layout_table_names_exists() -> None:
    """A row's paths exist, and so does every module its description names in its
    folder (a renamed module cannot leave the table behind)."""
    rows = layout_rows()
    assert len(rows) > 10
    for paths, description in rows:
        for path in paths:
            assert (ROOT / path).exists(), f"README 'Where things are' names {path}"
        folder = ROOT / paths[0]
        if paths[0].startswith("service") and folder.is_dir():
            for module in re.findall(r"`([a-z_]+\.py)`", description):
                assert (folder / module).exists(), f"{paths[0]} has no {module}"


DOCUMENTS = [
    README,
    ROOT / "CONTRIBUTING.md",
    ROOT / "CHANGELOG.md",
    *sorted((ROOT / "docs").glob("*.md")),
    ROOT / "schemas" / "examples" / "README.md",
    ROOT / "clients" / "python" / "README.md",
    ROOT / "clients" / "js" / "README.md",
]
PROJECT_PATH = re.compile(r"`((?:service|tests|benchmarks|schemas|docs|clients|scripts)/[\w./-]*)")


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_project_path_a_document_names_exists(document: Path) -> None:
    # A path git ignores (installed packages, caches) exists only once something made it.
    missing = [
        path
        for path in (match.group(1) for match in PROJECT_PATH.finditer(text(document)))
        if not (ROOT / path).exists() and not any(map(ignored_by_git, Path(path).parts))
    ]
    assert not missing, f"{document.name} names paths that do not exist: {missing}"
