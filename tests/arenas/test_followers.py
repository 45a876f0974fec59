"""The instance's followers of arena standings (``ws.following``): one subscription per
arena and instance, one read and one encoded message per page telling, own lines at
once and pages at most every ``ARENA_PAGE_SECONDS``, and a follower that cannot keep up
cut off without delaying the others."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import orjson
import pytest
from starlette.applications import Starlette

from service.app import create_app
from service.arenas import arena_topic
from service.arenas import heats as heats_module
from service.config import Settings
from service.support.metrics import Metrics
from service.ws import following as following_module
from service.ws.following import ArenaFollowers, Follower
from service.ws.frames import Outbox
from service.ws.pump import Pump


@pytest.fixture
async def app(store_url: str) -> AsyncIterator[Starlette]:
    settings = Settings(
        store_url=store_url,
        arena_wave_seconds=3600,
        pairing_wave_seconds=3600,
        players_per_hour=1000,
        winnable_pool_size=0,
    )
    application = create_app(settings)
    async with application.router.lifespan_context(application):
        yield application


async def _arena(app: Starlette, joining: int) -> tuple[str, list[dict[str, Any]]]:
    """An arena running now, and its players (joined), each with their player id."""
    state = app.state
    host = await state.players.create("Host")
    made = await state.arenas.create(host["player_token"], "TF.D1N", 0, 30, "Followed")
    arena_id: str = made["arena"]["arena_id"]
    players = []
    for n in range(joining):
        player = await state.players.create(f"P{n}")
        player["player_id"] = await state.players.player_id_of(player["player_token"])
        await state.arenas.join(arena_id, player["player_token"])
        players.append(player)
    return arena_id, players


def _follower(player: dict[str, Any] | None = None, page: int = 1) -> tuple[Follower, list[bytes]]:
    sent: list[bytes] = []
    token = player["player_token"] if player else None
    player_id = player["player_id"] if player else None
    return Follower(page, token, player_id, sent.append), sent


async def _followed_by_all(
    hub: ArenaFollowers, arena_id: str, players: list[dict[str, Any]]
) -> list[tuple[str, dict[str, Any]]]:
    """Every player follows the top page with their token, and a watcher without one;
    what each is sent, in order, as (their name or "watcher", the message)."""
    log: list[tuple[str, dict[str, Any]]] = []

    def following(name: str, player: dict[str, Any] | None) -> Follower:
        token = player["player_token"] if player else None
        player_id = player["player_id"] if player else None
        return Follower(1, token, player_id, lambda b: log.append((name, orjson.loads(b))))

    await hub.add(arena_id, following("watcher", None), "w")
    for player in players:
        await hub.add(arena_id, following(player["name"], player), player["name"])
    return log


def _saying_more(app: Starlette, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every change the arena publishes from now on says more of a wave's pairing
    follows."""
    publish = app.state.arenas.publish

    async def saying_more(arena_id: str, changed: list[str], **_: Any) -> None:
        await publish(arena_id, changed, more=True)

    monkeypatch.setattr(app.state.arenas, "publish", saying_more)


async def _told(hub: ArenaFollowers, arena_id: str) -> None:
    """Until the arena's telling (and any page owed) is over."""
    followed = hub._followed[arena_id]
    for _ in range(200):
        if followed.task is None:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the telling did not end")


async def test_an_instance_listens_once_per_arena_and_shares_each_page_message(
    app: Starlette,
) -> None:
    state = app.state
    hub: ArenaFollowers = state.arena_followers
    arena_id, players = await _arena(app, 4)
    watchers = [_follower() for _ in range(3)]
    ada, ada_sent = _follower(players[0])
    for n, (follower, _) in enumerate([*watchers, (ada, ada_sent)]):
        await hub.add(arena_id, follower, f"f{n}")
    # One subscriber for the four followers.
    assert len(state.games.store._local[arena_topic(arena_id)]) == 1
    assert all(orjson.loads(sent[0])["full"] for _, sent in [*watchers, (ada, ada_sent)])

    await state.arenas.leave(arena_id, players[1]["player_token"])
    await _told(hub, arena_id)
    told = [sent[-1] for _, sent in watchers]
    # The very same bytes: encoded once for the page's followers.
    assert len({id(payload) for payload in told}) == 1
    line = orjson.loads(told[0])
    assert not line["full"] and [r["present"] for r in line["rows"]] == [False]
    assert len(ada_sent) == 2 and orjson.loads(ada_sent[-1])["you"] is None

    for follower, _ in [*watchers, (ada, ada_sent)]:
        await hub.remove(arena_id, follower)
    assert arena_topic(arena_id) not in state.games.store._local
    assert arena_id not in hub._followed


