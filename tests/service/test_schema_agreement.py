"""The schemas say exactly what the service accepts: for every request body schema
(``schemas/rest/*-request.json``) and the WebSocket's ``client-message.json``, values the
schema accepts are not refused by the service as malformed, and values it refuses are.

Clients' types are generated from these schemas (the JavaScript SDK's among them), so a
value a schema allows must get past the service's reading of the request, and a value it
forbids must not. Values come from a generator of this module, drawn by hypothesis: valid
ones from the schema's keywords, then the same values mutated (a field of another type or
out of its bounds, a field added or taken away, integers written with a fraction...). The
generator only proposes: the compiled validator of the suite (jsonschema-rs) judges each
value, and the service must agree with its verdict both ways. (hypothesis-jsonschema,
which would do the proposing, no longer runs with the hypothesis the suite uses.)

The service's verdict: a refusal of the request as such (``bad_json`` 400, or
``bad_message`` 422 over HTTP; an ``error`` frame with ``bad_message`` over the WebSocket)
against everything else, including refusals about the world (an unknown game, a wrong
token, a rule of the game, a bad name). Derandomized, about fifty values per schema.
"""

from __future__ import annotations

import json
import string
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service import analysis
from tests.support import CheckedClient, CheckedWebSocket, auth, service_client

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"
EXAMPLES = 50

JsonValue = Any
Strategy = st.SearchStrategy[JsonValue]

# --------------------------------------------------------------------------- proposing values

# Text without surrogates: JSON texts must be UTF-8 (RFC 8259), and the service reads
# them as such.
TEXT_CHARACTERS = st.characters(codec="utf-8")
SCALARS: Strategy = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**64), max_value=2**64),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(TEXT_CHARACTERS, max_size=20),
)
ANY_JSON: Strategy = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.text(TEXT_CHARACTERS, max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)
# What mutations put in place of a value: near misses of every JSON type first.
NEAR_MISSES: Strategy = st.sampled_from(
    [None, True, False, 0, 1, -1, 3, 0.5, 1.0, 3.0, 2.5, -0.0, 1e20, "", "1", "d", [], {}]
)


class Proposer:
    """Strategies of values for one schema document (``$ref`` into its ``$defs``)."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document

    def resolve(self, schema: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in schema:
            ref = schema["$ref"]
            assert ref.startswith("#/$defs/"), ref
            schema = self.document["$defs"][ref.removeprefix("#/$defs/")]
        return schema

    def valid(self, schema: dict[str, Any]) -> Strategy:
        schema = self.resolve(schema)
        for keyword in ("oneOf", "anyOf"):
            if keyword in schema:
                return st.one_of([self.valid(branch) for branch in schema[keyword]])
        if "const" in schema:
            return st.just(schema["const"])
        if "enum" in schema:
            return st.sampled_from(schema["enum"]).flatmap(as_written)
        kind = schema.get("type")
        if kind == "object":
            return self.object(schema)
        if kind == "string":
            return self.string(schema)
        if kind == "integer":
            low, high = schema.get("minimum", -(2**40)), schema.get("maximum", 2**40)
            return st.integers(min_value=low, max_value=high).flatmap(as_written)
        if kind == "number":
            return st.floats(allow_nan=False, allow_infinity=False)
        if kind == "boolean":
            return st.booleans()
        if kind == "null":
            return st.none()
        if kind == "array":
            return st.lists(self.valid(schema.get("items", {})), max_size=3)
        return ANY_JSON

    def object(self, schema: dict[str, Any]) -> Strategy:
        properties = schema.get("properties", {})
        required = set(schema.get("required", []))
        return st.fixed_dictionaries(
            {name: self.valid(sub) for name, sub in properties.items() if name in required},
            optional={
                name: self.valid(sub) for name, sub in properties.items() if name not in required
            },
        )

    def string(self, schema: dict[str, Any]) -> Strategy:
        low, high = schema.get("minLength", 0), schema.get("maxLength", 40)
        plain = st.text(TEXT_CHARACTERS, min_size=low, max_size=high)
        if "pattern" not in schema:
            return plain
        matching = st.from_regex(schema["pattern"], alphabet=TEXT_CHARACTERS)
        # Near misses of a pattern too: its own strings with a letter changed, or cut.
        return st.one_of(
            matching.filter(lambda s: low <= len(s) <= high),
            matching.map(str.upper),
            st.text(string.ascii_letters + string.digits + "-_>:", min_size=low, max_size=high),
            plain,
        )

    def invalid(self, schema: dict[str, Any]) -> Strategy:
        """A valid value with one thing changed (which may or may not make it invalid)."""
        return self.valid(schema).flatmap(lambda value: mutated(value))


def as_written(value: JsonValue) -> Strategy:
    """An integer as JSON may write it: 3, or 3.0 (the same integer to JSON Schema)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return st.sampled_from([value, float(value)])
    return st.just(value)


