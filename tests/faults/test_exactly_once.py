"""Exactly once, whatever the store did: every write of a scenario loses its reply in
turn, after Redis applied it, and the service must answer and store exactly what it does
when no reply is lost.

The scenarios (``scenarios.py``): a daily attempt played to the end, a three-player race
with a rematch, a player linking a second device and revoking it, statistics over ten
games. Each runs fault-free once; then, for each of its writes in turn, it runs again
with that write's reply lost (``FaultPlan(at=...)``), once with the first reply of every
write lost (``FaultPlan(first_sends=True)``), and a few times with replies lost at
random. After each run its answers and the state it left in Redis (canonical, see
``harness.py``) must equal the fault-free run's; a request answered 503 is sent again,
and its final answer is the one compared.

The commits of a game's actions in the middle of a winning line (a hundred or more in a
row, each the same script) are not lost one by one: the first and last of each stretch
are, with every write next to another kind; the random runs lose any of them.
"""

from __future__ import annotations

import re
import traceback

import pytest

from tests.faults import scenarios
from tests.faults.harness import Run, Scenario, deals, differences, run
from tests.faults.proxy import FaultPlan, FaultProxy, Write
from tests.support import RedisServer

SCENARIOS: dict[str, Scenario] = {
    "daily attempt": scenarios.daily_attempt,
    "race with rematch": scenarios.race_with_rematch,
    "linked device": scenarios.linked_device,
    "ten games": scenarios.ten_games,
}
# The sweep of a long scenario is split, so that test processes share it.
SHARDS = {"daily attempt": 2, "race with rematch": 2, "linked device": 1, "ten games": 3}
RANDOM_SEEDS = (1, 2)
# Replies lost in a random run, on average.
RANDOM_LOSSES = 6
_COMMIT_KEY = re.compile(r"^sol:\{[^}]+\}:g$")
_references: dict[str, Run] = {}


_POOL: list[str] = []


def _pool() -> list[str]:
    """The same deals for every run of a test process; the first is the race's."""
    if not _POOL:
        _POOL.extend(deals(4, scenarios.winning()[0]))
    return _POOL


def _reference(proxy: FaultProxy, redis: RedisServer, name: str) -> Run:
    if name not in _references:
        _references[name] = run(proxy, redis.url, SCENARIOS[name], FaultPlan(), _pool())
    return _references[name]


def _commit(write: Write | None) -> str:
    """The game a write commits an action of ('' for any other write)."""
    if write is None or write.command != "EVALSHA" or not _COMMIT_KEY.match(write.key):
        return ""
    return write.key


def swept(writes: list[Write]) -> list[int]:
    """The writes lost one by one: all but the commits in the middle of a stretch of one
    game's commits."""
    chosen = []
    for position, write in enumerate(writes):
        game = _commit(write)
        before = _commit(writes[position - 1]) if position else ""
        after = _commit(writes[position + 1]) if position + 1 < len(writes) else ""
        if not game or before != game or after != game:
            chosen.append(write.index)
    return chosen


def _check(
    reference: Run, plan: FaultPlan, proxy: FaultProxy, redis: RedisServer, name: str
) -> str:
    """What went wrong in a run of ``name`` that lost the replies of ``plan`` ('' if
    nothing)."""
    lost = plan.lost
    try:
        faulty = run(proxy, redis.url, SCENARIOS[name], plan, _pool())
    except AssertionError as exc:
        where = traceback.extract_tb(exc.__traceback__)[-1]
        problems = [f"a wrong answer at {where.name}: {where.line}: {exc}"]
    else:
        problems = differences(reference, faulty)
    if not lost:
        problems.append("no reply was lost")
    if not problems:
        return ""
    told = lost if len(lost) <= 3 else f"{len(lost)} lost replies, from {lost[0]}"
    return f"{told}: " + "; ".join(problems)


@pytest.mark.parametrize(
    ("name", "shard"), [(name, shard) for name, count in SHARDS.items() for shard in range(count)]
)
def test_each_write_loses_its_reply_in_turn(
    proxy: FaultProxy, fault_redis: RedisServer, name: str, shard: int
) -> None:
    reference = _reference(proxy, fault_redis, name)
    assert reference.retried == 0
    indices = swept(reference.plan.writes)[shard :: SHARDS[name]]
    failures = [
        found
        for index in indices
        if (found := _check(reference, FaultPlan(at=frozenset({index})), proxy, fault_redis, name))
    ]
    assert not failures, f"{len(failures)} of {len(indices)} runs went wrong:\n" + "\n".join(
        failures
    )


@pytest.mark.parametrize("name", SCENARIOS)
def test_replies_lost_at_random_and_every_first_reply_lost(
    proxy: FaultProxy, fault_redis: RedisServer, name: str
) -> None:
    reference = _reference(proxy, fault_redis, name)
    failures = []
    if found := _check(reference, FaultPlan(first_sends=True), proxy, fault_redis, name):
        failures.append(f"every first reply lost: {found}")
    for seed in RANDOM_SEEDS:
        rate = min(0.3, RANDOM_LOSSES / len(reference.plan.writes))
        plan = FaultPlan(rate=rate, seed=seed)
        if found := _check(reference, plan, proxy, fault_redis, name):
            failures.append(f"seed {seed}: {found}")
    assert not failures, "\n".join(failures)
