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
