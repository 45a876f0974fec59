"""What ``ws_load.py`` measures besides round trips (the CPU of each process and of
Redis, read at the window's edges) and the figures it reports, with their targets."""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from benchmarks._client import TAIL_BURST_SECONDS, Tally, bursts
from benchmarks._processes import Listening, cpu_seconds
from benchmarks._report import Figure

# What the measured windows are placed by: ``time.perf_counter`` unless a test's own.
Clock = Callable[[], float]

# Targets (docs/benchmarks.md).
TARGET_RATIO = 0.4
TARGET_BYTES_PER_GAME = 8 * 1024
TARGET_RATIO_VS_ECHO_STORE = 0.6
TARGET_P99_VS_ECHO_STORE = 1.5


@dataclass
class Usage:
    """Resources used inside the measured window (seconds, Redis microseconds)."""

    client: float = 0.0
    server: float | None = None
    redis: float | None = None
    commit_calls: int = 0
    commit_usec: int = 0

    def add(self, other: Usage) -> None:
        """Adds what ``other`` (a later slice of the same phase) used."""
        self.client += other.client
        if other.server is not None:
            self.server = (self.server or 0.0) + other.server
        if other.redis is not None:
            self.redis = (self.redis or 0.0) + other.redis
        self.commit_calls += other.commit_calls
        self.commit_usec += other.commit_usec


@dataclass(frozen=True)
class _Reading:
    client: float
    server: float | None
    redis: float | None
    commit_calls: int
    commit_usec: int


async def _read_usage(server: Listening, redis: Any | None) -> _Reading:
    cpu: float | None = None
    calls = usec = 0
    if redis is not None:
        info = await redis.info("cpu")
        cpu = float(info["used_cpu_user"]) + float(info["used_cpu_sys"])
        stats = await redis.info("commandstats")
        for name in ("cmdstat_evalsha", "cmdstat_eval"):
            calls += int(stats.get(name, {}).get("calls", 0))
            usec += int(stats.get(name, {}).get("usec", 0))
    return _Reading(time.process_time(), cpu_seconds(server.pid), cpu, calls, usec)


async def watch_usage(
    tally: Tally,
    usage: Usage,
    server: Listening,
    redis: Any | None,
    clock: Clock = time.perf_counter,
) -> None:
    """Reads CPU counters at the start and at the end of the measured window, which
    ``clock`` placed."""
    await asyncio.sleep(max(0.0, tally.window_start - clock()))
    before = await _read_usage(server, redis)
    await asyncio.sleep(max(0.0, tally.window_end - clock()))
    after = await _read_usage(server, redis)
    usage.client = after.client - before.client
    if before.server is not None and after.server is not None:
        usage.server = after.server - before.server
    if before.redis is not None and after.redis is not None:
        usage.redis = after.redis - before.redis
    # Redis may be shared: other clients' scripts in the window count too.
    usage.commit_calls = after.commit_calls - before.commit_calls
    usage.commit_usec = after.commit_usec - before.commit_usec


def divide(a: float, b: float) -> float:
    return a / b if b else float("nan")


def per(cpu: float | None, count: int) -> float:
    """Microseconds of CPU per message."""
    return cpu / count * 1e6 if cpu is not None and count else float("nan")


def figure(
    metric: str, value: float, unit: str, label: str, target: str = "", ok: bool | None = None
) -> Figure | None:
    """A rounded figure, its verdict in the label; None when it could not be measured."""
    if value != value:  # nan
        return None
    if ok is not None:
        label = f"{label}: {'pass' if ok else 'FAIL'}"
    rounded: int | float = int(value) if float(value).is_integer() else round(value, 3)
    return Figure(metric, rounded, unit, label, target)


def at_least(metric: str, value: float, unit: str, label: str, floor: float) -> Figure | None:
    return figure(metric, value, unit, label, f">= {floor}", value >= floor)


def at_most(metric: str, value: float, unit: str, label: str, ceiling: float) -> Figure | None:
    return figure(metric, value, unit, label, f"<= {ceiling}", value <= ceiling)


def spread(prefix: str, tally: Tally, label: str) -> list[Figure | None]:
    """How widely the round trips spread around the median (p10, p90, p99.9), and in how
    many short stretches the slowest 1 % ended: a p99 made of a wide spread and one made
    of rare stalls call for different remedies."""
    tail = tally.tail_ends(99)
    return [
        *(
            figure(f"{prefix}.{name}_ms", tally.percentile_ms(q), "ms", f"{label}: {name}")
            for name, q in (("p10", 10), ("p90", 90), ("p999", 99.9))
        ),
        figure(
            f"{prefix}.p99_bursts",
            bursts(tail),
            "count",
            f"{label}: {TAIL_BURST_SECONDS * 1000:g} ms stretches in which its {len(tail):,} "
            "round trips >= p99 ended",
        ),
    ]


