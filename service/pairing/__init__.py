"""Quick pairing: a player asks to race now in a mode, and waves pair waiting players of
close rating into rated two-player races (docs/protocol.md, "Quick pairing").

Seeks wait in the store's pool (``store.seeks``), shared by every instance. Each
instance runs a wave every ``pairing_wave_seconds``; a mode's wave runs on one instance
at a time (the mode's lock), and each pair is taken out of the pool in one atomic step
after its race is made, so nobody is paired twice and nobody is lost between instances.
Both players are told at once: a ``paired`` message on the topic of each seek (heard by
the WebSocket that asked, on whichever instance), and the seek itself, which a REST
client polls.

The race token of a paired seat is derived from the player token that asked and the
seek's id: the seek keeps only its hash, and only that player token can compute it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

import orjson

from .. import engine
from ..config import Settings
from ..errors import ServiceError, from_store
from ..players import Players
from ..players.ratings import Ratings
from ..protocol import ErrorCode
from ..races.lobby import RaceLobby
from ..store import Store, StoreUnavailable, hash_token
from ..store.seeks import KEPT_SECONDS, Seek, mode_of_seek
from ..support.ids import derived_token, new_id
from ..support.tasks import cancel_and_wait
from .waves import Window, match

log = logging.getLogger("service.pairing")

MODES = engine.Mode.all()
# A wave that takes longer than this (a stalled store) lets another instance take over.
_LOCK_MS = 10_000


def seek_topic(seek_id: str) -> str:
    return f"seek:{seek_id}"


def seat_token(player_token: str, seek_id: str) -> str:
    return derived_token(player_token, "seek", seek_id)


def view(seek: Seek, player_token: str | None) -> dict[str, Any]:
    """The seek as its player reads it, with the race token when ``player_token`` is the
    one that asked."""
    race = None
    if seek.paired is not None:
        token = seat_token(player_token, seek.seek_id) if player_token else None
        if token is not None and hash_token(token) != seek.token_hash:
            token = None
        race = {**seek.paired, "player_token": token}
    return {
        "seek_id": seek.seek_id,
        "mode": seek.mode,
        "status": seek.status,
        "rating": round(seek.rating),
        "since": seek.since_ms,
        "race": race,
    }


class Pairing:
    def __init__(
        self,
        store: Store,
        lobby: RaceLobby,
        players: Players,
        ratings: Ratings,
        settings: Settings,
        clock: Callable[[], int],
    ) -> None:
        self.store = store
        self.seeks = store.seeks
        self.lobby = lobby
        self.players = players
        self.ratings = ratings
        self.settings = settings
        # Milliseconds of server time.
        self.clock = clock
        self.window = Window(settings.pairing_window, settings.pairing_window_growth)
        self.owner = new_id(9)
        # Seeks of this instance's WebSockets -> when they were last renewed (monotonic).
        self.live: dict[str, float] = {}
        self._task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ players

    async def prepare(self, token: str | None, mode_text: str) -> Seek:
        """A new seek of the player of ``token`` in ``mode_text``, not yet in the pool."""
        if token is None:
            raise ServiceError(
                ErrorCode.UNAUTHORIZED, 401, "quick pairing needs a player token (POST /players)"
            )
        player = await self.players.authenticate(token)
        mode = engine.Mode.find(mode_text, MODES)
        if mode is None:
            raise ServiceError(
                ErrorCode.BAD_MESSAGE, 422, "mode is one of " + ", ".join(map(str, MODES))
            )
        standing = await self.ratings.standing(player.player_id, str(mode))
        seek_id = f"{mode}-{new_id(9)}"
        return Seek(
            seek_id=seek_id,
            mode=str(mode),
            player_id=player.player_id,
            name=player.name,
            rating=float(standing["rating"]),
            since_ms=self.clock(),
            token_hash=hash_token(seat_token(token, seek_id)),
        )

    async def submit(self, seek: Seek) -> None:
        """Puts a prepared seek in its pool; ``already_seeking`` when the player has one
        waiting, in any mode (nothing changes)."""
        waiting = await from_store(self.seeks.add(seek, self.settings.pairing_seek_seconds))
        if waiting is not None:
            mode = mode_of_seek(waiting)
            raise ServiceError(
                ErrorCode.ALREADY_SEEKING,
                409,
                f"you are already seeking a {mode} race: cancel that seek first",
                seek_id=waiting,
                message_en=f"You are already waiting for a {mode} race.",
                message_fi=f"Odotat jo {mode}-kilpailua.",
            )

    async def seek(self, token: str | None, mode_text: str) -> dict[str, Any]:
        seek = await self.prepare(token, mode_text)
        await self.submit(seek)
        return view(seek, token)

    async def _own(self, seek_id: str, token: str | None) -> tuple[str, Seek]:
        player = await self.players.authenticate(token)
        seek = None
        if mode_of_seek(seek_id) in {str(m) for m in MODES}:
            seek = await from_store(self.seeks.get(seek_id))
        if seek is None:
            raise ServiceError(ErrorCode.NOT_FOUND, 404, "no such seek (or it expired)")
        if seek.player_id != player.player_id:
            raise ServiceError(
                ErrorCode.NOT_YOUR_SEEK,
                403,
                "this seek is another player's",
                message_en="This is another player's request to race.",
                message_fi="Tämä on toisen pelaajan kilpailupyyntö.",
            )
        return player.player_id, seek

    async def read(self, seek_id: str, token: str | None) -> dict[str, Any]:
        """The seek, renewed while it waits (a REST client polls to keep it)."""
        _, seek = await self._own(seek_id, token)
        if seek.status == "waiting":
            await from_store(self.seeks.renew(seek_id, self.settings.pairing_seek_seconds))
        return view(seek, token)

    async def cancel(self, seek_id: str, token: str | None) -> dict[str, Any]:
        """Cancels a waiting seek; one already paired stays paired (its answer says so)."""
        player_id, _ = await self._own(seek_id, token)
        await from_store(self.seeks.cancel(seek_id, player_id))
        self.live.pop(seek_id, None)
        _, seek = await self._own(seek_id, token)
        return view(seek, token)

    # ------------------------------------------------------------------ waves

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def close(self) -> None:
        if self._task is not None:
            await cancel_and_wait(self._task)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.settings.pairing_wave_seconds)
            try:
                await self.wave()
                await self._renew_live()
            except (ServiceError, StoreUnavailable) as exc:
                log.warning("pairing wave failed: %s", exc)
            except Exception:
                log.exception("pairing wave failed")

    async def _renew_live(self) -> None:
        ttl = self.settings.pairing_seek_seconds
        due = time.monotonic() - ttl / 3
        for seek_id, renewed in list(self.live.items()):
            if renewed <= due and seek_id in self.live:
                await self.seeks.renew(seek_id, ttl)
                self.live[seek_id] = time.monotonic()

    async def wave(self) -> int:
        """Pairs what can be paired in every mode; how many pairs were made."""
        made = 0
        for mode in MODES:
            made += await self._wave(mode)
        return made

    async def _wave(self, mode: engine.Mode) -> int:
        name = str(mode)
        # Most waves find nobody to pair: they read one count, and write nothing.
        if await self.seeks.count(name) < 2:
            return 0
        if not await self.seeks.lock(name, self.owner, _LOCK_MS):
            return 0
        made = 0
        try:
            waiting = await self.seeks.waiting(name)
            for a, b in match(waiting, self.clock(), self.window) if len(waiting) > 1 else []:
                made += await self._pair(mode, a, b)
        finally:
            await self.seeks.unlock(name, self.owner)
        return made

    async def _pair(self, mode: engine.Mode, a: Seek, b: Seek) -> int:
        """Makes the race of ``a`` and ``b``, then takes both out of the pool at once; a
        seek cancelled meanwhile calls the race off (told to nobody) and leaves the other
        seek waiting for the next wave.

        The race names ``a`` (``pair_of``) and is rated only if, when it ends, ``a`` is
        paired with it: a store that fails while the pair is taken, or an instance that
        stops before, leaves a race nobody was told of, and it must not rate them."""
        doc = await self.lobby.create_paired(
            mode,
            [(a.name, a.token_hash, a.player_id), (b.name, b.token_hash, b.player_id)],
            pair_of=a.seek_id,
        )
        seats = []
        for seat, other in ((doc.players[0], b), (doc.players[1], a)):
            seats.append(
                {
                    "race_id": doc.race_id,
                    "game_id": seat.game_id,
                    "player_id": seat.player_id,
                    "opponent": {"name": other.name, "rating": round(other.rating)},
                }
            )
        texts = [orjson.dumps(seat).decode() for seat in seats]
        # The seeks outlive the race, whose end reads its pairing back.
        now = self.clock()
        kept = KEPT_SECONDS + max(0, (doc.ends_at or now) - now) // 1000
        if not await self.seeks.pair(a, b, texts[0], texts[1], kept):
            await self.lobby.updates.call_off(doc.race_id)
            return 0
        for seek, text in ((a, texts[0]), (b, texts[1])):
            await self.store.publish(seek_topic(seek.seek_id), text.encode())
        return 1
