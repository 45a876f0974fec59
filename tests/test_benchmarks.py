"""The benchmark scripts keep running: each one's smoke run prints its fixed metric lines.

Only that they run and report is checked here, never how fast: figures are for
docs/benchmarks.md, not for assertions.
"""

from __future__ import annotations

import ast
import asyncio
import gc
import json
import os
import pstats
import selectors
import subprocess
import sys
from dataclasses import dataclass
from graphlib import CycleError, TopologicalSorter
from pathlib import Path
from typing import TypedDict

import pytest

ROOT = Path(__file__).resolve().parent.parent


class FigureLine(TypedDict):
    """One JSON line of a benchmark's output (benchmarks/_report.py)."""

    metric: str
    value: int | float
    unit: str


def run_benchmark(script: str, *args: str) -> dict[str, FigureLine]:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), "--quick", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    figures: dict[str, FigureLine] = {}
    for line in done.stdout.splitlines():
        if line.startswith('{"metric"'):
            figure: FigureLine = json.loads(line)
            assert isinstance(figure["value"], int | float) and figure["unit"]
            figures[figure["metric"]] = figure
    assert figures, done.stdout[-2000:]
    return figures


def test_engine_benchmark_reports_its_metrics() -> None:
    figures = run_benchmark("engine.py")
    for game in ("DS", "TF"):
        assert f"engine.{game}.actions_per_s" in figures
        assert f"engine.{game}.legal_listings_per_s" in figures
        assert f"engine.{game}.view_change_serialize_us" in figures
    assert "engine.DS.record_bytes_200_undo" in figures


@pytest.mark.slow
def test_solver_benchmark_reports_its_metrics() -> None:
    figures = run_benchmark("solver.py", "--modes", "TF.D3N,DS.D1V", "--processes", "1")
    for mode in ("TF.D3N", "DS.D1V"):
        fractions = [
            figures[f"solver.{mode}.{outcome}_fraction"]["value"]
            for outcome in ("won", "unwinnable", "unknown")
        ]
        assert abs(sum(fractions) - 1) < 1e-6
        assert figures[f"solver.{mode}.positions_per_s"]["value"] > 0
    assert figures["solver.lines_not_won"]["value"] == 0
    assert "solver.hint_engine_p99_ms" in figures


def test_websocket_load_benchmark_reports_its_metrics(clean_redis: str) -> None:
    figures = run_benchmark("ws_load.py", "--redis-url", clean_redis)
    for metric in (
        "ws.service.actions_per_s",
        "ws.echo.msgs_per_s",
        "ws.ratio_vs_echo",
        "ws.service.p99_ms",
        "ws.echo.p99_ms",
        "redis.DS.bytes_per_game",
        "ws.echo_store.msgs_per_s",
        "ws.ratio_vs_echo_store",
        "ws.service.p99_vs_echo_store",
        "ws.service.p99_bursts",
        "ws.echo_store.p99_bursts",
    ):
        assert metric in figures, metric
    assert figures["ws.service.p99_bursts"]["value"] >= 1
    assert figures["ws.service.state_mismatches"]["value"] == 0
    assert figures["ws.service.changes_out_of_order"]["value"] == 0
    assert figures["ws.service.change_frames_missing"]["value"] == 0
    assert figures["ws.echo_store.msgs_per_s"]["value"] > 0


def test_action_path_benchmark_plays_every_scripted_action(clean_redis: str) -> None:
    for store, options in (("memory", ()), ("redis", ("--redis-url", clean_redis))):
        figures = run_benchmark("action_path.py", *options)
        played = figures[f"action_path.DS.{store}.actions"]["value"]
        assert played == 3 * 50  # three games, fifty actions each
        # One answer per action, and per game a welcome, a subscribed and a snapshot.
        assert figures[f"action_path.DS.{store}.frames"]["value"] == played + 3 * 3
        assert figures[f"action_path.DS.{store}.cpu_us"]["value"] > 0


