"""A burst of clients at the same moment, as after a deploy or a network blip, when every
client of an instance reconnects and subscribes again at once."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from tests.scale.harness import (
    Instance,
    Peer,
    create_game,
    http_client,
    launched,
    private_redis,
)

BURST = 300


@pytest.fixture(scope="module")
def single(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Instance]:
    workdir = tmp_path_factory.mktemp("bursts")
    with private_redis(workdir, "--appendonly", "no") as redis:
        instance = Instance("burst", redis.url, workdir)
        with launched(instance):
            yield instance


async def test_a_burst_of_subscriptions_is_served(single: Instance) -> None:
    """300 subscriptions at once need more Redis connections than a pool may hold: the
    excess must wait for a free one, not be refused with ``store_unavailable``."""
    async with http_client() as http:
        games = [await create_game(http, single) for _ in range(10)]
    opened: list[Peer] = []
    try:
        opened = list(
            await asyncio.gather(
                *(Peer.open(single, f"burst-{i}", check=False) for i in range(BURST))
            )
        )
        answers = await asyncio.gather(
            *(
                peer.subscribe(games[i % len(games)].game_id, since=None)
                for i, peer in enumerate(opened)
            )
        )
        refused = [a.get("code") for a in answers if a["type"] != "subscribed"]
        assert not refused, f"{len(refused)} of {BURST} subscriptions refused: {refused[:3]}"
    finally:
        await asyncio.gather(*(peer.close() for peer in opened))
