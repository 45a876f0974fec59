"""The machine-readable protocol and the prose agree with what the service does.

A front end written from openapi.json, asyncapi.yaml, the schemas, their examples and
docs/ alone must meet no answer they do not describe. ``tests/support.py`` checks every
HTTP answer of every test against openapi.json (status and error code); this module
covers the rest: routes, error codes, the example documents, pile names and the order
in which refusals are reported.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import pytest
import yaml
from jsonschema import Draft202012Validator, ValidationError
from jsonschema.exceptions import best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012
from starlette.routing import Route

from service import engine, protocol
from service.openapi import ERROR_STATUS, openapi_document
from service.protocol import races as protocol_races
from service.routes import ROUTES
from tests.players.conftest import FakeClock, players_client
from tests.support import (
    CheckedClient,
    CheckedWebSocket,
    auth,
    documented_error_codes,
    hello,
    service_client,
)
from tests.test_docs import code_span, section, table_rows

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "schemas"
EXAMPLES = SCHEMAS / "examples"
PROTOCOL = ROOT / "docs" / "protocol.md"
README = ROOT / "README.md"
NOTATION = ROOT / "docs" / "notation.md"

# Codes the WebSocket never sends: a rule's refusal is a `result` there, and the others
# answer only HTTP routes (the HTTP layer, records, players, the daily challenge, pools).
HTTP_ONLY_CODES = {
    "rule_violation",
    "method_not_allowed",
    "internal_error",
    "game_not_over",
    "bad_name",
    "daily_attempt_used",
    "already_in_race",
    "winnable_pool_empty",
    "arena_over",
    "arena_started",
    "not_in_arena",
    "not_your_arena",
}


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- OpenAPI


def route_operations() -> list[tuple[str, str]]:
    operations = []
    for route in ROUTES:
        if isinstance(route, Route):
            for method in sorted((route.methods or {"GET"}) - {"HEAD"}):
                operations.append((method.lower(), route.path))
    return operations


@pytest.mark.parametrize(("method", "path"), route_operations())
def test_every_route_is_in_openapi(method: str, path: str) -> None:
    paths = load(SCHEMAS / "openapi.json")["paths"]
    assert method in paths.get(path, {}), f"{method.upper()} {path} is not in openapi.json"


def test_openapi_statuses_are_those_of_the_error_table() -> None:
    table = {code_span(row[0]): row[1] for row in table_rows(section(PROTOCOL, "error-codes"))}
    for error_code, status in ERROR_STATUS.items():
        assert table[error_code.value] == str(status), error_code
    http_codes = {code for code, status in table.items() if status.isdigit()}
    assert http_codes == {code.value for code in ERROR_STATUS}
    for path, item in openapi_document()["paths"].items():
        for method, operation in item.items():
            for status, response in operation["responses"].items():
                if "application/problem+json" not in response.get("content", {}):
                    continue
                for code in documented_error_codes(response):
                    assert table[code] == status, f"{method} {path}: {code} is not a {status}"


def test_the_committed_openapi_is_the_one_served(memory_client: CheckedClient) -> None:
    assert memory_client.get("/openapi.json").json() == load(SCHEMAS / "openapi.json")


def route_section(method: str, path: str) -> str:
    """The text under the heading of docs/protocol.md that names ``METHOD path`` (alone or
    with its query string) in a code span, up to the next heading."""
    text = PROTOCOL.read_text(encoding="utf-8")
    for match in re.finditer(r"^#+ ([^\n]*)\n(.*?)(?=^#)", text, re.S | re.M):
        spans = [span.partition("?")[0] for span in re.findall(r"`([^`]+)`", match.group(1))]
        if f"{method.upper()} {path}" in spans:
            return match.group(2)
    return ""


# A game that is private (a running race's or a daily challenge's before its day is
# over) is refused with these wherever it is read; each route that can must say so.
PRIVATE_GAME_CODES = {"race_running", "daily_running"}


@pytest.mark.parametrize(("method", "path"), route_operations())
def test_every_route_names_the_private_game_refusals_it_can_send(method: str, path: str) -> None:
    operation = openapi_document()["paths"][path][method]
    sent = {
        code
        for response in operation["responses"].values()
        if "application/problem+json" in response.get("content", {})
        for code in documented_error_codes(response)
    }
    section = route_section(method, path)
    missing = sorted(code for code in sent & PRIVATE_GAME_CODES if f"`{code}`" not in section)
    assert not missing, f"docs/protocol.md, {method.upper()} {path}: name {missing}"


def race_in_lobby(client: CheckedClient, **body: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    created = client.post("/races", json={"name": "Ada", "game": "TF", **body}).json()
    joined = client.post(
        "/races/join", json={"join_code": created["join_code"], "name": "Bo"}
    ).json()
    return created, joined


def wait_until_running(client: CheckedClient, race_id: str) -> None:
    deadline = time.monotonic() + 5
    while client.get(f"/races/{race_id}").json()["race"]["status"] != "running":
        assert time.monotonic() < deadline, "the race did not start"
        time.sleep(0.01)


def test_every_answer_about_a_race_game_is_in_openapi() -> None:
    """The answers that openapi.json once lacked: each request goes through the checked
    client, which fails on a status or code the document does not list."""
    with service_client(race_countdown_seconds=0.0) as client:
        created, joined = race_in_lobby(client)
        game_id, token = created["game_id"], created["player_token"]
        # The game exists from joining on, as race-joined.json says, but stays closed.
        for path in (f"/games/{game_id}", f"/games/{game_id}/legal-actions"):
            answer = client.get(path, headers=auth(token))
            assert (answer.status_code, answer.json()["code"]) == (409, "race_not_started")
        played = client.post(f"/games/{game_id}/actions", json={"action": "d"}, headers=auth(token))
        assert (played.status_code, played.json()["code"]) == (409, "race_not_started")
        description = protocol_races.RaceJoined.model_fields["game_id"].description
        assert description is not None and "race_not_started" in description

        started = client.post(f"/races/{created['race_id']}/start", headers=auth(token))
        assert started.status_code == 200
        wait_until_running(client, created["race_id"])
        answers = {
            "no token": client.get(f"/games/{game_id}"),
            "another player's token": client.get(
                f"/games/{game_id}", headers=auth(joined["player_token"])
            ),
            "record": client.get(f"/games/{game_id}/record", headers=auth(token)),
        }
        assert {name: (a.status_code, a.json()["code"]) for name, a in answers.items()} == {
            "no token": (403, "race_running"),
            "another player's token": (401, "unauthorized"),
            "record": (403, "race_running"),
        }
        assert client.get(f"/games/{game_id}", headers=auth(token)).status_code == 200


# --------------------------------------------------------------------------- AsyncAPI


def test_asyncapi_names_every_error_code_the_websocket_sends() -> None:
    document = yaml.safe_load((SCHEMAS / "asyncapi.yaml").read_text(encoding="utf-8"))
    described = document["components"]["messages"]["error"]["description"]
    named = set(re.findall(r"`([a-z_]+)`", described))
    codes = {code.value for code in protocol.ErrorCode}
    websocket_codes = codes - HTTP_ONLY_CODES
    assert websocket_codes <= named, f"AsyncAPI error lacks {sorted(websocket_codes - named)}"
    enum = set(load(SCHEMAS / "server-message.json")["$defs"]["ErrorCode"]["enum"])
    assert websocket_codes <= enum, f"server-message.json lacks {sorted(websocket_codes - enum)}"


# --------------------------------------------------------------------------- WebSocket errors


def request_errors(kind: str) -> set[str]:
    """The error codes docs/protocol.md names under the heading of a client message."""
    text = PROTOCOL.read_text(encoding="utf-8")
    match = re.search(rf"^#### `{kind}`\n(.*?)^#", text, re.S | re.M)
    assert match, f"docs/protocol.md has no heading `{kind}`"
    codes = {code.value for code in protocol.ErrorCode}
    return set(re.findall(r"`([a-z_]+)`", match.group(1))) & codes


def answer_to(ws: CheckedWebSocket, message: dict[str, Any]) -> dict[str, Any]:
    ws.send_json(message)
    while True:
        frame: dict[str, Any] = ws.receive_json()
        if frame.get("id") == message["id"]:
            return frame


def test_subscribe_answers_the_errors_it_documents() -> None:
    """Another player's daily challenge game before its day is over, a race game before
    its race starts, a wrong token, an unknown game: each refusal is listed."""
    with players_client("memory://", FakeClock()) as client:
        player = client.post("/players", json={"name": "Ada"}).json()["player_token"]
        daily = client.post("/daily/2026-12-01/TF.D1N/games", headers=auth(player)).json()
        race = client.post("/races", json={"name": "Bo", "game": "TF"}).json()
        cases = [
            ("daily_running", {"game_id": daily["game_id"]}),
            ("race_not_started", {"game_id": race["game_id"], "token": race["player_token"]}),
            ("unauthorized", {"game_id": daily["game_id"], "token": race["player_token"]}),
            ("not_found", {"game_id": "no-such-game"}),
        ]
        documented = request_errors("subscribe")
        with client.checked_websocket() as ws:
            hello(ws)
            for n, (code, fields) in enumerate(cases):
                answer = answer_to(ws, {"type": "subscribe", "id": f"s-{n}", **fields})
                assert (answer["type"], answer["code"]) == ("error", code), answer
                assert code in documented, f"docs/protocol.md: subscribe can answer {code}"
            own = {"game_id": daily["game_id"], "token": daily["player_token"]}
            assert answer_to(ws, {"type": "subscribe", "id": "own", **own})["role"] == "player"


@pytest.mark.parametrize("kind", ["action", "undo", "resign", "hint"])
def test_a_player_s_request_about_a_game_not_followed_is_not_subscribed(kind: str) -> None:
    """As documented for each of them: not followed, ``not_subscribed``; watched without
    the player token, ``not_player``."""
    message = {"type": kind, "id": "r", **({"action": "d"} if kind == "action" else {})}
    with service_client() as client, client.checked_websocket() as ws:
        game_id = client.post("/games", json={}).json()["game_id"]
        hello(ws)
        assert answer_to(ws, {**message, "game_id": game_id})["code"] == "not_subscribed"
        answer_to(ws, {"type": "subscribe", "id": "s", "game_id": game_id})
        assert answer_to(ws, {**message, "game_id": game_id})["code"] == "not_player"
    assert {"not_subscribed", "not_player"} <= request_errors(kind) | request_errors("action")
    assert {"not_subscribed", "not_player"} <= request_errors("hint")


# --------------------------------------------------------------------------- examples


def found_in(node: Any, wanted: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
    """Every object of a document, at any depth, that is ``wanted``."""
    found = []
    if isinstance(node, dict):
        if wanted(node):
            found.append(node)
        for value in node.values():
            found.extend(found_in(value, wanted))
    elif isinstance(node, list):
        for value in node:
            found.extend(found_in(value, wanted))
    return found


def player_entries(node: Any) -> list[dict[str, Any]]:
    """Every race player or ranking entry (anything with ``score_display``) in a document."""
    return found_in(node, lambda entry: "score_display" in entry and "player_id" in entry)


#
# Every JSON document the prose shows a front-end developer: the fenced ``json`` blocks of
# the README and docs/ (a whole document, one document a line, or a fragment
# ``"name": {...}``) and the JSON lines of the README's and docs/protocol.md's other
# blocks (a session's frames, ``< `` or ``> `` marking their direction, and curl's
# answers). Each is checked against the schema it belongs to, found in this order:
#
# 1. a ``<!-- schema: <file>[#<pointer>] -->`` comment on the line before the block
#    (a file under schemas/; a pointer picks a definition of it);
# 2. a WebSocket message by its ``type``: client-message.json or server-message.json;
# 3. a problem document by its ``type`` URI: rest/problem.json;
# 4. the last schema file the prose links to between the heading before the block and
#    the block.
#
# ``…`` stands for what an example leaves out: a ``"…": "…"`` member, or ``"…"`` in a
# list. Such an object or list may lack required members or items; everything it shows
# must still fit.

ELLIPSIS = "…"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
SCHEMA_MARK = re.compile(r"<!-- schema: (\S+) -->\n\Z")
SCHEMA_LINK = re.compile(r"\]\((?:\.\./)?schemas/(?!examples/)([\w/.-]+\.json)\)")
PROBLEM_TYPE = "https://solitaire.invalid/problems/"
# The documents whose examples are protocol documents (docs/benchmarks.md shows lines of
# benchmark output instead), and those whose other blocks hold frames and bodies a line.
EXAMPLE_DOCUMENTS = [README, *sorted((ROOT / "docs").glob("*.md"))]
LINE_DOCUMENTS = [README, PROTOCOL]


@dataclass(frozen=True)
class Example:
    where: str  # file:line
    document: Any
    schema: str | None  # schema file under schemas/, maybe with a #pointer; None: unknown


def block_documents(body: str) -> list[tuple[int, Any]]:
    """The documents of a ``json`` block, one after another, with their line offsets; or
    the value of a fragment ``"name": value``. Nothing when it is neither."""
    decoder, found, position = json.JSONDecoder(), [], 0
    try:
        while body[position:].strip():
            position += len(body[position:]) - len(body[position:].lstrip())
            document, end = decoder.raw_decode(body, position)
            found.append((body.count("\n", 0, position), document))
            position = end
        return found
    except json.JSONDecodeError:
        pass
    with contextlib.suppress(json.JSONDecodeError):
        fragment = json.loads("{" + body + "}")
        if len(fragment) == 1:
            return [(0, next(iter(fragment.values())))]
    return []


def line_documents(body: str) -> list[tuple[int, Any]]:
    """The lines of another block that are JSON objects (not those shortened with ``…``
    outside a string, which are no JSON)."""
    found = []
    for n, line in enumerate(body.splitlines()):
        text = line.removeprefix("< ").removeprefix("> ")
        if text.startswith("{"):
            with contextlib.suppress(json.JSONDecodeError):
                found.append((n, json.loads(text)))
    return found


def message_schema(document: Any) -> str | None:
    kind = document.get("type") if isinstance(document, dict) else None
    if not isinstance(kind, str):
        return None
    if kind.startswith(PROBLEM_TYPE):
        return "rest/problem.json"
    names = [
        name
        for name in ("client-message.json", "server-message.json")
        if kind in load(SCHEMAS / name)["discriminator"]["mapping"]
    ]
    return " ".join(names) or None


def doc_examples(path: Path) -> list[Example]:
    text = path.read_text(encoding="utf-8")
    examples = []
    for fence in FENCE.finditer(text):
        language, body = fence.group(1), fence.group(2)
        before = re.split(r"^#", text[: fence.start()], flags=re.M)[-1]
        first_line = text.count("\n", 0, fence.start()) + 2
        if language == "json":
            # A block that is no JSON is reported as an example of no schema.
            found = block_documents(body) or [(0, body)]
        elif path in LINE_DOCUMENTS:
            found = line_documents(body)
        else:
            continue
        mark = SCHEMA_MARK.search(before)
        links = SCHEMA_LINK.findall(before)
        for offset, document in found:
            schema = mark.group(1) if mark else message_schema(document)
            examples.append(
                Example(
                    f"{path.name}:{first_line + offset}",
                    document,
                    schema or (links[-1] if links else None),
                )
            )
    return examples


def all_doc_examples() -> list[Example]:
    return [example for path in EXAMPLE_DOCUMENTS for example in doc_examples(path)]


def schema_registry() -> Registry:
    """Every schema file under schemas/ (openapi.json too), by its URI."""
    registry: Registry = Registry()
    for path in sorted(SCHEMAS.rglob("*.json")):
        name = path.relative_to(SCHEMAS).as_posix()
        if name.startswith("examples/"):
            continue
        contents = load(path)
        resource = Resource.from_contents(contents, default_specification=DRAFT202012)
        registry = registry.with_resource(contents.get("$id", SCHEMA_BASE + name), resource)
    return registry


SCHEMA_BASE = "https://solitaire.invalid/schemas/"
REGISTRY = schema_registry()


def without_ellipses(node: Any, elided: set[int]) -> Any:
    """``node`` without its ``…`` members and items; the ids of the objects and lists
    that had some go into ``elided``."""
    if isinstance(node, dict):
        kept: Any = {k: without_ellipses(v, elided) for k, v in node.items() if k != ELLIPSIS}
    elif isinstance(node, list):
        kept = [without_ellipses(v, elided) for v in node if v != ELLIPSIS]
    else:
        return node
    if len(kept) < len(node):
        elided.add(id(kept))
    return kept


def excused(error: ValidationError, elided: set[int]) -> bool:
    """The error is only what a shortened object or list leaves out: a required member
    or a number of items. Under ``oneOf``/``anyOf``, when one branch fails only so."""
    if error.validator in ("oneOf", "anyOf"):
        branches: dict[Any, list[ValidationError]] = {}
        for sub in error.context or []:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        return any(all(excused(sub, elided) for sub in subs) for subs in branches.values())
    return error.validator in ("required", "minItems") and id(error.instance) in elided


def schema_errors(document: Any, schema: str) -> list[str]:
    elided: set[int] = set()
    shown = without_ellipses(document, elided)
    name, _, pointer = schema.partition("#")
    checker = Draft202012Validator({"$ref": f"{SCHEMA_BASE}{name}#{pointer}"}, registry=REGISTRY)
    return [described(error) for error in checker.iter_errors(shown) if not excused(error, elided)]


def described(error: ValidationError) -> str:
    """Where and what, of the deepest error that says most (not "not valid under any")."""
    error = best_match([error])
    return f"/{'/'.join(map(str, error.absolute_path))}: {error.message[:300]}"


DOC_EXAMPLES = all_doc_examples()


@pytest.mark.parametrize("example", DOC_EXAMPLES, ids=lambda example: example.where)
def test_every_example_in_the_docs_fits_its_schema(example: Example) -> None:
    assert example.schema, (
        f"{example.where}: which schema is this example of? Link the schema file in the "
        "sentence before it, or put <!-- schema: <file> --> on the line before the block"
    )
    failures = {}
    for schema in example.schema.split():  # a `hint` may be either way's message
        errors = schema_errors(example.document, schema)
        if not errors:
            return
        failures[schema] = errors
    pytest.fail(f"{example.where} does not fit {failures}")


def test_the_docs_examples_are_found() -> None:
    """The reader above finds the examples: every block of docs/protocol.md, the
    README's session and the public view of docs/notation.md."""
    where = [example.where.partition(":")[0] for example in DOC_EXAMPLES]
    blocks = PROTOCOL.read_text(encoding="utf-8").count("```json")
    assert where.count(PROTOCOL.name) >= blocks + 10
    assert where.count(README.name) >= 8
    assert [e.schema for e in DOC_EXAMPLES if e.where.startswith(NOTATION.name)] == [
        "public-state.json"
    ]


