"""Over real HTTP: an analysis whose client closes its connection stops its search (its
worker process ends), and the winnable pools keep being refilled while analyses flood
the service."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx2
import uvicorn

from service.app import create_app
from service.config import Settings
from service.players.attempts import DAILY_MODES
from service.server import server_options
from tests.players.held_search import alive, held, started
from tests.support import free_port

PATIENCE_SECONDS = 120.0


@contextlib.asynccontextmanager
async def _serve(**overrides: Any) -> AsyncIterator[tuple[Any, str]]:
    settings = Settings(
        port=free_port(),
        http_write_rate_per_second=1000,
        http_write_burst=1000,
        **overrides,
    )
    app = create_app(settings)
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host="127.0.0.1",
            port=settings.port,
            log_level="warning",
            **server_options(settings),
        )
    )
    serving = asyncio.create_task(server.serve())
    try:
        await _until("the server to start", lambda: server.started)
        yield app, f"http://127.0.0.1:{settings.port}"
    finally:
        server.should_exit = True
        await serving


async def _until(what: str, check: Any) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + PATIENCE_SECONDS
    while not check():
        assert loop.time() < deadline, f"still waiting for {what}"
        await asyncio.sleep(0.02)


async def _ended_game(http: httpx2.AsyncClient) -> str:
    game = (await http.post("/games", json={"game": "TF"})).json()
    headers = {"authorization": f"Bearer {game['player_token']}"}
    assert (await http.post(f"/games/{game['game_id']}/resign", headers=headers)).is_success
    game_id: str = game["game_id"]
    return game_id


async def _ask_and_leave(port: int, game_id: str, held_searches: Path, searches: int) -> None:
    """Sends an analysis request and closes the connection once its search runs."""
    _, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET /games/{game_id}/analysis HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode("ascii")
    )
    await writer.drain()
    await _until("the search to start", lambda: len(started(held_searches)) == searches)
    writer.close()
    await writer.wait_closed()


async def test_a_client_that_leaves_stops_its_search_and_its_process(held_searches: Path) -> None:
    async with _serve(winnable_pool_size=0, analysis_max_searches=1) as (app, url):
        app.state.analysis.searches.work = held
        metrics = app.state.analysis.metrics
        async with httpx2.AsyncClient(base_url=url, timeout=30) as http:
            game_id = await _ended_game(http)
            await _ask_and_leave(int(url.rsplit(":", 1)[1]), game_id, held_searches, 1)
            [pid] = started(held_searches)
            await _until("the search's process to end", lambda: not alive(pid))
            assert metrics.analyses.labels("cancelled")._value.get() == 1
            # The slot is free for the next request, which a new process serves.
            await _until("the slot", lambda: app.state.analysis.searches.running == 0)
            (held_searches / "release").touch()
            answered = await http.get(f"/games/{game_id}/analysis")
            assert answered.status_code == 200, answered.text
            assert len(started(held_searches)) == 2


async def test_the_pools_are_refilled_under_a_flood_of_analyses(held_searches: Path) -> None:
    async with _serve(
        winnable_pool_size=1,
        winnable_refill_poll_seconds=0.2,
        analysis_max_searches=1,
        analyses_per_address_per_minute=1000,
    ) as (app, url):
        analysis = app.state.analysis
        analysis.searches.work = held
        async with httpx2.AsyncClient(base_url=url, timeout=60) as http:
            games = [await _ended_game(http) for _ in range(5)]
            # The one search slot spends CPU for ever; every other analysis is busy.
            first = asyncio.create_task(http.get(f"/games/{games[0]}/analysis"))
            await _until("the search to start", lambda: started(held_searches))
            answers = await asyncio.gather(*(http.get(f"/games/{g}/analysis") for g in games[1:]))
            assert {a.json()["code"] for a in answers} == {"busy"}
            # The daily modes' pools (refilled from the start) fill meanwhile.
            records = analysis.records

            async def pooled() -> int:
                lengths = [await records.queue_length(f"winnable:{m}") for m in DAILY_MODES]
                return sum(lengths)

            # Whatever was certified before the flood does not count.
            for mode in DAILY_MODES:
                while await records.queue_pop(f"winnable:{mode}") is not None:
                    pass
            loop = asyncio.get_running_loop()
            deadline = loop.time() + PATIENCE_SECONDS
            while await pooled() < 1:
                assert loop.time() < deadline, "no deal certified while analyses flooded"
                await asyncio.sleep(0.1)
            assert not first.done(), "the held search still runs"
            (held_searches / "release").touch()
            assert (await first).status_code == 200
