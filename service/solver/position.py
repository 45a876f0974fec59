"""The solver's own compact position: immutable tuples, cheap to hash and to branch from.

Stock and waste are kept as one sequence, the *talon*: the waste from bottom to top, then
the stock in the order it will be drawn. ``pos`` cards of it lie on the waste, so the
playable card is ``talon[pos - 1]``. A draw moves ``pos`` forward by up to ``draw`` cards
and a recycle puts it back to 0, so the cards that draws (and recycles, where allowed)
can bring to the top are a simple function of ``pos`` and the talon length. The search
never branches on single draws: a talon move names the card and how to reach it.
"""

from __future__ import annotations

from functools import lru_cache

from service.engine import GAME_CLASSES, GameKind, Klondike, Scoring
from service.engine.cards import IS_RED, KING, RANK_OF, SUIT_NAMES, SUIT_OF, Card


class Rules:
    """What the search needs to know about the game being played (fields, for speed)."""

    __slots__ = (
        "can_recycle",
        "column_count",
        "draw",
        "kind",
        "ordered_groups",
        "places_per_suit",
        "talon_is_free",
        "vegas",
    )

    def __init__(self, kind: GameKind, draw: int, vegas: bool) -> None:
        game = GAME_CLASSES[kind]
        self.kind = kind
        self.draw = draw
        self.vegas = vegas
        self.column_count = game.column_count
        self.places_per_suit = game.foundation_count // len(SUIT_NAMES)
        self.ordered_groups = game.ordered_groups_only
        self.can_recycle = not vegas
        # Draw 1 with recycling: any talon card can be brought to the top at any time.
        self.talon_is_free = draw == 1 and not vegas


class Position:
    """One position; never changed once made (the search shares them between branches).

    Plain classes with slots rather than frozen dataclasses: a frozen dataclass sets each
    field through ``object.__setattr__``, which made building positions and moves several
    times slower, and the search builds a few of each for every position it counts.
    """

    __slots__ = ("column_keys", "columns", "down", "foundations", "pos", "talon")

    def __init__(
        self,
        columns: tuple[bytes, ...],
        down: tuple[int, ...],
        foundations: tuple[int, ...],
        talon: bytes,
        pos: int,
        column_keys: tuple[bytes, ...] | None = None,
    ) -> None:
        # Cards are small integers, so a pile fits in ``bytes``: cheap to slice, join, hash.
        self.columns = columns
        self.down = down
        self.foundations = foundations  # height of each place, engine order
        self.talon = talon
        self.pos = pos  # talon cards on the waste
        # Each column's share of the transposition key (its face-down count, then its
        # cards), kept up to date by ``apply`` for the columns a move changes.
        self.column_keys = (
            column_keys
            if column_keys is not None
            else tuple(column_key(col, d) for col, d in zip(columns, down, strict=True))
        )

    def _fields(self) -> tuple[object, ...]:
        # The column keys too: a test comparing positions checks ``apply`` keeps them right.
        fields = (self.columns, self.down, self.foundations, self.talon, self.pos)
        return (*fields, self.column_keys)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())


def column_key(col: bytes, down: int) -> bytes:
    return bytes((down,)) + col