@pytest.mark.slow
def test_websocket_load_benchmark_drives_from_several_processes(clean_redis: str) -> None:
    figures = run_benchmark("ws_load.py", "--redis-url", clean_redis, "--driver-processes", "2")
    for metric in ("ws.ratio_vs_echo_store", "ws.service.p99_vs_echo_store"):
        assert metric in figures, metric
    assert figures["ws.service.actions_per_s"]["value"] > 0
    assert figures["ws.echo_store.msgs_per_s"]["value"] > 0
    assert figures["ws.service.state_mismatches"]["value"] == 0
    assert figures["ws.service.changes_out_of_order"]["value"] == 0
    assert figures["ws.service.change_frames_missing"]["value"] == 0


def test_a_phase_split_over_driver_processes_pools_what_each_measured() -> None:
    from benchmarks._client import Tally
    from benchmarks._ws_drivers import Share, pool, split
    from benchmarks._ws_figures import Usage

    assert split(50, 2) == [25, 25]
    assert split(5, 2) == [3, 2]
    assert sum(split(7, 3)) == 7 and max(split(7, 3)) - min(split(7, 3)) <= 1
    first = Tally(10.0, 20.0, [0.001, 0.002], done=2, refused=1, ended=[11.0, 12.0])
    first.counts["actions"] = 2
    second = Tally(10.01, 20.01, [0.003], done=1, ended=[13.0])
    second.counts["actions"] = 1
    tally, usage = pool(
        [
            Share(first, Usage(client=0.5, server=9.0, redis=1.0, commit_calls=3, commit_usec=30)),
            Share(second, Usage(client=0.25, server=9.1, redis=1.1, commit_calls=3)),
        ]
    )
    assert sorted(tally.latencies) == [0.001, 0.002, 0.003]
    assert sorted(tally.ended) == sorted(first.ended + second.ended)
    assert (tally.done, tally.refused, tally.counts["actions"]) == (3, 1, 3)
    assert (tally.window_start, tally.window_end) == (10.0, 20.0)
    # The servers and Redis once (the first process read them); every driver's CPU.
    assert usage == Usage(client=0.75, server=9.0, redis=1.0, commit_calls=3, commit_usec=30)


def test_a_tail_of_stalls_ends_in_few_bursts_and_one_of_slow_actions_in_many() -> None:
    from benchmarks._client import TAIL_BURST_SECONDS, Tally, bursts

    def tally_of(slow_at: list[float]) -> Tally:
        """980 round trips of 1 ms, one every 5 ms, and 20 of 9 ms ending at ``slow_at``:
        the slowest 1 % are slow ones."""
        tally = Tally(0.0, 100.0)
        for i in range(980):
            tally.record(i * 0.005, i * 0.005 + 0.001, True)
        for end in slow_at:
            tally.record(end - 0.009, end, True)
        return tally

    # A stall holds twenty connections at once: their round trips end together.
    stall_ends = [50.003 + i * 0.0001 for i in range(20)]
    stall = tally_of(stall_ends)
    assert 10 <= len(stall.tail_ends(99)) <= 20
    assert set(stall.tail_ends(99)) <= set(stall_ends)
    assert bursts(stall.tail_ends(99)) == 1
    # Twenty actions slow on their own, a second apart.
    scattered = tally_of([10.0 + i for i in range(20)])
    assert bursts(scattered.tail_ends(99)) == len(scattered.tail_ends(99)) >= 10
    # Stretches of TAIL_BURST_SECONDS, one after another from 0: two ends inside one
    # share it.
    start = 100.3 * TAIL_BURST_SECONDS
    assert bursts([start, start + TAIL_BURST_SECONDS / 4]) == 1
    assert bursts([start, start + TAIL_BURST_SECONDS * 2]) == 2
    assert Tally().tail_ends(99) == [] and bursts([]) == 0


class JumpingSelector(selectors.SelectSelector):
    """Polls without waiting, and moves its loop's clock to where the loop meant to wake."""

    def __init__(self, loop: VirtualTimeLoop) -> None:
        super().__init__()
        self.loop = loop

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        if timeout is None:  # nothing scheduled: only a file can wake the loop
            return super().select(None)
        ready = super().select(0)
        if not ready:
            self.loop.now += timeout
        return ready


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    """An event loop on a clock of its own, which stands still while code runs and, when
    every task waits, jumps to the next timer: what happens between two instants of it
    depends on the code alone, never on how fast the machine runs it."""

    def __init__(self) -> None:
        self.now = 0.0
        super().__init__(JumpingSelector(self))

    def time(self) -> float:
        return self.now


