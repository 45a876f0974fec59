"""Real processes for the scale tests, and asyncio clients that check what they are sent.

- ``Instance``: the service as ``python -m service`` in a process of its own, configured
  through the environment like a deployment, on a free port of 127.0.0.1, its output
  captured to a file;
- ``private_redis``: a private redis-server for one test module (it may stop and restart
  it at will);
- ``Peer``: one WebSocket connection whose reader task files every frame, schema-checks
  it and keeps, for each subscribed game, a ``GameView`` rebuilt from the snapshot and the
  patches of the changes, noting any gap, repeat or patch that does not apply.

Every wait here is bounded; every process started here is stopped by its owner in a
``finally``.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import os
import random
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
import jsonpatch
import orjson
import pytest
from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from service import engine
from service.config import Settings
from tests.support import RedisServer, check_server_message, free_port

ROOT = Path(__file__).resolve().parents[2]
READY_TIMEOUT = 45.0
REPLY_TIMEOUT = 10.0
HTTP_TIMEOUT = 10.0
# Settings that every test instance shares unless a test overrides them. Rate limits far
# above what one connection can send here, and time limits on slow clients far above any
# pause of a loaded machine: only the tests of those limits meet them.
BASE_ENV = {
    "RATE_PER_SECOND": "1000000",
    "RATE_BURST": "1000000",
    "HTTP_WRITE_RATE_PER_SECOND": "1000000",
    "HTTP_WRITE_BURST": "1000000",
    "CHANGES_RATE_PER_SECOND": "1000000",
    "CHANGES_BURST": "1000000",
    "LOG_LEVEL": "info",
    "HEADER_TIMEOUT_SECONDS": "120",
    "BODY_TIMEOUT_SECONDS": "120",
    "HELLO_TIMEOUT_SECONDS": "120",
    # No solving in the background: only the tests of winnable deals ask for it.
    "WINNABLE_POOL_SIZE": "0",
}
# Variables of the service's own configuration: never inherited from the caller.
SERVICE_VARIABLES = {name.upper() for name in Settings.model_fields}


# =========================================================================== processes


class Instance:
    """One service process (``python -m service``) on a free loopback port."""

    def __init__(self, name: str, store_url: str, workdir: Path, **settings: Any) -> None:
        self.name = name
        self.store_url = store_url
        self.port = free_port()
        self.log_path = workdir / f"instance-{name}-{self.port}.log"
        env = {k: v for k, v in os.environ.items() if k.upper() not in SERVICE_VARIABLES}
        env.update(BASE_ENV)
        env.update({key.upper(): str(value) for key, value in settings.items()})
        env.update(
            {
                "STORE_URL": store_url,
                "HOST": "127.0.0.1",
                "PORT": str(self.port),
                "PYTHONUNBUFFERED": "1",
                "NO_PROXY": "*",
            }
        )
        self.env = env
        self.process: subprocess.Popen[bytes] | None = None
        self._log: Any = None

    def __repr__(self) -> str:
        return f"<Instance {self.name} :{self.port}>"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def start(self) -> None:
        self._log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "service"],
            env=self.env,
            cwd=str(ROOT),
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def wait_ready(self, timeout: float = READY_TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        last = ""
        with httpx2.Client(trust_env=False, timeout=2.0) as http:
            while time.monotonic() < deadline:
                if not self.alive():
                    raise RuntimeError(f"{self} exited:\n{self.log()[-3000:]}")
                try:
                    response = http.get(f"{self.url}/readyz")
                    if response.status_code == 200:
                        return
                    last = f"{response.status_code} {response.text}"
                except httpx2.TransportError as exc:
                    last = repr(exc)
                time.sleep(0.05)
        raise RuntimeError(f"{self} not ready after {timeout} s ({last}):\n{self.log()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL: no graceful shutdown at all."""
        if self.alive():
            assert self.process is not None
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        """SIGTERM (uvicorn's graceful stop), then SIGKILL; bounded in time."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        if self._log is not None:
            self._log.close()
            self._log = None

    def memory_kib(self, field: str = "VmRSS") -> int:
        """A memory figure of the process from /proc (``VmRSS``, or ``VmHWM``: its peak)."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith(f"{field}:"):
                return int(line.split()[1])
        raise RuntimeError(f"no {field} for {self}")

    def reset_peak_memory(self) -> None:
        """Sets the process's peak (``VmHWM``) back to its present RSS (Linux 4.0+)."""
        Path(f"/proc/{self.pid}/clear_refs").write_text("5")

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def errors(self) -> list[str]:
        """Log lines that report an error or a traceback, or that are not the service's
        JSON lines at all (something wrote to the output past the logging)."""
        found = []
        for line in self.log().splitlines():
            try:
                entry = json.loads(line)
            except ValueError:
                found.append(line)
                continue
            if entry.get("level") in ("ERROR", "CRITICAL") or "exc_info" in entry:
                found.append(line)
        return found


