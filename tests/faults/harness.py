"""Running a scenario of requests through the fault proxy, and what it leaves in Redis.

A scenario drives a service in this process (``create_app`` in a ``CheckedClient``, its
clock a ``FakeClock``) whose store is Redis behind the proxy. Each run starts from an
empty Redis with the same pools of winnable deals, and ends with its answers and a dump
of Redis, both canonical, so that a run that lost replies can be compared with the run
that lost none:

- The random values the service hands out (ids, tokens, join and link codes) are named
  by their order of first appearance in the answers (``<player_id 1>``...), and a
  token's SHA-256 (which the store keeps) after its token. The clock is fake, so times
  in answers and documents are the same from run to run.
- Left out of the dump, as they say how a write was made rather than what was written:
  the markers that let a write sent again be answered as the first send was
  (``{<key>}:once:<nonce>`` keys, a document's ``n`` field of recent write nonces), and
  the request ids in a game's ``rid`` hash, which the service draws for requests sent
  without one (kept: the versions and actions it remembers).
- A quota counter's window (a number of the real clock's) reads ``<window>``, and the
  counts of two windows that a run straddled are added up.
- A key's lifetime is "for good" (-1) or its TTL in seconds; two TTLs agree within
  ``TTL_SLACK`` seconds, as the runs set them at different moments.

Every answer of a run must equal the fault-free run's; one answered 503 is sent again
(the same request) and its final answer counts.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import redis

from service import engine
from service.app import create_app
from service.config import Settings
from service.errors import ServiceError
from service.store import StoreUnavailable
from tests.faults.proxy import FaultPlan, FaultProxy
from tests.players.conftest import FakeClock
from tests.support import CheckedClient, auth

ID_FIELDS = frozenset(
    (
        "player_id",
        "player_token",
        "game_id",
        "race_id",
        "join_code",
        "link_code",
        "host",
        "rematch_race_id",
        "previous_race_id",
        "arena_id",
    )
)
TTL_SLACK = 120
# A request answered 503 is sent again up to this many times.
RETRIES = 5
SETTINGS: dict[str, Any] = {
    "rate_per_second": 1000,
    "rate_burst": 1000,
    "winnable_pool_size": 0,
    "http_write_rate_per_second": 1000,
    "http_write_burst": 1000,
    "board_min_account_hours": 0,
    "board_min_games": 0,
    # The race timers sleep on the real clock: a countdown this long never ends within a
    # run (the scenario moves the fake clock past it), so no timer writes in the middle.
    "race_countdown_seconds": 600.0,
    # Likewise the waves of quick pairing and of the arenas: they run when the scenario
    # says (``Driver.wave``).
    "pairing_wave_seconds": 3600.0,
    "arena_wave_seconds": 3600.0,
}


class Labels:
    """Names for the random values of a run, in the order they first appeared."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}
        self._counts: dict[str, int] = {}
        self._pattern: re.Pattern[str] | None = None

    def _name(self, value: str, kind: str) -> str:
        if value not in self.names:
            self._counts[kind] = self._counts.get(kind, 0) + 1
            self.names[value] = f"<{kind} {self._counts[kind]}>"
            self._pattern = None
        return self.names[value]

    def register(self, answer: Any) -> None:
        if isinstance(answer, dict):
            for name, value in answer.items():
                if name in ID_FIELDS and isinstance(value, str) and value:
                    label = self._name(value, name)
                    if name == "player_token":
                        self.names.setdefault(
                            hashlib.sha256(value.encode()).hexdigest(), f"<hash of {label[1:-1]}>"
                        )
                self.register(value)
        elif isinstance(answer, list):
            for item in answer:
                self.register(item)

    def named(self, value: Any) -> Any:
        """``value`` (JSON) with every random value named, in its strings and keys alike."""
        if isinstance(value, dict):
            return {self.apply(k): self.named(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.named(item) for item in value]
        return self.apply(value) if isinstance(value, str) else value

    def apply(self, text: str) -> str:
        if not self.names:
            return text
        if self._pattern is None:
            values = sorted(self.names, key=len, reverse=True)
            self._pattern = re.compile("|".join(map(re.escape, values)))
        return self._pattern.sub(lambda match: self.names[match.group(0)], text)


@dataclass
class Driver:
    """Sends a scenario's requests and keeps their answers."""

    client: CheckedClient
    clock: FakeClock
    labels: Labels
    answers: list[Any] = field(default_factory=list)
    retried: int = 0

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        status: int = 200,
    ) -> Any:
        headers = auth(token) if token else {}
        for _ in range(RETRIES):
            response = self.client.request(method, path, json=body, headers=headers)
            if response.status_code != 503:
                break
            self.retried += 1
        assert response.status_code == status, (method, path, response.status_code, response.text)
        answer = response.json() if response.content else None
        self.labels.register(answer)
        self.answers.append([method, path, status, answer])
        return answer

    def wave(self) -> int:
        """Runs a wave of every arena, as an instance's timer would; one that found the
        store unavailable runs again, as the next wave would. Its count of heats made is
        kept with the answers."""
        assert self.client.portal is not None
        waves = self.client.app.state.arena_waves  # type: ignore[attr-defined]
        for _ in range(RETRIES):
            try:
                made: int = self.client.portal.call(waves.wave)
                break
            except (ServiceError, StoreUnavailable):
                self.retried += 1
        else:
            raise AssertionError("the wave found the store unavailable every time")
        self.answers.append(["wave", made])
        return made

    def play(self, game: dict[str, Any], line: list[str], seconds: float, ids: str = "") -> None:
        """Plays ``line`` at an even, human pace over ``seconds`` (request ids from
        ``ids``, if given)."""
        start = self.clock.now
        for index, action in enumerate(line, start=1):
            self.clock.now = start + round(seconds * 1000 * index / len(line)) / 1000
            body = {"action": action, **({"request_id": f"{ids}{index}"} if ids else {})}
            self.call("POST", f"/games/{game['game_id']}/actions", body, game["player_token"])