def documents() -> list[tuple[str, Any]]:
    """The valid examples and every example of the docs, named."""
    named = [(p.name, load(p)) for p in sorted((EXAMPLES / "valid").glob("*.json"))]
    return named + [(example.where, example.document) for example in DOC_EXAMPLES]


def race_documents() -> list[tuple[str, Any]]:
    return [(name, doc) for name, doc in documents() if player_entries(doc)]


def scoring_of(document: Any) -> engine.Scoring:
    race = document.get("race", document)
    return engine.Scoring(race.get("scoring", "normal"))


@pytest.mark.parametrize(
    ("name", "document"), [pytest.param(*item, id=item[0]) for item in race_documents()]
)
def test_race_examples_show_the_score_as_the_service_does(name: str, document: Any) -> None:
    scoring = scoring_of(document)
    for entry in player_entries(document):
        assert entry["score_display"] == engine.format_score(entry["score"], scoring), (
            f"{name}: player {entry['player_id']} has score {entry['score']} shown as "
            f"{entry['score_display']!r}"
        )


def test_race_examples_exist() -> None:
    assert len(race_documents()) >= 10


def documented_changes() -> list[tuple[str, dict[str, Any]]]:
    """Every change (anything with a ``patch``) in the documents."""
    return [
        (name, change)
        for name, doc in documents()
        for change in found_in(doc, lambda node: isinstance(node.get("patch"), list))
    ]