@contextlib.contextmanager
def launched(*started: Instance) -> Iterator[list[Instance]]:
    """Starts the instances together, waits until each is ready; stops all on the way out."""
    try:
        for instance in started:
            instance.start()
        for instance in started:
            instance.wait_ready()
        yield list(started)
    finally:
        for instance in started:
            instance.stop()


@contextlib.contextmanager
def instances(
    store_url: str, workdir: Path, count: int, **settings: Any
) -> Iterator[list[Instance]]:
    """``count`` alike instances on one store, started together; all stopped at the end."""
    names = [chr(ord("a") + i) for i in range(count)]
    with launched(*(Instance(n, store_url, workdir, **settings) for n in names)) as started:
        yield started


@contextlib.contextmanager
def running(instance: Instance) -> Iterator[Instance]:
    try:
        instance.start()
        instance.wait_ready()
        yield instance
    finally:
        instance.stop()


def stop_redis(server: RedisServer) -> None:
    process = server.process
    try:
        server.stop()
    except subprocess.TimeoutExpired:
        if process is not None:
            process.kill()
            process.wait(10)
        server.process = None


@contextlib.contextmanager
def private_redis(workdir: Path, *extra: str) -> Iterator[RedisServer]:
    """A redis-server of the caller's own: flushable, stoppable, restartable."""
    server = RedisServer(workdir)
    try:
        server.start(*extra)
        yield server
    finally:
        stop_redis(server)


def wait_for(predicate: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.05)


# =========================================================================== HTTP


def http_client(timeout: float = HTTP_TIMEOUT) -> httpx2.AsyncClient:
    return httpx2.AsyncClient(
        trust_env=False, timeout=timeout, limits=httpx2.Limits(max_connections=64)
    )


def auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


@dataclass
class Game:
    """A game created over HTTP, with a private local copy to pick legal actions from."""

    game_id: str
    token: str
    code: str
    local: engine.Klondike
    created: dict[str, Any]


async def create_game(http: httpx2.AsyncClient, instance: Instance, game: str = "DS") -> Game:
    response = await http.post(f"{instance.url}/games", json={"game": game})
    assert response.status_code == 201, response.text
    body = response.json()
    local = engine.new_game(body["code"])
    assert local.public_view() == body["state"]
    return Game(body["game_id"], body["player_token"], body["code"], local, body)


async def get_game(
    http: httpx2.AsyncClient, instance: Instance, game_id: str
) -> tuple[int, dict[str, Any]]:
    response = await http.get(f"{instance.url}/games/{game_id}")
    assert response.status_code == 200, response.text
    body = response.json()
    return body["version"], body["state"]


async def get_record(http: httpx2.AsyncClient, instance: Instance, game: Game) -> dict[str, Any]:
    response = await http.get(
        f"{instance.url}/games/{game.game_id}/record", headers=auth(game.token)
    )
    assert response.status_code == 200, response.text
    record: dict[str, Any] = response.json()
    return record


async def post_action(
    http: httpx2.AsyncClient,
    instance: Instance,
    game: Game,
    action: str,
    expected_version: int | None = None,
    request_id: str | None = None,
) -> httpx2.Response:
    """An action (or ``"undo"``) over HTTP; the raw response."""
    body: dict[str, Any] = {}
    if action != "undo":
        body["action"] = action
    if expected_version is not None:
        body["expected_version"] = expected_version
    if request_id is not None:
        body["request_id"] = request_id
    path = "undo" if action == "undo" else "actions"
    return await http.post(
        f"{instance.url}/games/{game.game_id}/{path}", json=body, headers=auth(game.token)
    )


