"""Search with a transposition table, in up to three passes.

The quick passes leave out moves that rarely help (see ``ordering.Surroundings.keep``):
first best-first (always expanding the position that looks closest to a win), then
depth-first, which finds some wins the other misses. Running out of quick moves proves
nothing, so a complete depth-first pass over every legal move comes last; only when that
one is exhausted is a position reported unwinnable.
"""

from __future__ import annotations

import functools
import heapq
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from service.engine import GameKind, Klondike, Mode, Scoring, from_position

from .deadlock import stuck_card, stuck_in_waste
from .ordering import estimate, kept_moves
from .position import (
    Position,
    Rules,
    SolverMove,
    all_moves,
    apply,
    is_won,
    position_of,
    rules_of,
)
from .pruning import finish_is_certain, finishing_moves, forced_move, position_key

_CHECK_EVERY = 256


def _clock() -> float:
    return time.thread_time()


class Result(Enum):
    WON = "won"
    UNWINNABLE = "unwinnable"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Budget:
    """Stop after ``seconds`` of search or ``nodes`` positions, whichever comes first.

    Seconds are CPU seconds of the calling thread, so a busy machine makes the search
    slower in wall-clock time but does not change its verdict.
    """

    seconds: float | None = 5.0
    nodes: int | None = None


@dataclass(frozen=True, slots=True)
class Verdict:
    result: Result
    line: tuple[str, ...] = ()  # a winning line in engine notation, for WON only
    nodes: int = 0
    seconds: float = 0.0  # CPU seconds spent


# Modes whose deals the search wins too rarely within a few seconds to certify winnable
# ones on demand: Double Solitaire's single pass drawing three, where the draws leave
# two cards of every three on the waste (docs/winnability.md).
_NOT_CERTIFIABLE = frozenset({Mode(GameKind.DOUBLE, 3, Scoring.VEGAS)})


def can_certify(mode: Mode) -> bool:
    """Whether ``solve`` wins enough deals of ``mode`` to certify winnable ones."""
    return mode not in _NOT_CERTIFIABLE


class _OutOfBudget(Exception):
    pass


class _PhaseOver(Exception):
    """The share of the budget given to one pass is spent; the next pass may go on."""


# Shares of the budget after which each pass gives way to the next: best-first over the
# quick moves, then depth-first over them (each finds wins the other misses), then the
# complete pass, the only one whose exhaustion proves a position lost.
_PHASE_ENDS = (0.45, 0.7)

# Vegas: how much each waste card counts against a position in the best-first passes,
# one pass per weight. In a single pass the waste is a stack that must be emptied from
# the top, so burying cards there is what loses most deals; but how much to avoid it
# varies from deal to deal, and short passes with several weights win more deals than
# one long pass with any single weight (measured on the benchmark's DS.D1V deals).
_VEGAS_WASTE_WEIGHTS = (3, 6, 0, 4, 8, 2, 5, 10)
_VEGAS_QUICK_SHARE = 0.85  # of the budget, split evenly between those passes


