"""Races through the SDK: REST lobby calls, ``RaceSession`` commands and live progress."""

from __future__ import annotations

import pytest
from solitaire_client import (
    Connection,
    GameSession,
    ProtocolError,
    RaceSession,
    ServiceClient,
    Unauthorized,
)


async def test_race_from_lobby_to_ranking(service_url: str) -> None:
    async with (
        ServiceClient(service_url) as ann_client,
        ServiceClient(service_url) as bob_client,
        ServiceClient(service_url) as public,
    ):
        ann = await ann_client.create_race("Ann", game="DS", draw=3, time_limit_seconds=600)
        bob = await bob_client.join_race(ann.join_code.lower(), "Bob")
        assert bob.race_id == ann.race_id and bob.game_id != ann.game_id
        assert ann.race.status == "lobby" and ann.race.host == ann.player_id

        async with (
            Connection(service_url) as ann_ws,
            Connection(service_url) as bob_ws,
            RaceSession(service_url, ann.race_id) as spectator,
        ):
            ann_race = await RaceSession(
                race_id=ann.race_id, token=ann.player_token, connection=ann_ws
            ).start()
            bob_race = await RaceSession(
                race_id=bob.race_id, token=bob.player_token, connection=bob_ws
            ).start()
            assert ann_race.you is not None and ann_race.you.game_id == ann.game_id
            assert spectator.you is None
            with pytest.raises(Unauthorized):
                await spectator.ready()
            with pytest.raises(ProtocolError) as not_host:
                await bob_race.start_race()
            assert not_host.value.code == "not_host"

            await ann_race.ready()
            await bob_race.ready()  # everybody ready: the countdown starts
            running = await spectator.wait_for(lambda race: race.status == "running")
            assert running.start_at is not None and running.ends_at is not None

            # A race game is private to its player until the race is over.
            with pytest.raises(ProtocolError) as private:
                await public.get_state(ann.game_id)
            assert private.value.code == "race_running"

            game = await GameSession(
                game_id=ann.game_id, token=ann.player_token, connection=ann_ws
            ).start()
            for _ in range(3):
                await game.play("d")
            progress = await bob_race.wait_for(
                lambda race: next(p for p in race.players if p.name == "Ann").moves == 3
            )
            assert [p.name for p in progress.players] == ["Ann", "Bob"]
            # The spectator's connection gets the same progress, maybe a moment later.
            seen = await spectator.wait_for(
                lambda race: next(p for p in race.players if p.name == "Ann").moves == 3
            )
            assert seen.race_id == progress.race_id
            assert spectator.progress[ann.player_id].moves == 3

            await bob_race.resign()
            await ann_race.resign()
            finished = await spectator.wait_for(lambda race: race.result is not None)
            assert finished.status == "finished" and finished.result is not None
            ranking = finished.result.ranking
            assert [entry.name for entry in ranking] == ["Bob", "Ann"]
            assert finished.result.records[ann.player_id].endswith(" d d d resign")
            assert finished.result.code.startswith("DS1-D3N-")
            with pytest.raises(ProtocolError) as over:
                await game.play("d")
            assert over.value.code == "race_over"

            # Over: the game is public, and a rematch keeps the same token working.
            assert (await public.get_state(ann.game_id)).version == 4  # three draws, resign
            rematch = await ann_client.rematch_race(ann.race_id)
            assert rematch.race.race_id != ann.race_id and rematch.race.status == "lobby"
            assert rematch.you is not None
            again = await bob_client.rematch_race(bob.race_id)
            assert again.race.race_id == rematch.race.race_id
            lobby = await ann_client.race_ready(rematch.race.race_id)
            assert next(p for p in lobby.race.players if p.name == "Ann").ready
