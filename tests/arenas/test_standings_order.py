"""The standings as the store keeps them (``Arenas.standings``, ``rank``, ``ranks``): on
both stores, through joins and score changes with ties, the order of a plain sort of
the scores (score, then player id, both descending, as Redis's ZREVRANGE orders them)."""

from __future__ import annotations

import random

from service.store import Store
from service.store.arenas import Swap

ARENA = "order"
PAGE = 7


def expected(scores: dict[str, float]) -> list[str]:
    return [p for _, p in sorted(((s, p) for p, s in scores.items()), reverse=True)]


async def test_standings_and_ranks_follow_every_score_change(store: Store) -> None:
    arenas = store.arenas
    rng = random.Random(35)
    scores: dict[str, float] = {}
    for step in range(120):
        # Joins at score 0 (many ties, ordered by id), then points won, one or two
        # players a swap as a heat's counting changes them.
        if step < 40 or rng.random() < 0.2:
            changed = {f"p{len(scores):03d}": 0.0}
        else:
            players = rng.sample(sorted(scores), 2)
            changed = {p: scores[p] + rng.choice([0.0, 1.0, 2.0, 2.5]) for p in players}
        assert await arenas.swap(ARENA, Swap(scores=changed), 600)
        scores.update(changed)
        order = expected(scores)
        if step % 10 == 9:
            assert await arenas.standings(ARENA, 0, len(order) - 1) == order
        start = rng.randrange(len(order))
        assert await arenas.standings(ARENA, start, start + PAGE - 1) == order[start:][:PAGE]
        named = [*rng.sample(order, min(3, len(order))), "nobody"]
        assert await arenas.ranks(ARENA, named) == {p: order.index(p) for p in named[:-1]}
        assert await arenas.rank(ARENA, named[0]) == order.index(named[0])
    assert await arenas.rank(ARENA, "nobody") is None
    assert await arenas.standings(ARENA, len(scores), len(scores) + PAGE) == []
    assert await arenas.standings("no-such-arena", 0, PAGE) == []
    assert await arenas.ranks("no-such-arena", ["p000"]) == {}
    # As ZREVRANGE: a stop of -1 is the last rank.
    assert await arenas.standings(ARENA, len(scores) - 2, -1) == expected(scores)[-2:]
