"""Solver benchmark: how many deals of each mode are won, proved unwinnable or left open.

Usage: ``python benchmarks/solver.py [--deals N] [--modes TF.D3N,DS.D1N,...]
[--budget SECONDS] [--chart PATH] [--seed N] [--processes N] [--results PATH]
[--from-results PATH] [--quick]``

Deal numbers are drawn from a fixed seed, so a run is reproducible (up to the time
budget: a slower machine leaves more deals unknown). Each deal is solved with the same
budget, on as many processes as there are cores; every winning line is replayed through
the engine and must end won. Hint latency is measured on the engine, on positions
reached by random play. Output: a table, then one JSON line per figure.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # runnable from a checkout without installing the package
    sys.path.insert(0, str(ROOT))

from benchmarks._processes import percentile_ms
from benchmarks._report import Figure, report
from service.engine import DEAL_COUNT, GameCode, Mode, new_game
from service.solver import Budget, Result, hint, solve

ALL_MODES = tuple(str(mode) for mode in Mode.all())
HINT_POSITIONS = 200


@dataclass(frozen=True)
class Solved:
    mode: str
    code: str
    result: str
    seconds: float
    nodes: int
    line_won: bool  # the winning line replayed through the engine ends won (True if not won)


def code_for(mode: str, deal: int) -> GameCode:
    return Mode.parse(mode).code(deal)


def solve_one(task: tuple[str, int, float]) -> Solved:
    mode, deal, budget = task
    code = code_for(mode, deal)
    verdict = solve(new_game(code), Budget(seconds=budget))
    line_won = True
    if verdict.result is Result.WON:
        game = new_game(code)
        for token in verdict.line:
            game.play_text(token)
        line_won = game.won
    return Solved(mode, str(code), verdict.result.value, verdict.seconds, verdict.nodes, line_won)


def solve_all(
    tasks: Sequence[tuple[str, int, float]], workers: int, save: Path | None
) -> list[Solved]:
    """Solves on ``workers`` processes; each result is saved as soon as it is known."""
    results: list[Solved] = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for solved in pool.map(solve_one, tasks, chunksize=1):
            results.append(solved)
            if save is not None:
                with save.open("a") as out:
                    out.write(json.dumps(asdict(solved)) + "\n")
    return results


def wilson(successes: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % for the default z)."""
    if total == 0:
        return (float("nan"), float("nan"))
    p = successes / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return (max(0.0, centre - half), min(1.0, centre + half))


def hint_latencies(seed: int, count: int) -> list[float]:
    """Seconds per hint on positions reached by a few random moves from random deals."""
    rnd = random.Random(seed)
    samples: list[float] = []
    for n in range(count):
        mode = ALL_MODES[n % len(ALL_MODES)]
        game = new_game(code_for(mode, rnd.randrange(DEAL_COUNT)))
        for _ in range(rnd.randrange(40)):
            actions = game.legal_actions()
            if not actions or game.won:
                break
            game.play(rnd.choice(actions))
        if game.won:
            continue
        started = time.perf_counter()
        hint(game)
        samples.append(time.perf_counter() - started)
    return samples


def print_table(modes: Sequence[str], results: Sequence[Solved], budget: float) -> None:
    header = ("mode", "deals", "won [95% CI]", "unwinnable [95% CI]", "unknown [95% CI]",
              "p50 s", "p95 s")  # fmt: skip
    rows: list[tuple[str, ...]] = [header]
    for mode in modes:
        mine = [r for r in results if r.mode == mode]
        total = len(mine)
        cells = [mode, str(total)]
        for outcome in ("won", "unwinnable", "unknown"):
            hits = sum(r.result == outcome for r in mine)
            low, high = wilson(hits, total)
            cells.append(f"{hits / total:.3f} [{low:.3f}, {high:.3f}]")
        times = [r.seconds for r in mine]
        cells += [
            f"{percentile_ms(times, 50) / 1000:.2f}",
            f"{percentile_ms(times, 95) / 1000:.2f}",
        ]
        rows.append(tuple(cells))
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    print(f"Solver, budget {budget:g} CPU s per deal; times are CPU seconds")
    for n, row in enumerate(rows):
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
        if n == 0:
            print("  ".join("-" * w for w in widths))
    print()


