"""Test helpers: a private Redis server, and clients that schema-check all the server sends."""

from __future__ import annotations

import asyncio
import functools
import json
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
import redis
from starlette.testclient import TestClient

# One picker of ports for every child process (the tests import it from here too).
from benchmarks._processes import free_port as free_port
from service.app import create_app
from service.config import Settings

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "schemas"


# --------------------------------------------------------------------------- Redis


class RedisServer:
    """A private redis-server process, so tests can flush, stop and restart it freely."""

    def __init__(self, workdir: Path, port: int | None = None) -> None:
        self.workdir = workdir
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, *extra: str) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.fail("redis-server is needed (scripts/ensure-redis-server installs it)")
        self.process = subprocess.Popen(
            [
                binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--dir",
                str(self.workdir),
                *extra,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis(port=self.port)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        client.close()

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None


# --------------------------------------------------------------------------- schemas


def _load_documents() -> dict[str, Any]:
    documents = {}
    for path in SCHEMAS.rglob("*.json"):
        if "examples" in path.parts or path.name == "openapi.json":
            continue
        documents[str(path.relative_to(SCHEMAS))] = json.loads(path.read_text())
    return documents


_DOCUMENTS = _load_documents()


@functools.cache
def validator(name: str) -> jsonschema_rs.Validator:
    """A compiled validator of a committed schema (they refer only to their own ``$defs``).

    Every frame and body the tests receive goes through one: the Rust implementation checks
    the same Draft 2020-12 rules some 100 times faster than the pure-Python ``jsonschema``,
    which tests/test_schemas.py still uses to check the schemas themselves.
    """
    return jsonschema_rs.validator_for(_DOCUMENTS[name])


SERVER_MESSAGE = validator("server-message.json")

# (method, path pattern, status class) -> schema of the JSON body
_REST_SCHEMAS: list[tuple[str, re.Pattern[str], str]] = [
    ("POST", re.compile(r"^/games$"), "rest/created-game.json"),
    ("GET", re.compile(r"^/games/[^/]+$"), "rest/game-state-response.json"),
    ("GET", re.compile(r"^/games/[^/]+/changes$"), "rest/changes-response.json"),
    ("POST", re.compile(r"^/games/[^/]+/(actions|undo)$"), "rest/action-accepted.json"),
    ("GET", re.compile(r"^/games/[^/]+/legal-actions$"), "rest/legal-actions-response.json"),
    ("GET", re.compile(r"^/games/[^/]+/record$"), "rest/game-record-response.json"),
    ("GET", re.compile(r"^/(healthz|readyz)$"), "rest/health.json"),
    ("POST", re.compile(r"^/races(/join)?$"), "rest/race-joined.json"),
    ("GET", re.compile(r"^/races/[^/]+$"), "rest/race-response.json"),
    ("POST", re.compile(r"^/races/[^/]+/(ready|start|resign|rematch)$"), "rest/race-response.json"),
    ("GET", re.compile(r"^/leaderboards/[^/]+$"), "rest/board.json"),
    ("GET", re.compile(r"^/daily/[^/]+/[^/]+$"), "rest/daily-board.json"),
]


def check_rest(method: str, path: str, body: Any, content_type: str) -> None:
    """Validates one HTTP response body against the committed schema for its route."""
    if content_type.startswith("application/problem+json"):
        name = "rest/problem.json"
    else:
        name = next((n for m, p, n in _REST_SCHEMAS if m == method and p.match(path)), "")
    if not name:
        return
    validator(name).validate(body)


def _openapi_operations() -> list[tuple[str, re.Pattern[str], str, dict[str, Any]]]:
    """(method, path regex, path template, responses) of every operation in openapi.json,
    fixed paths before templated ones, as the router matches them."""
    document = json.loads((SCHEMAS / "openapi.json").read_text(encoding="utf-8"))
    operations = []
    for template, item in document["paths"].items():
        pattern = re.compile("^" + re.sub(r"\\{[^/]+\\}", "[^/]+", re.escape(template)) + "$")
        for method, operation in item.items():
            operations.append((method.upper(), pattern, template, operation["responses"]))
    operations.sort(key=lambda op: "{" in op[2])
    return operations


_OPERATIONS = _openapi_operations()


def documented_error_codes(response: dict[str, Any]) -> list[str]:
    """The error codes a problem response of openapi.json says it can carry."""
    schema = response["content"]["application/problem+json"]["schema"]
    narrowing = next(part for part in schema["allOf"] if "properties" in part)
    codes: list[str] = narrowing["properties"]["code"]["enum"]
    return codes


def check_documented(method: str, path: str, status: int, body: Any) -> None:
    """The answer's status (and error code) is one openapi.json lists for the operation.

    A third-party client is generated from openapi.json; an answer it does not list is
    one the client cannot handle, so every response a test provokes is checked here.
    """
    for op_method, pattern, template, responses in _OPERATIONS:
        if op_method != method or not pattern.match(path):
            continue
        assert str(status) in responses, (
            f"{method} {template} answered {status}, which openapi.json does not list "
            f"(it lists {sorted(responses)})"
        )
        if status >= 400 and isinstance(body, dict) and "code" in body:
            assert body["code"] in documented_error_codes(responses[str(status)]), (
                f"{method} {template} answered {status} {body['code']}, which openapi.json "
                "does not list for that status"
            )
        return


def check_server_message(message: Any) -> None:
    SERVER_MESSAGE.validate(message)


class CheckedWebSocket:
    """A TestClient WebSocket session whose every received frame is schema-checked."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.received: list[dict[str, Any]] = []

    def send_json(self, data: Any) -> None:
        self.session.send_json(data)

    def send_text(self, data: str) -> None:
        self.session.send_text(data)

    def send_bytes(self, data: bytes) -> None:
        self.session.send_bytes(data)

    def receive_json(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.session.receive_text())
        check_server_message(message)
        self.received.append(message)
        return message

    def receive_until(self, kind: str) -> dict[str, Any]:
        while True:
            message = self.receive_json()
            if message["type"] == kind:
                return message

    def close(self, code: int = 1000) -> None:
        self.session.close(code)


class CheckedClient(TestClient):
    """TestClient that validates every JSON response against the committed schemas."""

    def request(self, method: str, url: Any, *args: Any, **kwargs: Any) -> Any:
        response = super().request(method, url, *args, **kwargs)
        content_type = response.headers.get("content-type", "")
        path = response.request.url.path
        body = response.json() if "json" in content_type and response.content else None
        if body is not None:
            check_rest(method.upper(), path, body, content_type)
        check_documented(method.upper(), path, response.status_code, body)
        return response

    @contextmanager
    def checked_websocket(self, path: str = "/ws") -> Iterator[CheckedWebSocket]:
        with self.websocket_connect(path) as session:
            yield CheckedWebSocket(session)


@contextmanager
def service_client(
    store_url: str = "memory://", *, clock: Callable[[], float] = time.time, **overrides: Any
) -> Iterator[CheckedClient]:
    """A client of a new service; ``clock`` is its time (seconds since the epoch)."""
    # No solving in the background: only the tests of winnable deals ask for it.
    options: dict[str, Any] = {
        "rate_per_second": 1000,
        "rate_burst": 1000,
        "winnable_pool_size": 0,
        "http_write_rate_per_second": 1000,
        "http_write_burst": 1000,
        # Hints followed to the end of a game ask hundreds from one address in a minute.
        "hints_per_address_per_minute": 100_000,
        "hints_per_player_per_minute": 100_000,
        # Every player stands on public boards at once, unless a test says otherwise.
        "board_min_account_hours": 0,
        "board_min_games": 0,
        "changes_rate_per_second": 1000,
        "changes_burst": 1000,
        **overrides,
    }
    settings = Settings(store_url=store_url, **options)
    with CheckedClient(create_app(settings, clock=clock)) as client:
        yield client


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/games", json=body or {"game": "DS"})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def hello(ws: CheckedWebSocket) -> dict[str, Any]:
    ws.send_json({"type": "hello", "protocol": 1})
    welcome = ws.receive_json()
    assert welcome["type"] == "welcome"
    return welcome


def fill_winnable_pools(app: Any, per_mode: int = 3) -> None:
    """Puts secret deals in the pools of winnable deals of the daily modes, as if the
    solver had certified them (certifying is the solver's business, tested with it): the
    daily challenge takes its deals from there. Call it once the app has started."""
    from service.players.attempts import DAILY_MODES
    from service.store.records import MemoryRecords

    records = app.state.games.store.records
    codes = {mode: [str(mode.random_secret()) for _ in range(per_mode)] for mode in DAILY_MODES}
    if isinstance(records, MemoryRecords):

        async def push() -> None:
            for mode, listed in codes.items():
                for code in listed:
                    await records.queue_push(f"winnable:{mode}", code)

        # Memory records hold no loop of their own; a thread of its own keeps this clear
        # of any loop the caller runs (Playwright's, for one).
        filler = threading.Thread(target=asyncio.run, args=(push(),))
        filler.start()
        filler.join()
        return
    connection = redis.Redis.from_url(app.state.settings.store_url)
    for mode, listed in codes.items():
        connection.rpush(f"sol:rec:queue:winnable:{mode}", *listed)
    connection.close()