def mutated(value: JsonValue) -> Strategy:
    """``value`` with one change somewhere in it: the value at a path replaced by a near
    miss or any JSON value, a key taken away, or a key added."""
    paths = list(walk(value))

    def change(path: tuple[Any, ...], how: str, new: JsonValue, key: str) -> JsonValue:
        if not path and how != "add":
            return new
        copy = json.loads(json.dumps(value))
        parent = copy
        for step in path[:-1] if path else ():
            parent = parent[step]
        target = parent[path[-1]] if path else copy
        if how == "add" and isinstance(target, dict):
            target[key] = new
            return copy
        if how == "drop" and isinstance(parent, dict) and path:
            del parent[path[-1]]
            return copy
        parent[path[-1]] = new
        return copy

    return st.builds(
        change,
        st.sampled_from(paths),
        st.sampled_from(["replace", "replace", "drop", "add"]),
        NEAR_MISSES | ANY_JSON,
        st.sampled_from(["extra", "type", "id", "action"]),
    )


def walk(value: JsonValue, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from walk(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from walk(item, (*path, index))


def proposals(document: dict[str, Any]) -> Strategy:
    proposer = Proposer(document)
    return st.one_of(proposer.valid(document), proposer.invalid(document))


# --------------------------------------------------------------------------- the service


class World:
    """What the requests are about: a game, a race and a player of one service."""

    def __init__(self, client: CheckedClient) -> None:
        self.client = client
        created = client.post("/games", json={"game": "TF"}).json()
        self.game_id, self.game_token = created["game_id"], created["player_token"]
        race = client.post("/races", json={"name": "Ada"}).json()
        self.race_id, self.race_token = race["race_id"], race["player_token"]
        player = client.post("/players", json={"name": "Bo"}).json()
        self.player_token = player["player_token"]
        self.today = datetime.now(UTC).date().isoformat()

    def endpoint(self, schema: str) -> tuple[str, str, str | None]:
        """The method, path and token of the request whose body ``schema`` describes."""
        game = f"/games/{self.game_id}"
        return {
            "action-request": ("POST", f"{game}/actions", self.game_token),
            "undo-request": ("POST", f"{game}/undo", self.game_token),
            "resign-request": ("POST", f"{game}/resign", self.game_token),
            "create-game-request": ("POST", "/games", None),
            "create-player-request": ("POST", "/players", None),
            "create-race-request": ("POST", "/races", None),
            "join-race-request": ("POST", "/races/join", None),
            "ready-request": ("POST", f"/races/{self.race_id}/ready", self.race_token),
            "rename-request": ("PATCH", "/players/me", self.player_token),
            "seek-request": ("POST", "/pairing/seeks", self.player_token),
            "create-arena-request": ("POST", "/arenas", self.player_token),
            "link-request": ("POST", "/players/link", None),
            "daily-play-request": (
                "POST",
                f"/daily/{self.today}/TF.D1N/games",
                self.player_token,
            ),
        }[schema]

    def http_refuses(self, schema: str, body: JsonValue) -> bool:
        method, path, token = self.endpoint(schema)
        headers = {"content-type": "application/json", **(auth(token) if token else {})}
        answer = self.client.request(method, path, content=json.dumps(body), headers=headers)
        code = answer.json().get("code") if answer.status_code >= 400 else None
        assert answer.status_code < 500 or code in ("winnable_pool_empty", "store_unavailable"), (
            answer.status_code,
            answer.text,
        )
        return code in ("bad_message", "bad_json")


def ws_refuses(ws: CheckedWebSocket, message: JsonValue, probe: str) -> bool:
    """Sends ``message``, then a ping: whether an error frame refused it as malformed
    among the frames before the pong."""
    ws.send_text(json.dumps(message))
    ws.send_json({"type": "ping", "id": probe})
    refused = False
    while True:
        frame = ws.receive_json()
        if frame == {"type": "pong", "id": probe}:
            return refused
        if frame["type"] == "error" and frame["code"] in ("bad_message", "bad_json"):
            refused = True


# --------------------------------------------------------------------------- the tests

REQUEST_SCHEMAS = sorted(path.stem for path in (SCHEMAS / "rest").glob("*-request.json"))


def load(relative: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((SCHEMAS / relative).read_text(encoding="utf-8"))
    return document


def judge(document: dict[str, Any]) -> Callable[[JsonValue], bool]:
    return jsonschema_rs.validator_for(document).is_valid


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    # Every request of the module comes from one address: no limit of the service's may
    # answer for the schema. A winnable deal is looked for in an empty pool without waiting.
    original_wait = analysis._POOL_WAIT_SECONDS
    analysis._POOL_WAIT_SECONDS = 0.0
    try:
        with service_client(players_per_hour=100_000, code_failures_per_minute=100_000) as client:
            yield World(client)
    finally:
        analysis._POOL_WAIT_SECONDS = original_wait


def test_every_request_schema_is_checked() -> None:
    assert len(REQUEST_SCHEMAS) >= 11
    assert "create-game-request" in REQUEST_SCHEMAS and "action-request" in REQUEST_SCHEMAS


@pytest.mark.parametrize("name", REQUEST_SCHEMAS)
def test_the_service_accepts_a_body_exactly_when_its_schema_does(world: World, name: str) -> None:
    document = load(f"rest/{name}.json")
    valid = judge(document)
    verdicts: dict[bool, int] = {True: 0, False: 0}

    @settings(
        max_examples=EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(proposals(document))
    def agrees(body: JsonValue) -> None:
        expected = valid(body)
        verdicts[expected] += 1
        refused = world.http_refuses(name, body)
        assert refused != expected, (
            f"{name}: the schema {'accepts' if expected else 'refuses'} {body!r}, "
            f"the service {'refuses' if refused else 'accepts'} it"
        )

    agrees()
    # Both kinds were tried.
    assert verdicts[True] > 0 and verdicts[False] > 0, verdicts


def test_the_service_accepts_a_websocket_message_exactly_when_its_schema_does(
    world: World,
) -> None:
    document = load("client-message.json")
    valid = judge(document)
    verdicts: dict[bool, int] = {True: 0, False: 0}
    probes = iter(range(10**9))
    with world.client.checked_websocket() as ws:
        ws.send_json({"type": "hello", "protocol": 1})
        assert ws.receive_json()["type"] == "welcome"

        @settings(
            max_examples=EXAMPLES * 4,
            derandomize=True,
            database=None,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(proposals(document))
        def agrees(message: JsonValue) -> None:
            expected = valid(message)
            verdicts[expected] += 1
            refused = ws_refuses(ws, message, f"probe-{next(probes)}")
            assert refused != expected, (
                f"the schema {'accepts' if expected else 'refuses'} {message!r}, "
                f"the service {'refuses' if refused else 'accepts'} it"
            )

        agrees()
    assert verdicts[True] > 0 and verdicts[False] > 0, verdicts