def build_figures(
    args: argparse.Namespace,
    echo: tuple[Tally, Usage],
    echo_store: tuple[Tally, Usage],
    service: tuple[Tally, Usage, dict[str, Any]],
    memory: dict[str, Any],
) -> list[Figure]:
    echo_tally, echo_usage = echo
    store_tally, store_usage = echo_store
    store_cpu = per(store_usage.server, store_tally.done)
    svc, svc_usage, _ = service
    ratio = divide(svc.rate, echo_tally.rate)
    svc_cpu = per(svc_usage.server, svc.done)
    echo_cpu = per(echo_usage.server, echo_tally.done)
    size = memory["bytes"]
    commit_us = divide(svc_usage.commit_usec, svc_usage.commit_calls)
    window = args.duration
    errors = sum(v for k, v in svc.counts.items() if k.startswith(("error_", "unexpected_")))
    figures = [
        figure("ws.service.actions_per_s", svc.rate, "1/s", "service: accepted actions per s"),
        figure("ws.echo.msgs_per_s", echo_tally.rate, "1/s", "echo: messages per s"),
        at_least("ws.ratio_vs_echo", ratio, "ratio", "service / echo throughput", TARGET_RATIO),
        figure("ws.service.p50_ms", svc.percentile_ms(50), "ms", "service: p50 round trip"),
        figure("ws.service.p99_ms", svc.percentile_ms(99), "ms", "service: p99 round trip"),
        *spread("ws.service", svc, "service"),
        figure("ws.echo.p50_ms", echo_tally.percentile_ms(50), "ms", "echo: p50 round trip"),
        figure("ws.echo.p99_ms", echo_tally.percentile_ms(99), "ms", "echo: p99 round trip"),
        at_most(
            "redis.DS.bytes_per_game",
            size,
            "B",
            f"Redis bytes of one DS game after {memory['actions']} actions",
            TARGET_BYTES_PER_GAME,
        ),
    ]
    figures += [
        figure(f"redis.DS.bytes_per_game.{key}", value, "B", f"of which key :{key}")
        for key, value in sorted(memory["per_key"].items())
    ]
    store_ratio = divide(svc.rate, store_tally.rate)
    p99_ratio = divide(svc.percentile_ms(99), store_tally.percentile_ms(99))
    figures += [
        figure(
            "ws.echo_store.msgs_per_s",
            store_tally.rate,
            "1/s",
            "echo + one store round trip: messages per s",
        ),
        figure(
            "ws.echo_store.ratio_vs_echo",
            divide(store_tally.rate, echo_tally.rate),
            "ratio",
            "echo + store / echo throughput",
        ),
        at_least(
            "ws.ratio_vs_echo_store",
            store_ratio,
            "ratio",
            "service / (echo + store) throughput",
            TARGET_RATIO_VS_ECHO_STORE,
        ),
        figure("ws.echo_store.p50_ms", store_tally.percentile_ms(50), "ms", "echo + store: p50"),
        figure("ws.echo_store.p99_ms", store_tally.percentile_ms(99), "ms", "echo + store: p99"),
        *spread("ws.echo_store", store_tally, "echo + store"),
        at_most(
            "ws.service.p99_vs_echo_store",
            p99_ratio,
            "ratio",
            "service p99 / (echo + store) p99",
            TARGET_P99_VS_ECHO_STORE,
        ),
        figure(
            "ws.echo_store.server_cpu_us",
            store_cpu,
            "us",
            "echo + store process CPU per message",
        ),
        figure(
            "ws.echo_store.redis_cpu_us",
            per(store_usage.redis, store_tally.done),
            "us",
            "Redis CPU per echo + store message",
        ),
        figure(
            "ws.ratio_vs_echo_cpu",
            divide(echo_cpu, svc_cpu),
            "ratio",
            "echo / service server CPU per message",
        ),
        figure("ws.service.server_cpu_us", svc_cpu, "us", "service process CPU per action"),
        figure("ws.echo.server_cpu_us", echo_cpu, "us", "echo process CPU per message"),
        figure(
            "ws.service.redis_cpu_us",
            per(svc_usage.redis, svc.done),
            "us",
            "Redis CPU per action (all its clients)",
        ),
        figure("redis.commit_script_us", commit_us, "us", "Redis time per commit script"),
        figure(
            "ws.service.driver_cpu_us",
            per(svc_usage.client, svc.done),
            "us",
            "driver CPU per action",
        ),
        figure(
            "ws.echo.driver_cpu_us",
            per(echo_usage.client, echo_tally.done),
            "us",
            "driver CPU per echo",
        ),
        figure(
            "ws.service.server_cores",
            (svc_usage.server or 0) / window,
            "cores",
            "service process busy",
        ),
        figure(
            "ws.service.driver_cores",
            svc_usage.client / window,
            "cores",
            "driver busy, service phase",
        ),
        figure(
            "ws.echo.server_cores", (echo_usage.server or 0) / window, "cores", "echo process busy"
        ),
        figure(
            "ws.echo.driver_cores", echo_usage.client / window, "cores", "driver busy, echo phase"
        ),
        figure(
            "ws.service.change_frames",
            svc.counts["change_frames"],
            "count",
            "change frames received",
        ),
        figure("ws.service.undos", svc.counts["undos"], "count", "undos accepted"),
        figure(
            "ws.service.rejected",
            svc.counts["rejected"],
            "count",
            "legal actions rejected (must be 0)",
        ),
        figure(
            "ws.service.state_mismatches",
            svc.counts["state_mismatches"],
            "count",
            "local copy != service state (must be 0)",
        ),
        figure(
            "ws.service.script_mismatches",
            svc.counts["script_mismatches"],
            "count",
            "answers whose notation is not the script's (must be 0)",
        ),
        figure(
            "ws.service.scripts_run_out",
            svc.counts["scripts_run_out"],
            "count",
            "games that played on live after their script",
        ),
        figure(
            "ws.service.change_frames_missing",
            svc.counts["change_frames_missing"],
            "count",
            "accepted actions without a change (frame or in the result)",
        ),
        figure(
            "ws.service.changes_out_of_order",
            svc.counts["changes_out_of_order"],
            "count",
            "changes not in version order, repeated or skipped (must be 0)",
        ),
        figure("ws.service.errors", errors, "count", "error frames"),
    ]
    return [f for f in figures if f is not None]
