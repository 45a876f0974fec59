"""Hostile input against a running instance: generated WebSocket frames, and the REST API
fuzzed from its own OpenAPI document by schemathesis.

WebSocket: each hypothesis example opens a connection, subscribes with the game token of
a game and sends a batch of frames: random JSON values, valid messages with a field
mutated (wrong types, huge numbers, unknown fields, odd pile names), random bytes as
binary frames, deeply nested arrays and objects, numbers beyond any integer type. Then a
ping. Whatever the batch, the server answers the ping (it stays responsive and the
connection open), every frame it sends is a valid server message, and the game moved by
exactly the actions it accepted: when it accepted none, version and state are unchanged.
Examples are derandomized so that CI sees the same ones every run.

REST: schemathesis generates requests for every operation of ``/openapi.json`` (examples,
coverage of edge values, fuzzing) within a bounded time; no answer may be a 5xx.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import orjson
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from service.protocol import ErrorCode
from tests.scale.harness import Instance, auth, launched, private_redis
from tests.support import check_server_message

SERVER_TYPES = {
    "welcome",
    "subscribed",
    "snapshot",
    "change",
    "result",
    "unsubscribed",
    "error",
    "pong",
    "race",
    "race_progress",
}
ERROR_CODES = {code.value for code in ErrorCode}
REPLY_TIMEOUT = 10.0
SCHEMATHESIS_SECONDS = 30


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Instance, Path]]:
    workdir = tmp_path_factory.mktemp("hostile")
    with private_redis(workdir, "--appendonly", "no") as redis:
        instance = Instance("target", redis.url, workdir)
        with launched(instance):
            yield instance, workdir


@pytest.fixture(scope="module")
def game(target: tuple[Instance, Path]) -> dict[str, Any]:
    instance, _ = target
    with httpx2.Client(trust_env=False, timeout=10) as http:
        response = http.post(f"{instance.url}/games", json={"game": "DS"})
        assert response.status_code == 201
        created: dict[str, Any] = response.json()
        return created


# --------------------------------------------------------------------------- strategies

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=24),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=16,
)
piles = st.from_regex(r"\A(w|s|f|[cCfF][0-9]{1,2}|[a-z][0-9]{0,3})\Z")
notations = st.from_regex(r"\A[a-zA-Z0-9:>]{1,12}\Z") | st.sampled_from(
    ["d", "r", "u", "w>f", "c1>f", "c9:3>c1", "c1:0>c2", "c1:99>c2", "tw", "ttc3", "c0>f1", "f9>c1"]
)
action_objects = st.fixed_dictionaries(
    {"type": st.sampled_from(["move", "draw", "recycle", "tap"])},
    optional={
        "from": piles,
        "to": piles,
        "count": st.integers(-3, 60) | st.just(2**64),
        "double": st.booleans(),
    },
)
huge_numbers = st.sampled_from(
    [10**30, -(10**30), 2**63, 2**64, -(2**63) - 1, 1e308, -1e308, 0.5, -1, 1e-300]
)
wrong_types = st.one_of(
    st.none(),
    st.booleans(),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    huge_numbers,
    st.text(max_size=80),
)
MESSAGE_TYPES = [
    "hello",
    "subscribe",
    "unsubscribe",
    "action",
    "undo",
    "ping",
    "watch_race",
    "unwatch_race",
    "race_command",
]


def templates(game_id: str, token: str) -> st.SearchStrategy[dict[str, Any]]:
    return st.sampled_from(
        [
            {"type": "hello", "protocol": 1},
            {"type": "subscribe", "id": "s", "game_id": game_id, "token": token},
            {"type": "subscribe", "id": "s", "game_id": game_id, "token": token, "since": 0},
            {"type": "unsubscribe", "id": "u", "game_id": game_id},
            {"type": "action", "id": "a", "game_id": game_id, "action": "d"},
            {"type": "action", "id": "a", "game_id": game_id, "action": {"type": "draw"}},
            {
                "type": "action",
                "id": "a",
                "game_id": game_id,
                "action": {"type": "move", "from": "w", "to": "f", "count": 1},
                "expected_version": 0,
            },
            {"type": "undo", "id": "z", "game_id": game_id},
            {"type": "ping", "id": "p"},
            {"type": "watch_race", "id": "w", "race_id": "nope"},
            {"type": "race_command", "id": "r", "race_id": "nope", "command": "start"},
        ]
    )


@st.composite
def mutated(draw: st.DrawFn, game_id: str, token: str) -> Any:
    message = dict(draw(templates(game_id, token)))
    if "id" in message:
        message["id"] = draw(st.sampled_from(["a", "b"]) | st.text(min_size=1, max_size=12))
    for _ in range(draw(st.integers(0, 2))):
        key = draw(
            st.sampled_from(
                [*message, "type", "id", "game_id", "action", "since", "extra", "expected_version"]
            )
        )
        how = draw(
            st.sampled_from(["drop", "wrong", "json", "huge", "type", *["action", "notation"] * 3])
        )
        if how == "drop":
            message.pop(key, None)
        elif how == "wrong":
            message[key] = draw(wrong_types)
        elif how == "json":
            message[key] = draw(json_values)
        elif how == "huge":
            message[key] = draw(huge_numbers)
        elif how == "action":
            message["action"] = draw(action_objects)
        elif how == "notation":
            message["action"] = draw(notations)
        else:
            message["type"] = draw(st.sampled_from(MESSAGE_TYPES) | st.text(max_size=10))
    return message


def nested(depth: int, kind: str) -> str:
    if kind == "array":
        return "[" * depth + "]" * depth
    return '{"a":' * depth + "1" + "}" * depth


@st.composite
def frames(draw: st.DrawFn, game_id: str, token: str) -> tuple[str, str | bytes]:
    """One frame: ("text", str) or ("binary", bytes)."""
    kind = draw(
        st.sampled_from(["json", "mutated", "mutated", "bytes", "nested", "number", "text"])
    )
    if kind == "json":
        return "text", _dumps(draw(json_values))
    if kind == "mutated":
        return "text", _dumps(draw(mutated(game_id, token)))
    if kind == "bytes":
        return "binary", draw(st.binary(max_size=256))
    if kind == "nested":
        depth = draw(st.integers(1, 5000))
        return "text", nested(depth, draw(st.sampled_from(["array", "object"])))
    if kind == "number":
        digits = draw(st.integers(1, 5000))
        number = draw(
            st.sampled_from(["9" * digits, "-" + "9" * digits, f"1e{digits}", "1.5e-400"])
        )
        field = draw(st.sampled_from(["expected_version", "since", "protocol", "count"]))
        return "text", (
            f'{{"type":"action","id":"n","game_id":"{game_id}","action":"d","{field}":{number}}}'
        )
    return "text", draw(st.text(max_size=200))


def _dumps(value: Any) -> str:
    """JSON text; unlike orjson, the standard module writes integers beyond 64 bits."""
    return json.dumps(value)


# --------------------------------------------------------------------------- the checks


def _receive_until_pong(ws: ClientConnection, ping_id: str) -> list[dict[str, Any]]:
    received = []
    while True:
        raw = ws.recv(timeout=REPLY_TIMEOUT)
        frame = orjson.loads(raw)
        check_server_message(frame)
        assert frame["type"] in SERVER_TYPES, frame
        if frame["type"] == "error":
            assert frame["code"] in ERROR_CODES, frame
        received.append(frame)
        if frame["type"] == "pong" and frame.get("id") == ping_id:
            return received


def _stored(http: httpx2.Client, instance: Instance, created: dict[str, Any]) -> tuple[int, Any]:
    response = http.get(f"{instance.url}/games/{created['game_id']}")
    assert response.status_code == 200, response.text
    body = response.json()
    return body["version"], body["state"]


def test_generated_frames_never_crash_the_server_or_change_the_game_unaccepted(
    target: tuple[Instance, Path], game: dict[str, Any]
) -> None:
    instance, _ = target
    game_id, token = game["game_id"], game["player_token"]
    counter = iter(range(1_000_000))
    seen: dict[str, int] = {}
    outcomes: dict[str, int] = {}
    # One HTTP client for every example: making one costs more than an example's requests.
    http = httpx2.Client(trust_env=False, timeout=10)

    @settings(
        max_examples=150,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(batch=st.lists(frames(game_id, token), min_size=1, max_size=8))
    # One batch of each refusal the last assertion names, whatever the generated ones hold.
    @example(
        batch=[
            ("text", "{"),
            ("text", '{"type": "action"}'),
            (
                "text",
                _dumps({"type": "action", "id": "x", "game_id": game_id, "action": "c1:20>c2"}),
            ),
        ]
    )
    def run(batch: list[tuple[str, str | bytes]]) -> None:
        n = next(counter)
        with connect(
            instance.ws_url,
            proxy=None,
            compression=None,
            open_timeout=REPLY_TIMEOUT,
            close_timeout=2,
            max_size=8 << 20,
        ) as ws:
            ws.send(orjson.dumps({"type": "hello", "protocol": 1}).decode())
            assert orjson.loads(ws.recv(timeout=REPLY_TIMEOUT))["type"] == "welcome"
            ws.send(
                orjson.dumps(
                    {"type": "subscribe", "id": "me", "game_id": game_id, "token": token}
                ).decode()
            )
            _receive_until_pong_after(ws, f"setup-{n}")
            before = _stored(http, instance, game)
            for kind, data in batch:
                seen[kind] = seen.get(kind, 0) + 1
                ws.send(data)
            ping_id = f"after-{n}"
            ws.send(orjson.dumps({"type": "ping", "id": ping_id}).decode())
            try:
                answers = _receive_until_pong(ws, ping_id)
            except ConnectionClosed as exc:
                pytest.fail(f"the server closed the connection ({exc}) after {batch!r}")
            after = _stored(http, instance, game)
        for frame in answers:
            key = frame.get("code") or frame.get("status") or frame["type"]
            outcomes[key] = outcomes.get(key, 0) + 1
        accepted = {
            f["version"]
            for f in answers
            if f["type"] == "result"
            and f["status"] == "accepted"
            and not f.get("duplicate")
            and f.get("game_id") == game_id
        }
        assert after[0] == before[0] + len(accepted), (before[0], after[0], answers)
        if not accepted:
            assert after[1] == before[1], "the state changed on rejected input"
        assert instance.alive()

    try:
        run()
    finally:
        http.close()
    assert not instance.errors()
    assert set(seen) == {"text", "binary"}
    # The batches reached the game: some actions were accepted, many kinds refused (which
    # refusals the rules give depends on the random deal, so only these are certain).
    assert outcomes.get("accepted", 0) >= 5, outcomes
    assert {"bad_json", "bad_message", "invalid_action"} <= set(outcomes), outcomes


def _receive_until_pong_after(ws: ClientConnection, ping_id: str) -> None:
    ws.send(orjson.dumps({"type": "ping", "id": ping_id}).decode())
    _receive_until_pong(ws, ping_id)


@pytest.mark.slow
def test_schemathesis_finds_no_server_error(target: tuple[Instance, Path]) -> None:
    instance, workdir = target
    executable = shutil.which("schemathesis", path=str(Path(sys.executable).parent))
    if executable is None:
        pytest.skip("schemathesis is not installed (pip install schemathesis)")
    # Real ids and the token of a game, so that some requests reach the game code paths.
    with httpx2.Client(trust_env=False, timeout=10) as http:
        created = http.post(f"{instance.url}/games", json={"game": "TF"}).json()
    env = {**os.environ, "NO_PROXY": "*"}
    report = workdir / "schemathesis.txt"
    command = [
        executable,
        "run",
        f"{instance.url}/openapi.json",
        "--checks",
        "not_a_server_error",
        "--phases",
        "examples,coverage,fuzzing",
        "--max-examples",
        "40",
        "--max-time",
        str(SCHEMATHESIS_SECONDS),
        "--seed",
        "20261129",
        "--workers",
        "1",
        "--request-timeout",
        "10",
        "--header",
        f"Authorization: Bearer {created['player_token']}",
        "--no-color",
    ]
    with report.open("w") as out:
        result = subprocess.run(
            command,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            timeout=SCHEMATHESIS_SECONDS + 60,
            check=False,
        )
    text = report.read_text(errors="replace")
    assert result.returncode == 0, text[-4000:]
    assert "passed" in text
    assert instance.alive()
    assert not instance.errors()
    # Whatever it sent, the instance still answers.
    with httpx2.Client(trust_env=False, timeout=10) as http:
        assert http.get(f"{instance.url}/readyz").status_code == 200
        response = http.get(
            f"{instance.url}/games/{created['game_id']}", headers=auth(created["player_token"])
        )
        assert response.status_code == 200