async def test_own_lines_go_at_once_and_a_burst_of_changes_is_told_together(
    app: Starlette, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Long enough for the burst below to come within it on any store.
    monkeypatch.setattr(app.state.settings, "arena_page_seconds", 1.0)
    state = app.state
    hub: ArenaFollowers = state.arena_followers
    arena_id, players = await _arena(app, 6)
    watcher, watched = _follower()
    ada, ada_sent = _follower(players[0])
    await hub.add(arena_id, watcher, "w")
    await hub.add(arena_id, ada, "a")
    # A page told just now: the next changes of the page are owed for a while.
    await state.arenas.leave(arena_id, players[5]["player_token"])
    await _told(hub, arena_id)
    before = len(watched)

    for player in players[1:5]:
        await state.arenas.leave(arena_id, player["player_token"])
    await state.arenas.leave(arena_id, players[0]["player_token"])
    await asyncio.sleep(0)
    while not any(orjson.loads(m)["you"] for m in ada_sent[2:]):
        await asyncio.sleep(0.005)
    # Ada's own line came alone, before her page's lines were due.
    own = orjson.loads(ada_sent[2])
    assert own["rows"] == [] and own["you"]["present"] is False
    await _told(hub, arena_id)
    # The five leaves reached the watcher in one message, not five.
    assert len(watched) == before + 1
    lines = orjson.loads(watched[-1])["rows"]
    assert sorted(r["name"] for r in lines) == ["P0", "P1", "P2", "P3", "P4"]
    page = await state.arenas.standings(arena_id, 1)
    assert all(not r["present"] for r in page["rows"])


async def test_a_follower_that_cannot_keep_up_is_cut_off_and_delays_nobody(
    app: Starlette,
) -> None:
    state = app.state
    settings = Settings(send_queue_size=2)
    hub: ArenaFollowers = state.arena_followers
    arena_id, players = await _arena(app, 3)

    class Stuck:
        """A client that never takes what is sent to it."""

        closed: int | None = None

        async def send_text(self, text: str) -> None:
            await asyncio.Event().wait()

        async def close(self, code: int, reason: str) -> None:
            self.closed = code

    stuck = Stuck()
    pump = Pump(Outbox(stuck, Metrics()), state.games, state.races, settings)  # type: ignore[arg-type]
    pump.start()
    try:
        await hub.add(arena_id, Follower(1, None, None, pump.queue_frame), "s")
        keeping_up, sent = _follower()
        await hub.add(arena_id, keeping_up, "k")
        for player in players:
            await state.arenas.leave(arena_id, player["player_token"])
            await _told(hub, arena_id)
            await state.arenas.join(arena_id, player["player_token"])
            await _told(hub, arena_id)
        assert pump.too_slow
        assert pump.closer is not None
        await asyncio.wait_for(pump.closer, 5)
        assert stuck.closed == 4008
        # Every change reached the follower that keeps up.
        assert len(sent) == 1 + 2 * len(players)
    finally:
        await pump.stop()


async def test_a_wave_tells_every_player_their_heat_before_it_tells_the_page(
    app: Starlette, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Pages could go at every chunk of the wave; two heats a chunk, four chunks.
    monkeypatch.setattr(app.state.settings, "arena_page_seconds", 0.0)
    monkeypatch.setattr(heats_module, "AT_ONCE", 2)
    state = app.state
    hub: ArenaFollowers = state.arena_followers
    arena_id, players = await _arena(app, 8)
    log = await _followed_by_all(hub, arena_id, players)
    del log[:]

    assert await state.arena_waves.wave() == 4
    await _told(hub, arena_id)
    pages = [n for n, (name, message) in enumerate(log) if name == "watcher"]
    # The page once, after the last chunk, with every player playing.
    assert len(pages) == 1
    assert all(row["playing"] for row in log[pages[0]][1]["rows"])
    heats = {name: n for n, (name, message) in enumerate(log) if (message["you"] or {}).get("heat")}
    assert sorted(heats) == sorted(p["name"] for p in players)
    assert max(heats.values()) < pages[0]


async def test_pages_held_for_a_wave_that_never_ends_go_out_after_a_while(
    app: Starlette, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app.state.settings, "arena_page_seconds", 0.0)
    monkeypatch.setattr(following_module, "MAX_PAGES_HELD", 0.3)
    state = app.state
    hub: ArenaFollowers = state.arena_followers
    arena_id, players = await _arena(app, 2)
    watcher, watched = _follower()
    await hub.add(arena_id, watcher, "w")
    # As a wave whose instance stopped before its last chunk leaves it.
    _saying_more(app, monkeypatch)
    await state.arenas.leave(arena_id, players[0]["player_token"])
    await asyncio.sleep(0.1)
    assert len(watched) == 1
    await _told(hub, arena_id)
    assert len(watched) == 2
    assert [row["present"] for row in orjson.loads(watched[-1])["rows"]] == [False]


async def test_changes_owed_before_a_wave_pairs_are_not_held_back_by_its_pairing(
    app: Starlette, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app.state.settings, "arena_page_seconds", 0.3)
    monkeypatch.setattr(following_module, "MAX_PAGES_HELD", 30.0)
    state = app.state
    hub: ArenaFollowers = state.arena_followers
    arena_id, players = await _arena(app, 3)
    watcher, watched = _follower()
    await hub.add(arena_id, watcher, "w")
    # A page told just now: the next change (a leave) is owed until it is due.
    await state.arenas.leave(arena_id, players[0]["player_token"])
    await _told(hub, arena_id)
    await state.arenas.leave(arena_id, players[1]["player_token"])
    # Then a wave's pairing begins: the owed change goes out when due, with the pairing's.
    _saying_more(app, monkeypatch)
    await state.arenas.leave(arena_id, players[2]["player_token"])
    await _told(hub, arena_id)
    told = [orjson.loads(m)["rows"] for m in watched[2:]]
    assert sorted(row["name"] for rows in told for row in rows) == ["P1", "P2"]


async def test_a_wave_that_counts_heats_and_pairs_tells_each_page_once_after_the_new_heats(
    app: Starlette, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The results a wave counts and the heats it then makes reach a page's followers in
    one message, after every new heat was told: pages could go at every change here."""
    monkeypatch.setattr(app.state.settings, "arena_page_seconds", 0.0)
    monkeypatch.setattr(app.state.settings, "race_countdown_seconds", 0.0)
    state = app.state
    hub: ArenaFollowers = state.arena_followers
    arena_id, players = await _arena(app, 4)
    log = await _followed_by_all(hub, arena_id, players)
    assert await state.arena_waves.wave() == 2
    await _told(hub, arena_id)
    for player in players:
        heat = (await state.arenas.view(arena_id, player["player_token"]))["you"]["heat"]
        await state.races.resign(heat["race_id"], heat["player_token"])
    del log[:]

    assert await state.arena_waves.wave() == 2
    await _told(hub, arena_id)
    pages = [n for n, (name, message) in enumerate(log) if name == "watcher"]
    assert len(pages) == 1
    rows = log[pages[0]][1]["rows"]
    assert len(rows) == 4 and all(row["heats"] == 1 and row["playing"] for row in rows)
    new_heats = [n for n, (name, message) in enumerate(log) if (message["you"] or {}).get("heat")]
    assert len(new_heats) >= 4 and max(new_heats) < pages[0]