def pile_path(pile: str) -> str:
    """The path of a pile in the public state: ``c3`` -> ``/columns/2/up``."""
    if pile == "w":
        return "/waste"
    kind, index = pile[0], int(pile[1:]) - 1
    return f"/columns/{index}/up" if kind == "c" else f"/foundations/{index}"


def one_card_ops(change: dict[str, Any]) -> dict[str, str]:
    """What a move of one card, with no card turned, does to its two piles."""
    events = change.get("events", [])
    moved = [event for event in events if event["type"] == "moved"]
    others = [event for event in events if event["type"] not in ("moved", "won")]
    if others or len(moved) != 1 or len(moved[0]["cards"]) != 1:
        return {}
    source, target = pile_path(moved[0]["from"]), pile_path(moved[0]["to"])
    return {
        source: "replace" if source.startswith("/foundations") else "remove",
        target: "replace" if target.startswith("/foundations") else "add",
    }


def pile_of(op: dict[str, Any]) -> str:
    """The pile (or scalar) an operation changes: ``/columns/3/up/-`` -> ``/columns/3/up``."""
    path: str = op["path"]
    parent, _, last = path.rpartition("/")
    return parent if op["op"] in ("add", "remove") and (last == "-" or last.isdigit()) else path


@pytest.mark.parametrize(
    ("name", "change"), [pytest.param(*item, id=item[0]) for item in documented_changes()]
)
def test_documented_patches_have_the_shape_the_service_sends(
    name: str, change: dict[str, Any]
) -> None:
    """One operation per pile: an ``add`` or ``remove`` for one card, else a ``replace``
    of the pile (docs/protocol.md, "Applying changes"), as ``service.games.changes`` writes them."""
    patch = change["patch"]
    piles = [pile_of(op) for op in patch]
    assert len(piles) == len(set(piles)), f"{name}: a pile changed by several operations"
    for op in patch:
        assert op["op"] in ("add", "remove", "replace"), name
        if op["op"] == "add":
            assert op["path"].endswith("/-"), f"{name}: cards are added at the top: {op}"
    ops = {pile_of(op): op["op"] for op in patch}
    for pile, expected in one_card_ops(change).items():
        assert ops.get(pile) == expected, f"{name}: one card moved, {pile} wants {expected}"


