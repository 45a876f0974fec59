"""Actions as value types, with a compact text notation that round-trips.

Notation (one token per action, no spaces):

=============  ===============================================================
``d``          draw: tap the stock (becomes ``r`` when the stock is empty)
``r``          recycle: turn the waste back into the stock
``c3>c5``      move the top card of column 3 onto column 5
``c3:4>c5``    move the top 4 cards of column 3 onto column 5
``w>f``        move the top of the waste to the foundation area
``c2>f3``      drop on foundation place 3 (the card goes where it fits, see DS-FND-3)
``f2>c4``      take the top card of foundation place 2 back to column 4
``tc3`` ``tw`` tap: send the top card to its foundation
``ttc3``       double tap: foundation first, then a tableau place
``u``          undo
``resign``     resign: end the game here (final, like a won game)
=============  ===============================================================

Columns and foundation places are numbered from 1 in text and from 0 in code.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from enum import Enum
from typing import TypeAlias

from .errors import InvalidActionError


class PileKind(Enum):
    WASTE = "w"
    COLUMN = "c"
    FOUNDATION = "f"
    STOCK = "s"


@dataclass(frozen=True, slots=True)
class Pile:
    """A pile of the table. ``index`` is 0-based; ``None`` means the whole foundation area."""

    kind: PileKind
    index: int | None = None
    # The notation, written once: piles are written several times per action (notation,
    # action object, events), and the ones actions name are made once (see below).
    _text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # ``_value_`` is the member's value as ``value`` gives it, without the property lookup.
        text = self.kind._value_ if self.index is None else f"{self.kind._value_}{self.index + 1}"
        object.__setattr__(self, "_text", text)

    def __str__(self) -> str:
        return self._text


WASTE = Pile(PileKind.WASTE)
STOCK = Pile(PileKind.STOCK)
FOUNDATIONS = Pile(PileKind.FOUNDATION)

# Piles are immutable values: every action names one or two, so the ones notation can
# name (indices 0..98) are made once instead of per action.
_NAMEABLE = 99
_COLUMNS = tuple(Pile(PileKind.COLUMN, i) for i in range(_NAMEABLE))
_FOUNDATIONS = tuple(Pile(PileKind.FOUNDATION, i) for i in range(_NAMEABLE))


def column(index: int) -> Pile:
    if 0 <= index < _NAMEABLE:
        return _COLUMNS[index]
    return Pile(PileKind.COLUMN, index)


def foundation(index: int) -> Pile:
    if 0 <= index < _NAMEABLE:
        return _FOUNDATIONS[index]
    return Pile(PileKind.FOUNDATION, index)


@dataclass(frozen=True, slots=True)
class Move:
    source: Pile
    target: Pile
    count: int = 1

    def __str__(self) -> str:
        # The piles' texts are read directly: formatting a pile in an f-string goes through
        # ``format()`` and costs more than the rest of the notation.
        amount = f":{self.count}" if self.count != 1 else ""
        return f"{self.source._text}{amount}>{self.target._text}"


@dataclass(frozen=True, slots=True)
class Draw:
    def __str__(self) -> str:
        return "d"


@dataclass(frozen=True, slots=True)
class Recycle:
    def __str__(self) -> str:
        return "r"


@dataclass(frozen=True, slots=True)
class Tap:
    """A tap on the top card of a column or of the waste (DS-APP-2, DS-APP-3)."""

    source: Pile
    double: bool = False

    def __str__(self) -> str:
        return ("tt" if self.double else "t") + str(self.source)


@dataclass(frozen=True, slots=True)
class Undo:
    def __str__(self) -> str:
        return "u"


@dataclass(frozen=True, slots=True)
class Resign:
    """The player ends the game where it stands; nothing can be played or undone after."""

    def __str__(self) -> str:
        return "resign"


Action: TypeAlias = Move | Draw | Recycle | Tap | Undo | Resign

_PILE_RE = re.compile(r"^(w|s|c([0-9]{1,2})|f([0-9]{1,2})?)$")
_MOVE_RE = re.compile(r"^([a-z][0-9]{0,2})(?::([0-9]{1,3}))?>([a-z][0-9]{0,2})$")
_TAP_RE = re.compile(r"^(tt?)([a-z][0-9]{0,2})$")
_SIMPLE: dict[str, Action] = {"d": Draw(), "r": Recycle(), "u": Undo(), "resign": Resign()}


def parse_pile(text: str) -> Pile:
    """Parses ``w``, ``s``, ``c1``.., ``f`` or ``f1``..; range checks belong to the game."""
    match = _PILE_RE.match(text.strip().lower())
    if match is None:
        raise InvalidActionError("unknown_pile", f"unknown pile {text!r}")
    name, col, fnd = match.groups()
    if name == "w":
        return WASTE
    if name == "s":
        return STOCK
    if col is not None:
        if int(col) < 1:
            raise InvalidActionError("bad_index", f"columns are numbered from 1: {text!r}")
        return column(int(col) - 1)
    if fnd is not None:
        if int(fnd) < 1:
            raise InvalidActionError("bad_index", f"foundations are numbered from 1: {text!r}")
        return foundation(int(fnd) - 1)
    return FOUNDATIONS


def parse_action(text: str) -> Action:
    return _parse_action(text)


# Actions are immutable values, so a text always gives the same one: players send the same
# few notations again and again, and a cached one costs a small part of parsing it.
@functools.lru_cache(maxsize=4096)
def _parse_action(text: str) -> Action:
    token = text.strip().lower()
    simple = _SIMPLE.get(token)
    if simple is not None:
        return simple
    match = _MOVE_RE.match(token)
    if match is not None:
        source, count, target = match.groups()
        amount = int(count) if count is not None else 1
        if amount < 1:
            raise InvalidActionError("bad_count", f"a move takes at least one card: {text!r}")
        return Move(parse_pile(source), parse_pile(target), amount)
    match = _TAP_RE.match(token)
    if match is not None:
        taps, source = match.groups()
        return Tap(parse_pile(source), double=taps == "tt")
    raise InvalidActionError("bad_notation", f"not an action: {text!r}")


def parse_actions(text: str) -> list[Action]:
    return [parse_action(token) for token in text.split()]