class SolverMove:
    """One search step; a talon move includes the draws (and recycle) that reach its card."""

    __slots__ = ("count", "draws", "draws_after", "kind", "recycle", "source", "target")

    def __init__(
        self,
        kind: str,  # "t" a talon card, "c" column cards, "f" a foundation card to a column
        source: int,  # talon index, column index or foundation place
        target: int,  # a column index, or -1 for the foundations
        count: int = 1,
        draws: int = 0,  # draws before the play (or before the recycle)
        recycle: bool = False,
        draws_after: int = 0,  # draws after the recycle
    ) -> None:
        self.kind = kind
        self.source = source
        self.target = target
        self.count = count
        self.draws = draws
        self.recycle = recycle
        self.draws_after = draws_after

    def __repr__(self) -> str:
        return (
            f"SolverMove({self.kind!r}, {self.source}, {self.target}, {self.count}, "
            f"{self.draws}, {self.recycle}, {self.draws_after})"
        )

    def tokens(self, place: int) -> list[str]:
        """Engine notation; ``place`` is the foundation place the card lands on or leaves."""
        out = ["d"] * self.draws
        if self.recycle:
            out.append("r")
            out += ["d"] * self.draws_after
        target = "f" + str(place + 1) if self.target < 0 else "c" + str(self.target + 1)
        if self.kind == "t":
            out.append("w>" + target)
        elif self.kind == "f":
            out.append(f"f{place + 1}>{target}")
        else:
            amount = f":{self.count}" if self.count != 1 else ""
            out.append(f"c{self.source + 1}{amount}>{target}")
        return out


def rules_of(game: Klondike) -> Rules:
    return Rules(game.kind, game.draw, game.scoring is Scoring.VEGAS)


def position_of(game: Klondike) -> Position:
    talon = bytes(game.waste) + bytes(reversed(game.stock))
    return Position(
        tuple(bytes(col) for col in game.columns),
        tuple(game.down),
        tuple(game.foundations),
        talon,
        len(game.waste),
    )


# The cards of the other colour one rank higher: where a card may be built.
PARENTS: tuple[tuple[Card, ...], ...] = tuple(
    ()
    if RANK_OF[card] == KING
    else tuple(s * 13 + RANK_OF[card] for s in range(4) if IS_RED[s * 13] != IS_RED[card])
    for card in range(52)
)


# The reverse: the cards that may be built on a card.
CHILDREN: tuple[tuple[Card, ...], ...] = tuple(
    ()
    if RANK_OF[card] == 1
    else tuple(s * 13 + RANK_OF[card] - 2 for s in range(4) if IS_RED[s * 13] != IS_RED[card])
    for card in range(52)
)


def fits(card: Card, target: Card) -> bool:
    return RANK_OF[target] == RANK_OF[card] + 1 and IS_RED[target] != IS_RED[card]


def accepts(col: bytes, card: Card) -> bool:
    if not col:
        return RANK_OF[card] == KING
    top = col[-1]
    return RANK_OF[top] == RANK_OF[card] + 1 and IS_RED[top] != IS_RED[card]


def foundation_place(rules: Rules, foundations: tuple[int, ...], card: Card) -> int:
    """The place a card goes to (DS-FND-3: first fitting place of its row), or -1."""
    per = rules.places_per_suit
    first = SUIT_OF[card] * per
    wanted = RANK_OF[card] - 1
    for place in range(first, first + per):
        if foundations[place] == wanted:
            return place
    return -1


def movable_start(rules: Rules, col: bytes, down: int) -> int:
    if not rules.ordered_groups:
        return down
    return _group_start(col, down)


# The same columns come back in position after position, so the walk down the group is
# worth remembering.
@lru_cache(maxsize=1 << 16)
def _group_start(col: bytes, down: int) -> int:
    start = len(col) - 1
    while start > down and fits(col[start], col[start - 1]):
        start -= 1
    return start


@lru_cache(maxsize=65536)
def talon_reach(
    size: int, pos: int, draw: int, can_recycle: bool
) -> tuple[tuple[int, int, bool, int], ...]:
    """Talon cards that draws can bring to the top: (index, draws, recycle, draws after).

    The cheapest way is listed for each card: the current pass first, then (Normal
    scoring) the pass after a recycle.
    """
    found: list[tuple[int, int, bool, int]] = []
    seen: set[int] = set()
    p, draws = pos, 0
    if p > 0:
        found.append((p - 1, 0, False, 0))
        seen.add(p - 1)
    while p < size:
        p = min(p + draw, size)
        draws += 1
        if p - 1 not in seen:
            found.append((p - 1, draws, False, 0))
            seen.add(p - 1)
    if can_recycle and size:
        q, after = 0, 0
        while q < size:
            q = min(q + draw, size)
            after += 1
            if q - 1 not in seen:
                found.append((q - 1, draws, True, after))
                seen.add(q - 1)
    return tuple(found)