def pick_action(game: engine.Klondike, rng: random.Random, undo_share: float = 0.1) -> str | None:
    """A random legal action in notation, ``"undo"`` sometimes; None when nothing is left."""
    legal = [] if game.won else game.legal_actions()
    if game.undo_available and (not legal or rng.random() < undo_share):
        return "undo"
    if not legal:
        return None
    return str(rng.choice(legal))


def replay_record(record: dict[str, Any]) -> engine.Klondike:
    return engine.GameRecord.parse(record["record"]).replay()


async def metrics(http: httpx2.AsyncClient, instance: Instance) -> dict[str, float]:
    """Every sample of ``/metrics`` as ``name{label="value",...}`` -> value."""
    response = await http.get(f"{instance.url}/metrics")
    assert response.status_code == 200, response.text
    samples: dict[str, float] = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            labels = ",".join(f'{k}="{v}"' for k, v in sorted(sample.labels.items()))
            samples[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
    return samples


# =========================================================================== WebSocket


def rid() -> str:
    return secrets.token_hex(8)


@dataclass
class GameView:
    """A subscriber's idea of a game: the last snapshot with every change patched on."""

    version: int = -1
    state: dict[str, Any] | None = None
    versions: list[int] = field(default_factory=list)  # change versions, as applied
    notations: dict[int, str] = field(default_factory=dict)  # version -> action
    snapshots: int = 0
    problems: list[str] = field(default_factory=list)

    def snapshot(self, version: int, state: dict[str, Any]) -> None:
        self.version = version
        self.state = copy.deepcopy(state)
        self.snapshots += 1

    def change(self, frame: dict[str, Any]) -> None:
        version = frame["version"]
        if version != self.version + 1:
            kind = "repeat" if version <= self.version else "gap"
            self.problems.append(f"{kind}: change {version} after version {self.version}")
            return
        try:
            self.state = jsonpatch.apply_patch(self.state, frame["patch"])
        except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException) as exc:
            self.problems.append(f"patch of version {version} does not apply: {exc}")
            return
        self.version = version
        self.versions.append(version)
        self.notations[version] = frame["notation"]


class PeerClosed(AssertionError):
    pass


