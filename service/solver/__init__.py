"""Solver for both games: full-information search and public-information hints.

Pure and synchronous like the engine it plays through: no I/O, no service code.
``solve`` knows every hidden card and is for analysis; ``hint`` sees only what the
player sees.
"""

from .hint import REASONS, Hint, hint
from .search import Budget, Result, Verdict, solve

__all__ = ["REASONS", "Budget", "Hint", "Result", "Verdict", "hint", "solve"]