def test_documented_patches_exist() -> None:
    names = {name for name, _ in documented_changes()}
    assert len(documented_changes()) >= 10
    for document in (README, PROTOCOL):
        assert any(name.startswith(f"{document.name}:") for name in names), document.name


VOLATILE = re.compile(r"(^|_)(id|token|code|time|at)$|^host$")


def masked(node: Any) -> Any:
    """``node`` with ids, tokens, join codes and times replaced by their JSON type."""
    if isinstance(node, dict):
        return {
            key: type(value).__name__ if VOLATILE.search(key) else masked(value)
            for key, value in node.items()
        }
    if isinstance(node, list):
        return [masked(value) for value in node]
    return node


@pytest.mark.parametrize("scoring", ["normal", "vegas"])
def test_lobby_examples_are_what_the_service_sends(scoring: str) -> None:
    host = load(EXAMPLES / "valid" / "rest.race-joined.host.json")
    guest = load(EXAMPLES / "valid" / "rest.race-joined.guest.json")
    with service_client() as client:
        # Solitaire Réfléchi is scored Normal only, so Vegas is shown on Double Solitaire.
        game = "TF" if scoring == "normal" else "DS"
        request = {"name": "Ada", "game": game, "draw": 1, "max_players": 2}
        created = client.post(
            "/races", json={**request, "time_limit_seconds": 600, "scoring": scoring}
        ).json()
        joined = client.post(
            "/races/join", json={"join_code": created["join_code"], "name": "Bo"}
        ).json()
    if scoring == "normal":
        assert masked(created) == masked(host)
        assert masked(joined) == masked(guest)
    opening = engine.VEGAS_START if scoring == "vegas" else 0
    for player in joined["race"]["players"]:
        assert (player["score"], player["score_display"]) == (
            opening,
            engine.format_score(opening, engine.Scoring(scoring)),
        )
    opening_text = f'`{opening}` and `"{engine.format_score(opening, engine.Scoring(scoring))}"`'
    assert opening_text in PROTOCOL.read_text(encoding="utf-8").replace("\n", " ")


