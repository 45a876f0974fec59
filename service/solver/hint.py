"""One suggested action, worked out from what the player can see and has seen, nothing else.

The hint reads only the engine's public view: face-up column cards, how many cards lie
face down, the waste, the foundations and the size of the stock. It never looks at the
hidden cards. It ranks the visible moves by what they achieve (a card home that nothing
can still need, a hidden card turned up, a column emptied for a waiting King ...) and
falls back to drawing.

It also remembers the way there (``line.py``: what the public views of the earlier
positions of the game's line showed), so that a player who follows hints alone is never
sent round in a circle. It suggests no move back to a table the line has already had (a
move and its reverse); no idle move (``any_move``, scored at most ``IDLE_SCORE``) unless
it makes room for a move that cannot be taken back, a hidden card turned up or a waste
card played; and no draw or recycle once every card that drawing can bring to the top of
the waste has been there since the table last changed, none of them with a use. Then the
answer is ``no_useful_move``, with no action. So two games that look the same, and looked
the same on the way, get the same hint. Every step is a small fixed amount of work, so a
hint costs well under a millisecond.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from service.engine import GameKind, Klondike, parse_card
from service.engine.cards import KING, RANK_OF, Card

from .line import EMPTY_LINE, Line, TableKey, line_of, table_key, talon_cycle
from .position import Rules, fits, foundation_place
from .pruning import is_safe_to_foundation

# Reason code -> (English, Finnish). Finnish follows the engine's vocabulary (sarake,
# peruspino, nostopakka, poistopakka). The last two come with no action.
REASONS: dict[str, tuple[str, str]] = {
    "safe_home": (
        "This card can go to its foundation: no other card can still need it.",
        "Tämän kortin voi siirtää peruspinoon: mikään muu kortti ei voi enää tarvita sitä.",
    ),
    "uncover": (
        "This move turns a hidden card face up.",
        "Tämä siirto kääntää piilossa olevan kortin näkyviin.",
    ),
    "free_home": (
        "This move uncovers a card that can go straight to its foundation.",
        "Tämä siirto paljastaa kortin, jonka voi siirtää suoraan peruspinoon.",
    ),
    "home": (
        "This card can go to its foundation.",
        "Tämän kortin voi siirtää peruspinoon.",
    ),
    "empty_for_king": (
        "This move empties a column for a King that is waiting.",
        "Tämä siirto tyhjentää sarakkeen odottavalle kuninkaalle.",
    ),
    "king_to_empty": (
        "Move this King to the empty column to free the cards under it.",
        "Siirrä tämä kuningas tyhjään sarakkeeseen, niin sen alla olevat kortit vapautuvat.",
    ),
    "play_waste": (
        "The top card of the waste fits on a column.",
        "Poistopakan päällimmäinen kortti sopii sarakkeeseen.",
    ),
    "draw": (
        "No useful move on the table: turn cards from the stock.",
        "Pöydällä ei ole hyödyllistä siirtoa: käännä kortteja nostopakasta.",
    ),
    "recycle": (
        "The stock is empty: turn the waste back into the stock.",
        "Nostopakka on tyhjä: käännä poistopakka takaisin nostopakaksi.",
    ),
    "any_move": (
        "Nothing better is in sight; this move keeps the game going.",
        "Parempaa siirtoa ei ole näkyvissä; tällä siirrolla peli jatkuu.",
    ),
    "no_useful_move": (
        "No useful move is in sight, and the stock has no new card to show: "
        "take moves back or begin another game.",
        "Hyödyllistä siirtoa ei ole näkyvissä, eikä nostopakasta tule esiin uutta korttia: "
        "peru siirtoja tai aloita uusi peli.",
    ),
    "game_over": (
        "The game is over: there is nothing left to play.",
        "Peli on päättynyt: pelattavaa ei ole enää.",
    ),
}
DRAW_SCORE = 20  # a talon offer's score: what outranks it is worth more than drawing
IDLE_SCORE = 5  # at most this, a move achieves nothing the hint can see by itself
_TALON_ACTIONS = ("d", "r")


@dataclass(frozen=True, slots=True)
class Hint:
    action: str | None  # engine notation, e.g. ``c3>f`` or ``d``; None: nothing to play
    reason: str  # a key of REASONS
    message_en: str
    message_fi: str

    @classmethod
    def of(cls, reason: str, action: str | None = None) -> Hint:
        english, finnish = REASONS[reason]
        return cls(action, reason, english, finnish)


# A move that turns nothing face up, as the piles it changes: (column cards leave or -1,
# how many, column they go to or -1, foundation place a card leaves or -1).
_Change = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class _Offer:
    score: int
    order: int  # offers of one score: the first made wins
    action: str
    reason: str
    change: _Change | None = None  # None: a flip, a waste card or the talon: never a repeat


@dataclass(frozen=True, slots=True)
class _Table:
    """The public view, parsed."""

    rules: Rules
    ups: list[list[Card]]
    downs: list[int]
    waste: list[Card]
    founds: tuple[int, ...]
    stock: int

    @classmethod
    def of(cls, view: Mapping[str, Any]) -> _Table:
        kind = GameKind(view["game"])
        return cls(
            Rules(kind, int(view["draw"]), view["scoring"] == "vegas"),
            [[parse_card(c) for c in col["up"]] for col in view["columns"]],
            [int(col["down"]) for col in view["columns"]],
            [parse_card(c) for c in view["waste"]],
            tuple(0 if top is None else RANK_OF[parse_card(top)] for top in view["foundations"]),
            int(view["stock"]),
        )

    @property
    def talon(self) -> int:
        return self.stock + len(self.waste)

    def foundation_card(self, place: int) -> Card:
        return (place // self.rules.places_per_suit) * 13 + self.founds[place] - 1

    def fits_column(self, card: Card, j: int) -> bool:
        if not self.ups[j]:
            return RANK_OF[card] == KING and self.downs[j] == 0
        return fits(card, self.ups[j][-1])

    def after(self, change: _Change) -> _Table:
        """The table a move that turns nothing face up leads to."""
        source, count, target, place = change
        ups = [list(col) for col in self.ups]
        founds = list(self.founds)
        if source >= 0:
            moving = ups[source][-count:]
            del ups[source][-count:]
        else:
            moving = [self.foundation_card(place)]
            founds[place] -= 1
        if target >= 0:
            ups[target] += moving
        else:
            founds[foundation_place(self.rules, self.founds, moving[0])] += 1
        return _Table(self.rules, ups, self.downs, self.waste, tuple(founds), self.stock)

    def key(self) -> TableKey:
        return table_key(self.talon, self.downs, self.ups, self.founds)


def hint(game_or_view: Klondike | Mapping[str, Any], line: Line | None = None) -> Hint:
    """The suggested action for a game, or for a ``public_view()`` and the ``line`` that
    led to it (a game reads its own line; a view without one is taken as a fresh deal).
    Without an action: ``no_useful_move`` while the game goes on, ``game_over`` after."""
    view: Mapping[str, Any]
    if isinstance(game_or_view, Klondike):
        view = game_or_view.public_view()
        line = line_of(game_or_view) if line is None else line
    else:
        view = game_or_view
    line = EMPTY_LINE if line is None else line
    if view["won"] or view.get("resigned"):
        return Hint.of("game_over")
    table = _Table.of(view)
    top = table.waste[-1] if table.waste else None
    best = _best(table, top, line.tables, room_for=(top,))
    if best is not None and best.action in _TALON_ACTIONS:
        seen = _seen_round(table, line)
        if seen is not None:
            best = _best(table, top, line.tables, talon=False, room_for=seen)
    return Hint.of("no_useful_move") if best is None else Hint.of(best.reason, best.action)


def _best(
    table: _Table,
    top: Card | None,
    tables: frozenset[TableKey],
    talon: bool = True,
    room_for: tuple[Card | None, ...] = (),
) -> _Offer | None:
    """The highest offer, with ``top`` on the waste, that leads to no table of ``tables``
    (the line's): talon offers only if ``talon``; an idle move only if it makes room for
    a move that cannot be taken back, for one of the waste cards ``room_for`` or a flip."""
    for offer in sorted(_offers(table, top), key=lambda o: (o.score, o.order), reverse=True):
        if offer.score <= IDLE_SCORE and not room_for:
            break
        if not talon and offer.action in _TALON_ACTIONS:
            continue
        if offer.change is None:
            return offer
        after = table.after(offer.change)
        if after.key() in tables:
            continue
        if offer.score > IDLE_SCORE or _makes_room(after, room_for):
            return offer
    return None


def _makes_room(after: _Table, waste_cards: tuple[Card | None, ...]) -> bool:
    """An idle move is worth suggesting when it makes room for a move no other move takes
    back: one that turns a hidden card face up or plays one of ``waste_cards``. (Moves that
    can be taken back, a card home and back again, a run to and fro, go round for ever.)"""
    for offer in _offers(after, None):
        if offer.change is None and offer.score > IDLE_SCORE and offer.action not in _TALON_ACTIONS:
            return True
    for card in waste_cards:
        if card is None:
            continue
        if foundation_place(after.rules, after.founds, card) >= 0:
            return True
        if any(after.fits_column(card, j) for j in range(len(after.ups))):
            return True
    return False


def _seen_round(table: _Table, line: Line) -> tuple[Card | None, ...] | None:
    """When drawing goes round in circles, the cards it brings to the top of the waste:
    since the table last changed, every one of them has been there, none of them with a
    use. None while drawing can still show something. Under Vegas scoring the talon is
    gone through once, and every draw shows new cards."""
    if table.rules.vegas:
        return None
    seen = dict(line.tops)
    cycle = talon_cycle(table.talon, table.rules.draw)
    if not cycle <= seen.keys():
        return None
    cards = tuple(seen[size] for size in sorted(cycle))
    for card in cards:
        # What the hint would have been with this card on top, short of drawing on.
        if card is not None and _best(table, card, line.tables, talon=False) is not None:
            return None
    return cards


def _offers(table: _Table, top: Card | None) -> list[_Offer]:
    """Every action worth suggesting with ``top`` on top of the waste, with its score."""
    rules, ups, downs, founds = table.rules, table.ups, table.downs, table.founds
    offers: list[_Offer] = []

    def offer(score: int, action: str, reason: str, change: _Change | None = None) -> None:
        offers.append(_Offer(score, -len(offers), action, reason, change))

    kings_waiting = any(
        RANK_OF[col[0]] == KING and down > 0 for col, down in zip(ups, downs, strict=True) if col
    ) or (top is not None and RANK_OF[top] == KING)
    for i, col in enumerate(ups):
        if not col:
            continue
        card = col[-1]
        home = None if len(col) == 1 and downs[i] else (i, 1, -1, -1)
        if foundation_place(rules, founds, card) >= 0:
            if is_safe_to_foundation(rules, founds, card):
                offer(100, f"c{i + 1}>f", "safe_home", home)
            elif home is None:
                offer(90, f"c{i + 1}>f", "uncover")
            else:
                offer(60, f"c{i + 1}>f", "home", home)
        start = len(col) - 1
        while start > 0 and fits(col[start], col[start - 1]):
            start -= 1
        first = start if rules.ordered_groups else 0
        for base in range(first, len(col)):
            card = col[base]
            count = len(col) - base
            for j in range(len(ups)):
                if j == i or not table.fits_column(card, j):
                    continue
                action = f"c{i + 1}:{count}>c{j + 1}".replace(":1>", ">")
                change = (i, count, j, -1)
                if base == 0 and downs[i]:
                    offer(95 if RANK_OF[card] != KING or ups[j] else 80, action, "uncover")
                elif base == 0 and not downs[i] and RANK_OF[card] != KING and kings_waiting:
                    offer(70, action, "empty_for_king", change)
                elif base > 0 and foundation_place(rules, founds, col[base - 1]) >= 0:
                    offer(75, action, "free_home", change)
                else:
                    offer(5, action, "any_move", change)
    if top is not None:
        if foundation_place(rules, founds, top) >= 0:
            safe = is_safe_to_foundation(rules, founds, top)
            offer(98 if safe else 55, "w>f", "safe_home" if safe else "home")
        for j in range(len(ups)):
            if table.fits_column(top, j):
                offer(50, f"w>c{j + 1}", "play_waste")
    if table.stock:
        offer(DRAW_SCORE, "d", "draw")
    elif table.waste and not rules.vegas:
        offer(DRAW_SCORE // 2, "r", "recycle")
    # Only idle moves left: a card taken back from a foundation, where one fits.
    for place, height in enumerate(founds):
        if height:
            card = table.foundation_card(place)
            for j, col in enumerate(ups):
                if col and fits(card, col[-1]):
                    offer(1, f"f{place + 1}>c{j + 1}", "any_move", (-1, 1, j, place))
    return offers
