"""What the player went through on the way to a position: the memory of a hint.

A hint read from the position alone cannot tell that it is sending the player round in a
circle: draw after draw through a stock that has nothing new to show, or a move and then
its reverse. ``Line`` is the little it needs to know of the way there. ``line_of`` reads
it off the game's line (the actions its undo history holds) by taking them back one by
one on a copy and looking, at every earlier position, only at what the public view
shows: face-up cards, counts of face-down cards, the waste, the foundations and the size
of the stock. So a line holds nothing the player has not seen:

* ``tables``: the tables of the line's positions. A table is the columns (face-up cards
  and the number of face-down ones), the foundations and the size of the talon (stock and
  waste together). Along a line the talon only shrinks and keeps its order, so two
  positions with the same table differ at most in how far the stock has been drawn.
* ``tops``: the positions since the table last changed, newest first, each as the number
  of cards on the waste and the card then on top of it (``None`` for an empty waste).
  With the table unchanged, the talon is one fixed sequence of cards, and a position is
  just how many of them lie on the waste.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from service.engine import Draw, Klondike, Recycle
from service.engine.cards import Card

# talon size, face-down counts, face-up cards of each column, foundation heights
TableKey = tuple[int, tuple[int, ...], tuple[bytes, ...], tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class Line:
    tables: frozenset[TableKey] = frozenset()
    tops: tuple[tuple[int, Card | None], ...] = ()  # (cards on the waste, its top card)


EMPTY_LINE = Line()


def table_key(
    talon: int, downs: Sequence[int], ups: Iterable[Sequence[Card]], heights: Sequence[int]
) -> TableKey:
    return (talon, tuple(downs), tuple(bytes(up) for up in ups), tuple(heights))


def _table(game: Klondike) -> TableKey:
    ups = (col[down:] for col, down in zip(game.columns, game.down, strict=True))
    return table_key(len(game.stock) + len(game.waste), game.down, ups, game.foundations)


def _top(game: Klondike) -> tuple[int, Card | None]:
    waste = game.waste
    return len(waste), waste[-1] if waste else None


def line_of(game: Klondike) -> Line:
    """The line that led to ``game``'s position (as far as its undo history goes back)."""
    if game.over or not game.undo_available:
        return EMPTY_LINE
    earlier = game.copy()
    tables = {_table(earlier)}
    tops = [_top(earlier)]
    in_pass = True  # still among the positions since the table last changed
    while earlier.undo_available:
        undone = earlier.undo().undone
        if isinstance(undone, Draw | Recycle):
            if in_pass:
                tops.append(_top(earlier))
            continue  # the table is the one already kept
        in_pass = False
        tables.add(_table(earlier))
    return Line(frozenset(tables), tuple(tops))


def talon_cycle(talon: int, draw: int) -> frozenset[int]:
    """The positions that drawing and recycling go round, as numbers of cards on the
    waste: none, then ``draw`` more at each draw up to the whole talon."""
    return frozenset(min(k * draw, talon) for k in range(-(-talon // draw) + 1))
