"""Solver for both games: full-information search and public-information hints.

Pure and synchronous like the engine it plays through: no I/O, no service code.
``solve`` knows every hidden card and is for analysis; ``hint`` sees only what the
player sees, and ``line_of`` only what the player saw on the way.
"""

from .hint import REASONS, Hint, hint
from .line import Line, line_of
from .search import Budget, Result, Verdict, solve

__all__ = ["REASONS", "Budget", "Hint", "Line", "Result", "Verdict", "hint", "line_of", "solve"]