def column_targets(columns: tuple[bytes, ...]) -> dict[Card, list[int]]:
    """For each card, the columns it may be built on; Kings get the empty columns."""
    by_top: dict[Card, list[int]] = {}
    empties: list[int] = []
    for j, col in enumerate(columns):
        if col:
            by_top.setdefault(col[-1], []).append(j)
        else:
            empties.append(j)
    targets: dict[Card, list[int]] = {}
    for top, cols in by_top.items():
        if RANK_OF[top] > 1:
            for card in CHILDREN[top]:
                targets.setdefault(card, []).extend(cols)
    if empties:
        for suit in range(4):
            targets[suit * 13 + KING - 1] = empties
    return targets


def all_moves(rules: Rules, position: Position) -> list[SolverMove]:
    """Every move the rules allow, talon cards reached by draws included."""
    columns, founds = position.columns, position.foundations
    targets = column_targets(columns)
    per = rules.places_per_suit
    # The cards that fit on a foundation: the next card of every place.
    going_home = {(place // per) * 13 + h for place, h in enumerate(founds) if h < KING}
    nowhere: list[int] = []
    moves: list[SolverMove] = []
    talon = position.talon
    for index, draws, recycle, after in talon_reach(
        len(talon), position.pos, rules.draw, rules.can_recycle
    ):
        card = talon[index]
        if card in going_home:
            moves.append(SolverMove("t", index, -1, 1, draws, recycle, after))
        for j in targets.get(card, nowhere):
            moves.append(SolverMove("t", index, j, 1, draws, recycle, after))
    for i, col in enumerate(columns):
        if not col:
            continue
        if col[-1] in going_home:
            moves.append(SolverMove("c", i, -1))
        size = len(col)
        for start in range(movable_start(rules, col, position.down[i]), size):
            for j in targets.get(col[start], nowhere):
                if j != i:
                    moves.append(SolverMove("c", i, j, size - start))
    for place, height in enumerate(founds):
        if height:
            for j in targets.get((place // per) * 13 + height - 1, nowhere):
                moves.append(SolverMove("f", place, j))
    return moves


def apply(rules: Rules, position: Position, move: SolverMove) -> tuple[Position, int]:
    """The position after ``move`` and the foundation place it used (-1 if none)."""
    columns = list(position.columns)
    keys = list(position.column_keys)
    down = position.down
    founds = position.foundations
    talon, pos = position.talon, position.pos
    place = -1
    kind = move.kind
    if kind == "t":
        index = move.source
        moving = talon[index : index + 1]
        talon = talon[:index] + talon[index + 1 :]
        pos = index
    elif kind == "c":
        i = move.source
        col = columns[i]
        cut = len(col) - move.count
        moving = col[cut:]
        columns[i] = col = col[:cut]
        if down[i] and down[i] >= cut:
            down = (*down[:i], max(cut - 1, 0), *down[i + 1 :])
        keys[i] = column_key(col, down[i])
    else:
        place = move.source
        per = rules.places_per_suit
        moving = bytes(((place // per) * 13 + founds[place] - 1,))
        founds = (*founds[:place], founds[place] - 1, *founds[place + 1 :])
    target = move.target
    if target < 0:
        place = foundation_place(rules, founds, moving[0])
        founds = (*founds[:place], founds[place] + 1, *founds[place + 1 :])
    else:
        columns[target] = columns[target] + moving
        keys[target] = keys[target] + moving
    return Position(tuple(columns), down, founds, talon, pos, tuple(keys)), place


def is_won(position: Position) -> bool:
    return all(height == KING for height in position.foundations)
