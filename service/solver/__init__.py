"""Solver for both games: full-information search and public-information hints.

Pure and synchronous like the engine it plays through: no I/O, no service code.
"""

from .search import Budget, Result, Verdict, solve

__all__ = ["Budget", "Result", "Verdict", "solve"]
