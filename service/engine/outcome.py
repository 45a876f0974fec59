"""What one accepted action did, and the animation events a client draws from it."""

from __future__ import annotations

from typing import Any, NamedTuple

from .actions import Action, Pile
from .cards import CARD_TEXT, Card


class Outcome(NamedTuple):
    """What one accepted action did: the normalized action and what moved.

    ``cards`` are the cards that moved (all face up by then); ``flipped`` is the card that
    turned face up, if any. For an undo, ``undone`` is the action taken back and
    ``turned_down`` the column whose card went face down again.

    A named tuple, immutable like the other values: every action makes one, and a tuple
    of twelve fields is built several times faster than a frozen dataclass.
    """

    action: Action
    score_delta: int
    source: Pile | None = None
    target: Pile | None = None
    cards: tuple[Card, ...] = ()
    flipped: Card | None = None
    won: bool = False
    resigned: bool = False
    undone: Action | None = None
    turned_down: Pile | None = None
    drawn: int = 0
    recycled: int = 0

    def events(self) -> list[dict[str, Any]]:
        """Semantic events for animation, as JSON-ready dicts (only public information)."""
        events: list[dict[str, Any]] = []
        if self.undone is not None:
            events.append({"type": "undone", "action": str(self.undone)})
        if self.source is not None and self.target is not None:
            events.append(
                {
                    "type": "moved",
                    "from": str(self.source),
                    "to": str(self.target),
                    "cards": [CARD_TEXT[c] for c in self.cards],
                }
            )
        if self.flipped is not None and self.source is not None:
            events.append(
                {"type": "flipped", "pile": str(self.source), "card": CARD_TEXT[self.flipped]}
            )
        if self.turned_down is not None:
            events.append({"type": "turned_down", "pile": str(self.turned_down)})
        if self.drawn:
            if self.undone is None:
                events.append({"type": "drew", "cards": [CARD_TEXT[c] for c in self.cards]})
            else:
                events.append({"type": "undrew", "count": self.drawn})
        if self.recycled:
            kind = "recycled" if self.undone is None else "unrecycled"
            events.append({"type": kind, "count": self.recycled})
        if self.won:
            events.append({"type": "won"})
        if self.resigned:
            events.append({"type": "resigned"})
        return events
