"""Solver for both games: full-information search and public-information hints.

Pure and synchronous like the engine it plays through: no I/O, no service code.
``solve`` knows every hidden card and is for analysis; ``hint`` sees only what the
player sees, and ``line_of`` only what the player saw on the way. Its core may run
compiled (see ``compiled``).
"""

from .compiled import choose_core

choose_core()  # before any module of the core is imported

from .hint import REASONS, Hint, hint  # noqa: E402
from .line import Line, line_of  # noqa: E402
from .search import Budget, Result, Verdict, can_certify, solve  # noqa: E402

__all__ = [
    "REASONS",
    "Budget",
    "Hint",
    "Line",
    "Result",
    "Verdict",
    "can_certify",
    "hint",
    "line_of",
    "solve",
]