# --------------------------------------------------------------------------- pile names


def pile_candidates() -> list[str]:
    letters = "wsfcxWSFCX"
    numbers = ["", "0", "1", "4", "9", "10", "99", "100"]
    return [letter + number for letter in letters for number in numbers]


def engine_reads_pile(text: str) -> bool:
    """The notation reads it as a pile name (numbering is checked against the table)."""
    try:
        engine.parse_pile(text)
    except engine.InvalidActionError as error:
        return error.code == "bad_index"
    return True


def test_the_pile_pattern_accepts_exactly_the_notation_s_pile_names() -> None:
    move = load(SCHEMAS / "action.json")["$defs"]["MoveAction"]
    checker = Draft202012Validator(move["properties"]["to"])
    for text in pile_candidates():
        assert checker.is_valid(text) == engine_reads_pile(text), text
    for text in ("W", "F", "C1", "F2", "S"):
        assert checker.is_valid(text), text


# --------------------------------------------------------------------------- refusal order


def refusal_examples() -> list[list[str]]:
    return table_rows(section(PROTOCOL, "refusal-order"))


@pytest.mark.parametrize("row", refusal_examples(), ids=lambda row: " ".join(row))
def test_refusal_order_examples_hold(row: list[str]) -> None:
    code, before, action, reported = row
    game = engine.new_game(code_span(code))
    for text in before.strip("`").split():
        game.play_text(text)
    with pytest.raises((engine.IllegalActionError, engine.InvalidActionError)) as refused:
        game.play_text(code_span(action))
    # pytest.raises types the value as the two classes' common base.
    error = cast("engine.IllegalActionError | engine.InvalidActionError", refused.value)
    got = error.rule_id if isinstance(error, engine.IllegalActionError) else error.code
    assert got == code_span(reported)


def test_refusal_order_covers_the_issue_s_cases() -> None:
    actions = {code_span(row[2]) for row in refusal_examples()}
    assert {"c4:2>f", "r", "c1>c1"} <= actions


# --------------------------------------------------------------------------- notation


def test_notation_s_vegas_position_is_the_engine_s() -> None:
    match = re.search(
        r"The same deal with Vegas scoring starts `([^`]*) \.\.\.` and ends `([^`]*)`",
        NOTATION.read_text(encoding="utf-8"),
    )
    assert match, "docs/notation.md no longer shows the Vegas position"
    position = engine.new_game("DS1-D1V-AAAAAAB").position_text()
    assert position.startswith(match.group(1) + " ")
    assert position.endswith(" " + match.group(2))


def test_notation_s_public_view_is_the_engine_s() -> None:
    (shown,) = [e.document for e in DOC_EXAMPLES if e.where.startswith(NOTATION.name)]
    game = engine.new_game("TF1-D3N-QWERTYU")
    for text in ["c3>f2", "c5>c4", "d", "u"]:
        game.play_text(text)
    assert shown == game.public_view()