def figures_for(
    modes: Sequence[str], results: Sequence[Solved], hints: Sequence[float]
) -> list[Figure]:
    figures: list[Figure] = []
    for mode in modes:
        mine = [r for r in results if r.mode == mode]
        total = len(mine)
        for outcome in ("won", "unwinnable", "unknown"):
            fraction = sum(r.result == outcome for r in mine) / total
            figures.append(Figure(f"solver.{mode}.{outcome}_fraction", round(fraction, 4), "1"))
        p50 = percentile_ms([r.seconds for r in mine], 50) / 1000
        figures.append(Figure(f"solver.{mode}.p50_s", round(p50, 3), "s"))
        seconds = sum(r.seconds for r in mine)
        if seconds:
            per_s = sum(r.nodes for r in mine) / seconds
            figures.append(
                Figure(f"solver.{mode}.positions_per_s", round(per_s), "1/s", "per CPU second")
            )
    not_won = sum(not r.line_won for r in results)
    figures.append(Figure("solver.lines_not_won", not_won, "1", "winning lines that fail", "0"))
    tf3 = [r for r in results if r.mode == "TF.D3N"]
    if tf3:
        minutes = sum(r.seconds for r in tf3) / 60
        won = sum(r.result == "won" for r in tf3)
        per_min = won / minutes if minutes else float("nan")
        figures.append(
            Figure("solver.certified_per_min", round(per_min, 1), "1/min", "TF.D3N, per core")
        )
    p99 = percentile_ms(hints, 99)
    figures.append(Figure("solver.hint_engine_p99_ms", round(p99, 2), "ms", "hint() on the engine"))
    return figures


def draw_chart(path: Path, modes: Sequence[str], results: Sequence[Solved], budget: float) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (outcomes, times) = plt.subplots(1, 2, figsize=(12, 4.5))
    colours = {"won": "#2e7d32", "unwinnable": "#c62828", "unknown": "#9e9e9e"}
    bottoms = [0.0] * len(modes)
    for outcome, colour in colours.items():
        shares = []
        for mode in modes:
            mine = [r for r in results if r.mode == mode]
            shares.append(sum(r.result == outcome for r in mine) / max(1, len(mine)))
        outcomes.bar(modes, shares, bottom=bottoms, color=colour, label=outcome)
        bottoms = [b + s for b, s in zip(bottoms, shares, strict=True)]
    outcomes.set_ylabel("fraction of deals")
    outcomes.set_title("Outcome per mode")
    outcomes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=3)
    for n, mode in enumerate(modes):
        for outcome, colour in colours.items():
            ts = [max(r.seconds, 1e-3) for r in results if r.mode == mode and r.result == outcome]
            jitter = [n + random.Random(i).uniform(-0.3, 0.3) for i in range(len(ts))]
            times.scatter(jitter, ts, s=4, color=colour, alpha=0.5)
    times.set_xticks(range(len(modes)), modes)
    times.set_yscale("log")
    times.axhline(budget, color="black", linewidth=0.8, linestyle="--")
    times.set_ylabel("solve time, CPU s (log)")
    times.set_title(f"Solve time per deal (budget {budget:g} CPU s, dashed)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100, help="deals per mode")
    parser.add_argument("--modes", default=",".join(ALL_MODES))
    parser.add_argument("--budget", type=float, default=5.0, help="CPU seconds per deal")
    parser.add_argument("--chart", type=Path, help="write a PNG chart here (needs matplotlib)")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument(
        "--workers",
        "--processes",
        dest="workers",
        type=int,
        default=os.cpu_count() or 1,
        help="solving processes (default: one per core)",
    )
    parser.add_argument("--quick", action="store_true", help="3 deals per mode, 0.5 s each")
    parser.add_argument(
        "--results", type=Path, help="also append each deal's result here (JSON lines)"
    )
    parser.add_argument(
        "--from-results", type=Path, help="report the results saved by --results instead of solving"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.deals, args.budget = 3, 0.5
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    for mode in modes:
        if mode not in ALL_MODES:
            parser.error(f"unknown mode {mode!r}; modes are {', '.join(ALL_MODES)}")
    rnd = random.Random(args.seed)
    deals = [rnd.randrange(DEAL_COUNT) for _ in range(args.deals)]
    # Deal by deal across the modes, so that a run cut short still covers every mode evenly.
    tasks = [(mode, deal, args.budget) for deal in deals for mode in modes]
    started = time.perf_counter()
    if args.from_results is not None:
        lines = args.from_results.read_text().splitlines()
        results = [Solved(**json.loads(line)) for line in lines if line.strip()]
        modes = [m for m in modes if any(r.mode == m for r in results)]
    else:
        results = solve_all(tasks, args.workers, args.results)
    wall = time.perf_counter() - started
    hints = hint_latencies(args.seed, 30 if args.quick else HINT_POSITIONS)
    print_table(modes, results, args.budget)
    if args.from_results is None:
        print(f"{len(results)} deals in {wall:.0f} s on {args.workers} process(es)\n")
    else:
        print(f"{len(results)} deals read from {args.from_results.name}\n")
    if args.chart is not None:
        draw_chart(args.chart, modes, results, args.budget)
    report("Solver figures", figures_for(modes, results, hints))


if __name__ == "__main__":
    main()