@dataclass
class Run:
    answers: str
    state: dict[str, tuple[str, Any, int]]
    plan: FaultPlan
    retried: int


Scenario = Callable[[Driver], None]


def deals(count: int, first: str) -> list[str]:
    """A pool of winnable deals: ``first``, then secret ones (the same for every run)."""
    mode = engine.Mode.parse("TF.D1N")
    return [first, *(str(mode.random_secret()) for _ in range(count - 1))]


def run(
    proxy: FaultProxy, direct_url: str, scenario: Scenario, plan: FaultPlan, pool: list[str]
) -> Run:
    """One run of ``scenario`` from an empty Redis, losing the replies ``plan`` says."""
    db: Any = redis.Redis.from_url(direct_url, decode_responses=True)
    db.flushall()
    # Loaded again through the proxy, which learns from their bodies which of them write.
    db.script_flush()
    db.rpush("sol:rec:queue:winnable:TF.D1N", *pool)
    proxy.plan = plan
    labels = Labels()
    clock = FakeClock()
    settings = Settings(store_url=proxy.url, **SETTINGS)
    with CheckedClient(create_app(settings, clock=clock)) as client:
        driver = Driver(client, clock, labels)
        scenario(driver)
    proxy.plan = FaultPlan()
    state = canonical_state(db, labels)
    db.close()
    # Named before the keys are sorted: sorted by the random values, they would not agree.
    answers = json.dumps(labels.named(driver.answers), indent=1, sort_keys=True)
    return Run(answers, state, plan, driver.retried)


_MARKER = re.compile(r"\}:once:")
_QUOTA_WINDOW = re.compile(r"^(sol:tally:quota:.*):\d+$")


def canonical_state(db: Any, labels: Labels) -> dict[str, tuple[str, Any, int]]:
    """Every key of ``db`` (a client that decodes replies), canonical."""
    state: dict[str, tuple[str, Any, int]] = {}
    for key in db.scan_iter(count=1000):
        if _MARKER.search(key):
            continue
        kind = db.type(key)
        value: Any
        if kind == "string":
            value = db.get(key)
        elif kind == "hash":
            value = _hash(key, db.hgetall(key))
        elif kind == "list":
            value = db.lrange(key, 0, -1)
        elif kind == "zset":
            value = [[member, score] for member, score in db.zrange(key, 0, -1, withscores=True)]
        else:
            value = sorted(db.smembers(key))
        ttl = db.ttl(key)
        name = _QUOTA_WINDOW.sub(r"\1:<window>", labels.apply(key))
        if name in state and _QUOTA_WINDOW.match(key):
            # A run that straddled the end of a quota's window counted in both.
            value = str(int(state[name][1]) + int(value))
        state[name] = (kind, labels.named(value), int(ttl))
    return state


def _hash(key: str, fields: dict[str, str]) -> Any:
    if key.endswith(":rid"):
        # Request id -> "version<TAB>action[<TAB>nonce]": the versions and actions remembered.
        return sorted(v.split("\t")[:2] for f, v in fields.items() if f.startswith("="))
    if key.startswith("sol:rec:doc:") or key.endswith(":doc"):
        fields.pop("n", None)
    return fields


def differences(expected: Run, actual: Run) -> list[str]:
    """What differs between two runs' answers and state, in words (empty: nothing)."""
    found: list[str] = []
    if expected.answers != actual.answers:
        found.append(_first_difference("answers", expected.answers, actual.answers))
    for key in sorted(expected.state.keys() | actual.state.keys()):
        want, got = expected.state.get(key), actual.state.get(key)
        if want is None or got is None:
            found.append(f"{key}: {'missing' if got is None else 'not expected'} {want or got}")
        elif want[:2] != got[:2]:
            found.append(f"{key}: expected {want[:2]}, found {got[:2]}")
        elif (want[2] < 0) != (got[2] < 0) or abs(want[2] - got[2]) > TTL_SLACK:
            found.append(f"{key}: lifetime {got[2]} s, expected {want[2]} s")
    return found


def _first_difference(what: str, expected: str, actual: str) -> str:
    lines = zip(expected.splitlines(), actual.splitlines(), strict=False)
    for number, (want, got) in enumerate(lines, start=1):
        if want != got:
            return f"{what}, line {number}: expected {want.strip()!r}, found {got.strip()!r}"
    return f"{what}: one is longer"
