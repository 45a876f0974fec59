"""py-spy sampling of a server process, summarised as self and inclusive time shares."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import IO, Any


def start(pid: int, output: str, seconds: float) -> subprocess.Popen[bytes]:
    """Records ``pid`` for ``seconds`` into a speedscope file (py-spy must be installed).

    py-spy pauses the process for each sample (about 1% of its time at this rate): the
    non-blocking mode costs nothing but truncates many asyncio stacks.
    """
    exe = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(exe).exists():
        raise SystemExit("--profile needs py-spy (pip install py-spy)")
    command = [
        exe,
        "record",
        *("--pid", str(pid), "--format", "speedscope", "--output", output),
        *("--rate", "200", "--duration", str(max(1, round(seconds)))),
    ]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def finish(spy: subprocess.Popen[bytes], output: str, seconds: float) -> dict[str, Any]:
    """Waits for the recording (bounded) and summarises it; {} when py-spy failed."""
    try:
        _, err = spy.communicate(timeout=seconds + 15)
    except subprocess.TimeoutExpired:
        spy.send_signal(signal.SIGINT)
        _, err = spy.communicate(timeout=10)
    if spy.returncode != 0 or not Path(output).exists():
        print(f"py-spy failed: {err.decode(errors='replace')}", file=sys.stderr)
        return {}
    return summarise(Path(output))


def summarise(path: Path, top: int = 25) -> dict[str, Any]:
    """Self and inclusive shares of the samples per function, from a speedscope file.

    Without ``--idle`` py-spy records only when the thread is running or runnable, so the
    shares are of the time the server had work, including time it waited for a CPU.
    """
    data = json.loads(path.read_text())
    names = [f"{f['name']} ({Path(f.get('file') or '?').name})" for f in data["shared"]["frames"]]
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    total = 0.0
    for profile in data["profiles"]:
        for stack, weight in zip(profile["samples"], profile["weights"], strict=True):
            total += weight
            if stack:
                own[names[stack[-1]]] += weight
            for name in {names[i] for i in stack}:
                inclusive[name] += weight
    if not total:
        return {}
    return {
        "seconds": total,
        "self": [(n, w / total) for n, w in own.most_common(top)],
        "inclusive": [(n, w / total) for n, w in inclusive.most_common(top * 2)],
    }


def report(profile: dict[str, Any], title: str, path: str, out: IO[str] = sys.stdout) -> None:
    print(f"\n{title} ({profile['seconds']:.1f} s sampled; speedscope: {path})", file=out)
    print("  self time:", file=out)
    for name, share in profile["self"]:
        print(f"    {share:6.1%}  {name}", file=out)
    print("  inclusive time:", file=out)
    for name, share in profile["inclusive"]:
        print(f"    {share:6.1%}  {name}", file=out)


# The service under cProfile, recording only between two SIGUSR1 signals: deterministic
# counts of calls, where py-spy's samples of a window of tens of milliseconds are few.
CPROFILED_SERVICE = """
import cProfile, runpy, signal
profiler, recording = cProfile.Profile(), []
def toggle(signum, frame):
    if recording:
        profiler.disable()
        profiler.dump_stats({output!r})
    else:
        profiler.enable()
    recording.append(True)
signal.signal(signal.SIGUSR1, toggle)
runpy.run_module("service", run_name="__main__", alter_sys=True)
"""


def cprofiled_service(output: str) -> str:
    """A ``python -c`` command that runs the service, profiled between two SIGUSR1."""
    return CPROFILED_SERVICE.format(output=str(Path(output).resolve()))


def report_cprofile(
    path: str, title: str, per: int, top: int = 40, out: IO[str] = sys.stdout
) -> None:
    """The functions with the most inclusive time, with their calls per ``per`` (e.g. per
    race ending). cProfile's own cost inflates the times; the counts are exact.

    Shares are of all the time recorded. Each task (a connection's reader, its pump, the
    batch sender, the change feed) is a chain of its own, so shares add up beyond 100 %.
    """
    import pstats

    stats: dict[Any, Any] = pstats.Stats(path).stats  # type: ignore[attr-defined]
    total_calls = sum(entry[1] for entry in stats.values())
    total_time = sum(entry[2] for entry in stats.values())
    print(f"\n{title} (cProfile: {path})", file=out)
    print(
        f"  per unit: {total_calls / per:,.0f} function calls, "
        f"{total_time * 1e6 / per:,.0f} us recorded (the profiler's cost included)",
        file=out,
    )
    print(f"  {'incl.':>6}  {'self':>6}  {'calls/unit':>10}  function", file=out)
    rows = sorted(stats.items(), key=lambda item: item[1][3], reverse=True)
    for (filename, line, name), (_, calls, own, inclusive, _) in rows[:top]:
        where = f"{Path(filename).name}:{line}" if line else filename
        print(
            f"  {inclusive / total_time:6.1%}  {own / total_time:6.1%}  {calls / per:10.1f}"
            f"  {name} ({where})",
            file=out,
        )