class _Search:
    def __init__(self, rules: Rules, budget: Budget) -> None:
        self.rules = rules
        self.budget = budget
        self.started = _clock()
        self.deadline = None if budget.seconds is None else self.started + budget.seconds
        self.node_limit = budget.nodes
        self.nodes = 0
        self.phase_deadline: float | None = None
        self.phase_node_limit: int | None = None

    def end_phase_at(self, share: float | None) -> None:
        """Lets the next pass stop at ``share`` of the whole budget (None: no own limit)."""
        if share is None:
            self.phase_deadline = self.phase_node_limit = None
            return
        budget = self.budget
        if budget.seconds is not None:
            self.phase_deadline = self.started + budget.seconds * share
        if budget.nodes is not None:
            self.phase_node_limit = int(budget.nodes * share)

    def _count_node(self) -> None:
        self.nodes += 1
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise _OutOfBudget
        if self.phase_node_limit is not None and self.nodes >= self.phase_node_limit:
            raise _PhaseOver
        if self.nodes % _CHECK_EVERY == 0 and (self.deadline or self.phase_deadline):
            now = _clock()
            if self.deadline is not None and now >= self.deadline:
                raise _OutOfBudget
            if self.phase_deadline is not None and now >= self.phase_deadline:
                raise _PhaseOver

    def _children(self, position: Position, quick: bool, ordered: bool = True) -> list[SolverMove]:
        if self.rules.vegas:
            # Cards left on the waste of the single pass often bury what they need. The
            # quick test is cheap enough for every position; the whole dead-card test costs
            # as much as several positions, so it waits until the pass is over, when lost
            # endgames (whose columns can be shuffled in countless ways) are common.
            if stuck_in_waste(self.rules, position) is not None:
                return []
            pass_over = position.pos == len(position.talon)
            if pass_over and stuck_card(self.rules, position) is not None:
                return []
        forced = forced_move(self.rules, position, quick)
        if forced is not None:
            return [forced]
        moves = all_moves(self.rules, position)
        return kept_moves(self.rules, position, moves, quick, ordered)

    def run_best_first(
        self, root: Position, quick: bool, waste_weight: int = 0
    ) -> list[tuple[SolverMove, int]] | None:
        """Like ``run`` but always expands the most promising position seen so far."""
        rules = self.rules
        if finish_is_certain(rules, root):
            return finishing_moves(rules, root)
        seen = {position_key(rules, root)}
        # A node: (position, parent node, move from the parent, foundation place).
        Node = tuple[Position, object, SolverMove | None, int]
        start: Node = (root, None, None, -1)
        queue: list[tuple[int, int, Node]] = [(0, 0, start)]
        counter = 0
        step = -1 if rules.ordered_groups else 1
        while queue:
            node = heapq.heappop(queue)[2]
            position = node[0]
            for move in self._children(position, quick, ordered=False):
                child, place = apply(rules, position, move)
                key = position_key(rules, child)
                if key in seen:
                    continue
                seen.add(key)
                self._count_node()
                child_node: Node = (child, node, move, place)
                if is_won(child) or finish_is_certain(rules, child):
                    return _line_to(child_node) + finishing_moves(rules, child)
                # Among equally promising positions Réfléchi wins more deals going on with
                # the newest (following one line deeper), Double Solitaire taking the oldest
                # (measured on the benchmark deals at 5 CPU seconds).
                counter += step
                heapq.heappush(queue, (estimate(rules, child, waste_weight), counter, child_node))
        return None

    def run(self, root: Position, quick: bool) -> list[tuple[SolverMove, int]] | None:
        """A winning line from ``root``, or None once every reachable position is seen."""
        rules = self.rules
        if finish_is_certain(rules, root):
            return finishing_moves(rules, root)
        seen = {position_key(rules, root)}
        path: list[tuple[SolverMove, int]] = []
        stack: list[tuple[Position, list[SolverMove]]] = [(root, self._children(root, quick))]
        while stack:
            position, children = stack[-1]
            if not children:
                stack.pop()
                if path:
                    path.pop()
                continue
            move = children.pop(0)
            child, place = apply(rules, position, move)
            key = position_key(rules, child)
            if key in seen:
                continue
            seen.add(key)
            self._count_node()
            path.append((move, place))
            if is_won(child):
                return path
            if finish_is_certain(rules, child):
                return path + finishing_moves(rules, child)
            stack.append((child, self._children(child, quick)))
        return None


def _line_to(node: tuple[Position, object, SolverMove | None, int]) -> list[tuple[SolverMove, int]]:
    line: list[tuple[SolverMove, int]] = []
    current: Any = node
    while current[1] is not None:
        line.append((current[2], current[3]))
        current = current[1]
    line.reverse()
    return line


def solve(game_or_position: Klondike | str, budget: Budget | None = None) -> Verdict:
    """Decides a position with full knowledge of the hidden cards (never for hints)."""
    game = (
        from_position(game_or_position) if isinstance(game_or_position, str) else game_or_position
    )
    budget = budget if budget is not None else Budget()
    rules = rules_of(game)
    root = position_of(game)
    search = _Search(rules, budget)
    if is_won(root):
        return Verdict(Result.WON, (), 0, 0.0)
    if stuck_card(rules, root) is not None:
        return Verdict(Result.UNWINNABLE, (), 0, _clock() - search.started)
    try:
        line = _run_passes(search, root)
    except _OutOfBudget:
        return Verdict(Result.UNKNOWN, (), search.nodes, _clock() - search.started)
    elapsed = _clock() - search.started
    if line is None:
        return Verdict(Result.UNWINNABLE, (), search.nodes, elapsed)
    tokens = tuple(token for move, place in line for token in move.tokens(place))
    return Verdict(Result.WON, tokens, search.nodes, elapsed)


def _run_passes(search: _Search, root: Position) -> list[tuple[SolverMove, int]] | None:
    """A winning line, or None once the complete pass is exhausted (a proof)."""
    for run, share in _quick_passes(search):
        search.end_phase_at(share)
        try:
            line = run(root)
        except _PhaseOver:
            continue
        if line is not None:
            return line
        break  # the quick moves are exhausted: only the complete pass can add anything
    search.end_phase_at(None)
    return search.run(root, quick=False)


_Pass = Callable[[Position], "list[tuple[SolverMove, int]] | None"]


def _quick_passes(search: _Search) -> list[tuple[_Pass, float]]:
    """The passes over the quick moves, each with the share of the budget it ends at."""
    if search.rules.vegas:
        weights = _VEGAS_WASTE_WEIGHTS
        step = _VEGAS_QUICK_SHARE / len(weights)
        return [
            (
                functools.partial(search.run_best_first, quick=True, waste_weight=weight),
                step * (n + 1),
            )
            for n, weight in enumerate(weights)
        ]
    return [
        (functools.partial(search.run_best_first, quick=True), _PHASE_ENDS[0]),
        (functools.partial(search.run, quick=True), _PHASE_ENDS[1]),
    ]