class Peer:
    """One WebSocket connection; a reader task files, checks and applies every frame."""

    def __init__(
        self,
        ws: ClientConnection,
        label: str,
        views: dict[str, GameView] | None = None,
        check: bool = True,
    ) -> None:
        self.ws = ws
        self.label = label
        self.frames: list[dict[str, Any]] = []
        self.views: dict[str, GameView] = views if views is not None else {}
        self.check = check
        self.schema_errors: list[str] = []
        self.closed = False
        self.close_code: int | None = None
        self._cond = asyncio.Condition()
        self._reader = asyncio.create_task(self._read(), name=f"peer-{label}")

    @classmethod
    async def open(
        cls,
        instance: Instance,
        label: str = "",
        *,
        views: dict[str, GameView] | None = None,
        hello: bool = True,
        check: bool = True,
        **options: Any,
    ) -> Peer:
        settings: dict[str, Any] = {
            "proxy": None,
            "compression": None,
            "open_timeout": REPLY_TIMEOUT,
            "close_timeout": 2,
            "ping_interval": None,
            "max_size": 4 << 20,
            **options,
        }
        ws = await connect(instance.ws_url, **settings)
        peer = cls(ws, label or instance.name, views, check)
        if hello:
            await peer.send({"type": "hello", "protocol": 1})
            welcome = await peer.until(lambda f: f["type"] in ("welcome", "error"))
            assert welcome["type"] == "welcome", welcome
        return peer

    def view(self, game_id: str) -> GameView:
        return self.views.setdefault(game_id, GameView())

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                frame = orjson.loads(raw)
                if self.check:
                    try:
                        check_server_message(frame)
                    except Exception as exc:
                        self.schema_errors.append(f"{frame}: {exc}")
                kind = frame.get("type")
                if kind == "snapshot":
                    self.view(frame["game_id"]).snapshot(frame["version"], frame["state"])
                elif kind == "change":
                    self.view(frame["game_id"]).change(frame)
                async with self._cond:
                    self.frames.append(frame)
                    self._cond.notify_all()
        except ConnectionClosed:
            pass
        finally:
            self.closed = True
            self.close_code = self.ws.close_code
            async with self._cond:
                self._cond.notify_all()

    async def send(self, message: Any) -> None:
        await self.ws.send(orjson.dumps(message).decode())

    async def send_raw(self, data: str | bytes) -> None:
        await self.ws.send(data)

    def mark(self) -> int:
        return len(self.frames)

    async def until(
        self,
        predicate: Callable[[dict[str, Any]], bool],
        since: int = 0,
        timeout: float = REPLY_TIMEOUT,
    ) -> dict[str, Any]:
        """The first frame from index ``since`` on that matches; fails on timeout or close."""
        found: list[dict[str, Any]] = []

        def ready() -> bool:
            for frame in self.frames[since:]:
                if predicate(frame):
                    found.append(frame)
                    return True
            return self.closed

        try:
            async with asyncio.timeout(timeout), self._cond:
                await self._cond.wait_for(ready)
        except TimeoutError:
            raise AssertionError(
                f"{self.label}: no matching frame within {timeout} s; last frames: "
                f"{self.frames[-5:]}"
            ) from None
        if not found:
            raise PeerClosed(f"{self.label}: connection closed ({self.close_code})")
        return found[0]

    async def request(self, message: dict[str, Any], timeout: float = REPLY_TIMEOUT) -> Any:
        """Sends a message with an ``id`` and returns the answer that carries that id."""
        since = self.mark()
        await self.send(message)
        request_id = message["id"]
        return await self.until(
            lambda f: f.get("id") == request_id and f["type"] != "change", since, timeout
        )

    async def subscribe(
        self, game_id: str, token: str | None = None, since: int | None = None
    ) -> dict[str, Any]:
        """Subscribes; the answer (``subscribed`` or ``error``), after the snapshot if any."""
        message: dict[str, Any] = {"type": "subscribe", "id": rid(), "game_id": game_id}
        if token is not None:
            message["token"] = token
        if since is not None:
            message["since"] = since
        mark = self.mark()
        answer: dict[str, Any] = await self.request(message)
        if answer["type"] == "subscribed" and not answer["recovered"]:
            await self.until(
                lambda f: f["type"] == "snapshot" and f["game_id"] == game_id, since=mark
            )
        return answer

    async def act(
        self,
        game_id: str,
        action: str,
        expected_version: int | None = None,
        request_id: str | None = None,
        timeout: float = REPLY_TIMEOUT,
    ) -> dict[str, Any]:
        """An action (or ``"undo"``): its ``result`` or ``error``."""
        message: dict[str, Any] = {"type": action if action == "undo" else "action"}
        message.update({"id": request_id or rid(), "game_id": game_id})
        if action != "undo":
            message["action"] = action
        if expected_version is not None:
            message["expected_version"] = expected_version
        answer: dict[str, Any] = await self.request(message, timeout)
        return answer

    async def ping(self, timeout: float = REPLY_TIMEOUT) -> None:
        answer = await self.request({"type": "ping", "id": rid()}, timeout)
        assert answer["type"] == "pong", answer

    async def wait(self, condition: Callable[[], bool], timeout: float, what: str) -> None:
        """Waits until ``condition()`` holds (checked on every frame); fails on timeout."""
        try:
            async with asyncio.timeout(timeout), self._cond:
                await self._cond.wait_for(lambda: condition() or self.closed)
        except TimeoutError:
            raise AssertionError(f"{self.label}: no {what} within {timeout} s") from None
        if not condition():
            raise PeerClosed(f"{self.label}: connection closed ({self.close_code}) before {what}")

    async def wait_version(
        self, game_id: str, version: int, timeout: float = REPLY_TIMEOUT
    ) -> GameView:
        """Waits until the view of the game reaches ``version``; fails on any problem."""
        view = self.view(game_id)
        await self.wait(
            lambda: view.version >= version or bool(view.problems),
            timeout,
            f"version {version} of {game_id} (at {view.version})",
        )
        assert not view.problems, f"{self.label}: {view.problems}"
        return view

    def abort(self) -> None:
        """Drops the TCP connection at once: no close frame, as a lost network would."""
        self.ws.transport.abort()

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ws.close(), 3)
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._reader

    async def __aenter__(self) -> Peer:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


@contextlib.asynccontextmanager
async def peers(*opening: Any) -> Any:
    """Opens several peers (awaitables of ``Peer``) and closes them all on the way out."""
    opened: list[Peer] = []
    try:
        for awaitable in opening:
            opened.append(await awaitable)
        yield opened
    finally:
        for peer in opened:
            await peer.close()
