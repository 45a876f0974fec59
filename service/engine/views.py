"""The parts of a table's public view and position text, rebuilt only where piles changed.

An action touches one or two piles, yet the service builds the whole public view and
the whole position text after each one. ``PileCache`` keeps every part it built (a
column's view and text, the waste, the stock text, the foundation row) with a copy of
the pile it was built from, and rebuilds a part only when its pile no longer equals
that copy. Being keyed by the piles' contents, it needs no notice of changes: play,
undo, a recycle's swap of stock and waste, or a test editing a pile by hand are all
seen the same way, so no mutation path can leave a stale part behind.

Parts are handed out shared: a column left alone keeps the very same dict from one view
to the next (which also makes the diff's column comparison an identity hit). Views are
values, so nobody may change one in place; every list that changes is a new list.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any

from .cards import CARD_TEXT, RANK_CHARS, Card
from .history import RECORD_BYTES

# A pile copy no real pile equals (there is no card -1): everything is built at first use.
_NEVER: list[Card] = [-1]
# The position text's foundation heights, indexed by height (0 is an empty place).
_HEIGHT_CHARS: tuple[str, ...] = ("-", *RANK_CHARS)
# Base64 writes each 3 bytes as 4 characters: with records of a multiple of 3 bytes, the
# text of a history is the texts of its records one after the other.
_RECORDS_ALIGN = RECORD_BYTES % 3 == 0
_RECORD_CHARS = RECORD_BYTES // 3 * 4


class PileCache:
    """What ``Table.public_view`` and ``Table.position_text`` build from the piles."""

    __slots__ = (
        "_cols",
        "_downs",
        "_founds",
        "_stock",
        "_undo",
        "_waste",
        "col_texts",
        "col_views",
        "columns_text",
        "columns_view",
        "foundations_text",
        "foundations_view",
        "history_text",
        "stock_text",
        "waste_text",
        "waste_view",
    )

    def __init__(self, column_count: int, foundation_count: int) -> None:
        # The copies the parts were built from, then the parts themselves.
        self._cols: list[list[Card]] = [_NEVER] * column_count
        self._downs: list[int] = [-1] * column_count
        self._stock: list[Card] = _NEVER
        self._waste: list[Card] = _NEVER
        self._founds: list[int] = [-1] * foundation_count
        self._undo = b""
        self.col_views: list[dict[str, Any]] = [{}] * column_count
        self.col_texts: list[str] = [""] * column_count
        self.columns_view: list[dict[str, Any]] = []
        self.columns_text = ""
        self.stock_text = ""
        self.waste_view: list[str] = []
        self.waste_text = ""
        self.foundations_view: list[str | None] = []
        self.foundations_text = ""
        self.history_text = ""

    def view(
        self,
        columns: list[list[Card]],
        down: list[int],
        waste: list[Card],
        foundations: list[int],
        suit_of: Callable[[int], int],
    ) -> None:
        """Brings the parts of the public view up to date with the piles."""
        # Each test is one comparison in C; the usual case is that most parts are equal.
        if columns != self._cols or down != self._downs:
            self._columns(columns, down)
        if waste != self._waste:
            self._waste_changed(waste)
        if foundations != self._founds:
            self._foundations(foundations, suit_of)

    def text(
        self,
        columns: list[list[Card]],
        down: list[int],
        stock: list[Card],
        waste: list[Card],
        foundations: list[int],
        suit_of: Callable[[int], int],
    ) -> None:
        """Brings the parts of the position text up to date with the piles: those of the
        view (each part is built with its text) and the stock's."""
        self.view(columns, down, waste, foundations, suit_of)
        if stock != self._stock:
            self._stock_changed(stock)

    def _columns(self, columns: list[list[Card]], down: list[int]) -> None:
        cols, downs, views, texts = self._cols, self._downs, self.col_views, self.col_texts
        for i, col in enumerate(columns):
            hidden = down[i]
            if hidden != downs[i] or col != cols[i]:
                cols[i] = col[:]
                downs[i] = hidden
                # One pass over the cards for both forms: "<down>|<up>" is the faces
                # with a bar inserted where the face-up cards start.
                faces = [CARD_TEXT[c] for c in col]
                views[i] = {"down": hidden, "up": faces[hidden:]}
                faces.insert(hidden, "|")
                texts[i] = "".join(faces)
        # A new list each time: the previous view keeps the one it was given.
        self.columns_view = views[:]
        self.columns_text = "/".join(texts)

    def _waste_changed(self, waste: list[Card]) -> None:
        keep = _kept_bottom(self._waste, waste)
        added = [CARD_TEXT[c] for c in waste[keep:]]
        self.waste_view = self.waste_view[:keep] + added
        self.waste_text = self.waste_text[: 2 * keep] + "".join(added)
        self._waste = waste[:]

    def _stock_changed(self, stock: list[Card]) -> None:
        keep = _kept_bottom(self._stock, stock)
        self.stock_text = self.stock_text[: 2 * keep] + "".join(
            [CARD_TEXT[c] for c in stock[keep:]]
        )
        self._stock = stock[:]

    def _foundations(self, foundations: list[int], suit_of: Callable[[int], int]) -> None:
        self._founds = foundations[:]
        self.foundations_view = [
            CARD_TEXT[suit_of(place) * 13 + height - 1] if height else None
            for place, height in enumerate(foundations)
        ]
        self.foundations_text = "".join(map(_HEIGHT_CHARS.__getitem__, foundations))

    def history(self, undo: bytearray) -> str:
        """The undo history in base64 ("" for none), following the history's changes."""
        old = self._undo
        if undo == old:
            return self.history_text
        # An action adds a record at the end, an undo takes it back, and at the limit the
        # oldest goes from the front: each is a cut or an addition to the text. The
        # checks compare in place, without copies.
        size, kept = len(undo), len(old)
        text = self.history_text
        if not _RECORDS_ALIGN:
            text = base64.b64encode(undo).decode("ascii")
        elif size == kept + RECORD_BYTES and undo.startswith(old):
            text += base64.b64encode(undo[kept:]).decode("ascii")
        elif size == kept - RECORD_BYTES and old.startswith(undo):
            text = text[:-_RECORD_CHARS]
        elif size == kept and size and undo.startswith(memoryview(old)[RECORD_BYTES:]):
            added = base64.b64encode(undo[-RECORD_BYTES:]).decode("ascii")
            text = text[_RECORD_CHARS:] + added
        else:
            text = base64.b64encode(undo).decode("ascii")
        self._undo = bytes(undo)
        self.history_text = text
        return text


def _kept_bottom(old: list[Card], new: list[Card]) -> int:
    """How many of ``new``'s bottom cards need no rebuilding: all of the shorter pile when
    one is the other with cards added or taken at the top (a draw, a move from the waste,
    their undos), else none (a recycle, or an undo of one)."""
    kept, size = len(old), len(new)
    if size >= kept:
        return kept if new[:kept] == old else 0
    return size if old[:size] == new else 0