def test_baseline_and_service_are_measured_in_alternating_slices() -> None:
    from benchmarks._ws_windows import Sliced, Workers, alternate

    # Powers of two, so that every instant is exact in floating point and each answer
    # falls on a known side of a slice's edges.
    answer_every, warmup, settle, duration, slices = 1 / 512, 1 / 16, 1 / 64, 3 / 8, 3

    @dataclass
    class ThisProcess:
        port: int = 0
        pid: int = os.getpid()

    turns: list[tuple[str, float]] = []

    def workers(name: str, phase: list[Sliced]) -> Workers:
        async def worker() -> None:
            clock = asyncio.get_running_loop().time
            tally = phase[0].tally
            turns.append((name, tally.window_start - clock()))
            while clock() < tally.window_end:
                sent = clock()
                await asyncio.sleep(answer_every)
                tally.record(sent, clock(), True)

        return [worker()]

    store: list[Sliced] = []
    service: list[Sliced] = []
    store.append(Sliced(ThisProcess(), lambda: workers("store", store)))
    service.append(Sliced(ThisProcess(), lambda: workers("service", service)))

    async def measure() -> None:
        clock = asyncio.get_running_loop().time
        await alternate((store[0], service[0]), slices, warmup, settle, duration, clock=clock)

    with asyncio.Runner(loop_factory=VirtualTimeLoop) as runner:
        runner.run(measure())

    # ABBA: each phase's turns alternate with the other's, so drift falls on both.
    order = ["store", "service", "service", "store", "store", "service"]
    assert [name for name, _ in turns] == order
    # A phase's first slice warms up for --warmup, its later ones settle for --settle.
    leads = {name: [lead for n, lead in turns if n == name] for name, _ in turns}
    assert leads == {"store": [warmup, settle, settle], "service": [warmup, settle, settle]}
    for phase in (store[0], service[0]):
        assert phase.tally.measured == duration
        # Answers are counted inside the slices only, none of the warm-up's or the
        # settling's: one per answer_every of the measured time, exactly.
        assert phase.tally.done == duration / answer_every == 192
        assert phase.tally.rate == 1 / answer_every
        # The CPU read at each slice's edges, summed (the driver's is this process's).
        assert phase.usage.server is not None and phase.usage.client > 0


