"""One suggested action, worked out from what the player can see and nothing else.

The hint reads only the engine's public view: face-up column cards, how many cards lie
face down, the waste, the foundations and the size of the stock. It never looks at the
hidden cards, so two deals that look the same get the same hint. It ranks the visible
moves by what they achieve (a card home that nothing can still need, a hidden card turned
up, a column emptied for a waiting King ...) and falls back to drawing. Every step is a
small fixed amount of work, so a hint costs well under a millisecond.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from service.engine import GameKind, Klondike, parse_card
from service.engine.cards import KING, RANK_OF, Card

from .position import Rules, fits, foundation_place
from .pruning import is_safe_to_foundation

# Reason code -> (English, Finnish). Finnish follows the engine's vocabulary (sarake,
# peruspino, nostopakka, poistopakka).
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
}


@dataclass(frozen=True, slots=True)
class Hint:
    action: str  # engine notation, e.g. ``c3>f`` or ``d``
    reason: str  # a key of REASONS
    message_en: str
    message_fi: str


def _hint(action: str, reason: str) -> Hint:
    english, finnish = REASONS[reason]
    return Hint(action, reason, english, finnish)


def hint(game_or_view: Klondike | Mapping[str, Any]) -> Hint | None:
    """The suggested action for a game or its ``public_view()``; None when there is none."""
    view = game_or_view.public_view() if isinstance(game_or_view, Klondike) else game_or_view
    if view["won"]:
        return None
    kind = GameKind(view["game"])
    rules = Rules(kind, int(view["draw"]), view["scoring"] == "vegas")
    ups = [[parse_card(c) for c in col["up"]] for col in view["columns"]]
    downs = [int(col["down"]) for col in view["columns"]]
    waste = [parse_card(c) for c in view["waste"]]
    founds = tuple(0 if top is None else RANK_OF[parse_card(top)] for top in view["foundations"])
    per = rules.places_per_suit
    scored: list[tuple[int, int, Hint]] = []  # (score, order, hint): highest score wins

    def offer(score: int, action: str, reason: str) -> None:
        scored.append((score, -len(scored), _hint(action, reason)))

    def fits_column(card: Card, j: int) -> bool:
        if not ups[j]:
            return RANK_OF[card] == KING and downs[j] == 0
        return fits(card, ups[j][-1])

    kings_waiting = any(
        RANK_OF[col[0]] == KING and down > 0 for col, down in zip(ups, downs, strict=True) if col
    ) or bool(waste and RANK_OF[waste[-1]] == KING)
    for i, col in enumerate(ups):
        if not col:
            continue
        top = col[-1]
        if foundation_place(rules, founds, top) >= 0:
            if is_safe_to_foundation(rules, founds, top):
                offer(100, f"c{i + 1}>f", "safe_home")
            elif len(col) == 1 and downs[i]:
                offer(90, f"c{i + 1}>f", "uncover")
            else:
                offer(60, f"c{i + 1}>f", "home")
        start = len(col) - 1
        while start > 0 and fits(col[start], col[start - 1]):
            start -= 1
        first = start if rules.ordered_groups else 0
        for base in range(first, len(col)):
            card = col[base]
            for j in range(len(ups)):
                if j == i or not fits_column(card, j):
                    continue
                action = f"c{i + 1}:{len(col) - base}>c{j + 1}".replace(":1>", ">")
                if base == 0 and downs[i]:
                    offer(95 if RANK_OF[card] != KING or ups[j] else 80, action, "uncover")
                elif base == 0 and not downs[i] and RANK_OF[card] != KING and kings_waiting:
                    offer(70, action, "empty_for_king")
                elif base > 0 and foundation_place(rules, founds, col[base - 1]) >= 0:
                    offer(75, action, "free_home")
                else:
                    offer(5, action, "any_move")
    if waste:
        card = waste[-1]
        if foundation_place(rules, founds, card) >= 0:
            safe = is_safe_to_foundation(rules, founds, card)
            offer(98 if safe else 55, "w>f", "safe_home" if safe else "home")
        for j in range(len(ups)):
            if fits_column(card, j):
                offer(50, f"w>c{j + 1}", "play_waste")
    if view["stock"]:
        offer(20, "d", "draw")
    elif waste and not rules.vegas:
        offer(10, "r", "recycle")
    if not scored:
        return _fallback(ups, founds, per)
    return max(scored)[2]


def _fallback(ups: list[list[Card]], founds: tuple[int, ...], per: int) -> Hint | None:
    """Only idle moves are left: suggest taking a card back from a foundation, if any fits."""
    for place, height in enumerate(founds):
        if not height:
            continue
        card = (place // per) * 13 + height - 1
        for j, col in enumerate(ups):
            if col and fits(card, col[-1]):
                return _hint(f"f{place + 1}>c{j + 1}", "any_move")
    return None