def benchmark_imports() -> dict[str, set[str]]:
    """Each module of benchmarks/ and the modules of benchmarks/ it imports, wherever the
    import stands: one inside a function closes a circle as surely as one at the top."""
    modules = {path.stem: path for path in (ROOT / "benchmarks").glob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        imported: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.module == "benchmarks":
                imported.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("benchmarks."):
                imported.add((node.module or "").split(".")[1])
            elif isinstance(node, ast.Import):
                imported.update(
                    alias.name.split(".")[1]
                    for alias in node.names
                    if alias.name.startswith("benchmarks.")
                )
        graph[name] = imported & modules.keys()
    return graph


def test_no_benchmark_module_imports_itself_through_others() -> None:
    graph = benchmark_imports()
    # ws_load.py and its driver processes run the same phases, from a module of their own.
    assert {"_ws_drivers", "_ws_phases"} <= graph["ws_load"]
    assert "_ws_phases" in graph["_ws_drivers"]
    try:
        tuple(TopologicalSorter(graph).static_order())
    except CycleError as circle:
        pytest.fail(f"benchmarks/ imports in a circle: {' -> '.join(circle.args[1])}")


def test_websocket_load_refuses_more_driver_processes_than_connections() -> None:
    from benchmarks import ws_load

    with pytest.raises(SystemExit):
        ws_load.parse_args(["--games", "2", "--driver-processes", "3"])
    with pytest.raises(SystemExit):
        ws_load.parse_args(["--driver-processes", "0"])
    assert ws_load.parse_args(["--driver-processes", "2"]).driver_processes == 2


@pytest.mark.slow
def test_instances_benchmark_runs_workers() -> None:
    figures = run_benchmark("instances.py", "--workers", "1,2", "--games", "5")
    for workers in (1, 2):
        assert f"instances.workers.{workers}.games.5.actions_per_s" in figures


@pytest.mark.slow
def test_race_benchmark_reports_its_metrics(clean_redis: str, tmp_path: Path) -> None:
    recording = tmp_path / "endings.pstats"
    figures = run_benchmark(
        "race_result.py", "--redis-url", clean_redis, "--cprofile", str(recording)
    )
    assert "race.result_p99_ms" in figures
    assert "race.service_cpu_ms" in figures
    # The service's own functions were recorded between the first ending and the last.
    recorded = pstats.Stats(str(recording)).stats  # type: ignore[attr-defined]
    names = {name for _, _, name in recorded}
    assert {"resign_game", "after_action", "update"} <= names


@pytest.mark.slow
def test_attack_benchmark_reports_its_metrics() -> None:
    figures = run_benchmark("attacks.py")
    for phase in ("none", "changes_replay", "changes_replay_unthrottled", "flood"):
        assert f"attack.{phase}.others_p99_ms" in figures, phase
        assert figures[f"attack.{phase}.others_errors"]["value"] == 0, phase
    assert "attack.changes_request_p50_ms" in figures


def test_winnable_games_benchmark_reports_its_metrics() -> None:
    figures = run_benchmark("winnable_games.py")
    for metric in ("create.random.p99_ms", "create.winnable.p99_ms", "create.winnable_ratio"):
        assert figures[metric]["unit"] in {"ms", "1"}


def test_the_drivers_collector_leaves_what_it_set_up_alone_during_a_window() -> None:
    from benchmarks._client import driver_collector_quiet

    thresholds = gc.get_threshold()
    frozen_before = gc.get_freeze_count()
    set_up = [[index] for index in range(10_000)]  # tracked objects a driver holds
    with driver_collector_quiet():
        assert gc.get_freeze_count() >= frozen_before + len(set_up)
        assert gc.get_threshold()[0] > thresholds[0]
    assert gc.get_threshold() == thresholds
    assert gc.get_freeze_count() == 0
    assert set_up[-1] == [9_999]


def test_floods_benchmark_reports_its_metrics() -> None:
    figures = run_benchmark("floods.py")
    for metric in ("floods.healthz_p99_ratio", "floods.orphan_cpu_s", "floods.departed_cpu_s"):
        assert figures[metric]["unit"] in {"1", "s"}, metric


def test_pairing_benchmark_reports_its_metrics() -> None:
    for extra in ((), ("--redis",)):
        figures = run_benchmark("pairing.py", *extra)
        assert figures["pairing.races_not_of_two"]["value"] == 0
        assert figures["pairing.paired"]["value"] >= figures["pairing.seekers"]["value"] - 1
        assert "pairing.p99_ms" in figures


def test_arena_benchmark_reports_its_metrics() -> None:
    for extra in ((), ("--redis", "--heat-seconds", "0.5", "--driver-processes", "2")):
        figures = run_benchmark("arena.py", *extra)
        assert figures["arena.players_stuck"]["value"] == 0
        assert figures["arena.heats_counted"]["value"] > 0
        assert "arena.pairing_p99_ms" in figures and "arena.standings_update_p99_ms" in figures
        assert figures["arena.tell_floor_p99_ms"]["value"] > 0
        # Each frame reached its socket (the kernel's stamp) before the driver read it.
        stamped, read = (figures[f"arena.pairing{kind}_p99_ms"]["value"] for kind in ("", "_read"))
        assert 0 < stamped <= read
    assert "arena.redis_commands_per_heat" in figures
    assert figures["arena.redis_cpu_ms_per_heat"]["value"] > 0


def test_arena_wave_benchmark_reports_its_metrics() -> None:
    figures = run_benchmark("arena_wave.py")
    assert figures["arena.first_wave_in_process_ms"]["value"] > 0
    for metric in ("min_ms", "max_ms", "us_per_heat"):
        assert f"arena.first_wave_in_process_{metric}" in figures


@pytest.mark.parametrize("pages", [(), ("--pages",)], ids=["top page", "every page"])
def test_arena_wave_benchmark_times_the_telling_of_its_followers(pages: tuple[str, ...]) -> None:
    figures = run_benchmark("arena_wave.py", "--followers", *pages)
    assert figures["arena.first_wave_told_in_process_ms"]["value"] > 0
    # Arenas of 40 (``--quick``), 20 heats a wave, one chunk: each player is told their
    # heat and their page's new lines in one message, whichever page they follow.
    assert figures["arena.frames_per_first_wave"]["value"] == 40
