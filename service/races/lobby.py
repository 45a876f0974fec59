"""The lobby of a race: creating it, joining by code, getting ready, the start, and the
rematch.

The deal comes from a secret 128-bit seed chosen when the race is created; its code
stays in the document, never in a message, until the race is over: anyone who knew it
could compute every hidden card.
"""

from __future__ import annotations

import secrets
from typing import Any

from .. import engine
from ..analysis import Analysis
from ..config import Settings
from ..errors import ServiceError, from_store
from ..games import Games
from ..guards.quotas import AddressQuota
from ..protocol import ErrorCode
from ..store import StoredRace, hash_token
from ..store.race_document import RaceDocument, RacePlayer
from ..support.ids import derived_token, new_id
from .seats import find_player, new_player, seat_of, you
from .updates import RaceUpdates

# 32 symbols without the look-alikes I/1 and O/0: 5 bits each, 40 bits a code.
JOIN_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
JOIN_CODE_LENGTH = 8


def _new_join_code() -> str:
    # One random byte a letter, its low 5 bits (256 is a multiple of 32: uniform); one
    # call for the operating system's randomness, where ``secrets.choice`` made two a
    # letter.
    return "".join(JOIN_ALPHABET[byte & 31] for byte in secrets.token_bytes(JOIN_CODE_LENGTH))


class RaceLobby:
    def __init__(
        self, updates: RaceUpdates, games: Games, settings: Settings, analysis: Analysis
    ) -> None:
        self.updates = updates
        self.games = games
        self.store = games.store
        self.settings = settings
        self.analysis = analysis

    async def create(
        self,
        *,
        account: str = "",
        name: str,
        game: str,
        draw: int,
        scoring: str,
        max_players: int,
        time_limit_seconds: int | None,
        winnable: bool = False,
        rated: bool = False,
    ) -> dict[str, Any]:
        if rated and not account:
            raise ServiceError(
                ErrorCode.UNAUTHORIZED, 401, "a rated race needs its host's player token"
            )
        if max_players > self.settings.max_race_players:
            raise ServiceError(
                ErrorCode.BAD_MESSAGE,
                422,
                f"a race has at most {self.settings.max_race_players} players on this server",
            )
        token = new_id(32)
        player = new_player(name, hash_token(token), account)
        doc = await self._create(
            game=game,
            draw=draw,
            scoring=scoring,
            max_players=max_players,
            time_limit_seconds=time_limit_seconds,
            players=[player],
            host=player.player_id,
            winnable=winnable,
            rated=rated,
        )
        await self._create_games(doc, [player])
        return await self._joined(doc, player, token)

    async def _create(
        self,
        *,
        game: str,
        draw: int,
        scoring: str,
        max_players: int,
        time_limit_seconds: int | None,
        players: list[RacePlayer],
        host: str,
        previous: str | None = None,
        winnable: bool = False,
        rated: bool = False,
        code: engine.GameCode | None = None,
        race_id: str | None = None,
        started: bool = False,
        reveal_at: int | None = None,
        heat_of: str | None = None,
        pair_of: str | None = None,
    ) -> RaceDocument:
        """Writes a new race (``started``: its seats ready and its countdown running from
        ``reveal_at``, when its players learn of it, or from now)."""
        try:
            if code is None and winnable:
                code = await self.analysis.take_winnable(engine.Mode.named(game, draw, scoring))
            elif code is None:
                code = engine.GameCode.random_secret(
                    engine.GameKind(game), draw, engine.Scoring(scoring)
                )
        except engine.InvalidCodeError as exc:
            raise ServiceError(ErrorCode.BAD_CODE, 422, str(exc)) from exc
        race_id = race_id or new_id(12)
        for _ in range(20):
            join_code = _new_join_code()
            doc = RaceDocument(
                race_id=race_id,
                join_code=join_code,
                game=game,
                draw=draw,
                scoring=scoring,
                max_players=max_players,
                time_limit_seconds=time_limit_seconds,
                host=host,
                code=str(code),
                created_at=self.updates.clock(),
                start_at=None,
                ends_at=None,
                finished_at=None,
                players=players,
                previous_race_id=previous,
                rematch_race_id=None,
                winnable=winnable,
                rated=rated,
                heat_of=heat_of,
                pair_of=pair_of,
            )
            if started:
                for player in players:
                    player.ready = True
                revealed = max(doc.created_at, reveal_at or 0)
                self._start(doc, revealed)
                # Without a countdown there is no start to announce: nobody learns of the
                # race before it runs, so it is written running.
                doc.announced = doc.start_at is not None and doc.start_at <= revealed
            created = await from_store(
                self.store.create_race(StoredRace(race_id, 0, doc.to_json()), join_code),
                self.games.store_refusal,
            )
            if created:
                return doc
        raise ServiceError(
            ErrorCode.STORE_UNAVAILABLE, 503, "could not allocate a join code; retry"
        )

    async def _create_games(self, doc: RaceDocument, players: list[RacePlayer]) -> None:
        """Each player's game exists from joining on, so it is there the moment the race
        starts; until then nobody may read it (see ``Races.stage``)."""
        await self._seat_games(engine.GameCode.parse(doc.code), doc.race_id, players)

    async def _seat_games(
        self,
        code: engine.GameCode,
        race_id: str,
        players: list[RacePlayer],
        opening: str | None = None,
    ) -> None:
        seats = [(p.game_id, p.token_hash, p.account) for p in players]
        await self.games.create_race_games(code, race_id, seats, opening)

    async def answer(
        self, doc: RaceDocument, view: dict[str, Any] | None, token: str | None
    ) -> dict[str, Any]:
        """A command's answer: the race (as just pushed, if it changed) and who you are."""
        race = view if view is not None else await self.updates.view(doc)
        return {"race": race, "you": you(find_player(doc, token))}

    async def _joined(
        self,
        doc: RaceDocument,
        player: RacePlayer,
        token: str,
        view: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        return {
            "race_id": doc.race_id,
            "join_code": doc.join_code,
            "player_id": player.player_id,
            "player_token": token,
            "game_id": player.game_id,
            "race": view if view is not None else await self.updates.view(doc),
        }

    async def join(
        self,
        join_code: str,
        name: str,
        client: str = "",
        account: str = "",
        account_token: str = "",
    ) -> dict[str, Any]:
        """Joins the race of ``join_code``; a ``client`` address with too many wrong codes
        in the current minute is refused without a look-up, so codes cannot be guessed.

        A player (``account``, signed in with ``account_token``) holds one seat per race:
        the device that took it is answered the same seat again (its race token follows
        from its player token), any other is refused ``already_in_race``.
        """
        limit = self.settings.code_failures_per_minute
        now = self.updates.clock() / 1000
        wrong = AddressQuota(self.store, "wrong join codes", client, limit, now=now)
        # Every try counts until its code proves right: tries sent together cannot pass
        # the limit.
        await wrong.take()
        code = "".join(join_code.split()).replace("-", "").upper()
        race_id = await from_store(self.store.race_of_join_code(code), self.games.store_refusal)
        if race_id is None:
            raise ServiceError(ErrorCode.NOT_FOUND, 404, "no race with this join code")
        await wrong.give_back()
        token = derived_token(account_token, "race", race_id) if account else new_id(32)
        player = new_player(name, hash_token(token), account)
        _, current = await self.updates.load(race_id)
        seated = seat_of(current, player)
        if seated is not None:
            return await self._joined(current, seated, token)
        # The game first: a join that fails after it leaves only an unused game behind
        # (which expires), never a seat without a game.
        await self._create_games(current, [player])
        seat = [player]

        def add(doc: RaceDocument, at: int) -> bool:
            found = seat_of(doc, player)
            if found is not None:
                seat[0] = found  # taken by an earlier try of this request
                return False
            if doc.start_at is not None:
                raise ServiceError(ErrorCode.RACE_STARTED, 409, "the race has already started")
            if len(doc.players) >= doc.max_players:
                raise ServiceError(ErrorCode.RACE_FULL, 409, "the race is full")
            doc.players.append(player)
            return True

        doc, view = await self.updates.update(race_id, add)
        return await self._joined(doc, seat[0], token, view)

    async def set_ready(self, race_id: str, token: str | None, ready: bool) -> dict[str, Any]:
        def mark(doc: RaceDocument, at: int) -> bool:
            player = find_player(doc, token)
            if doc.start_at is not None:
                raise ServiceError(ErrorCode.RACE_STARTED, 409, "the race has already started")
            if player.ready == ready:
                return False
            player.ready = ready
            if len(doc.players) >= 2 and all(p.ready for p in doc.players):
                self._start(doc, at)
            return True

        doc, view = await self.updates.update(race_id, mark)
        await self.updates.after_start(doc)
        return await self.answer(doc, view, token)

    async def start(self, race_id: str, token: str | None) -> dict[str, Any]:
        def begin(doc: RaceDocument, at: int) -> bool:
            player = find_player(doc, token)
            if player.player_id != doc.host:
                raise ServiceError(ErrorCode.NOT_HOST, 403, "only the host can start the race")
            if doc.start_at is not None:
                raise ServiceError(ErrorCode.RACE_STARTED, 409, "the race has already started")
            self._start(doc, at)
            return True

        doc, view = await self.updates.update(race_id, begin)
        await self.updates.after_start(doc)
        return await self.answer(doc, view, token)

    async def create_paired(
        self,
        mode: engine.Mode,
        seats: list[tuple[str, str, str]],
        time_limit_seconds: int | None = None,
        reveal_at: int | None = None,
        heat_of: str | None = None,
        pair_of: str | None = None,
    ) -> RaceDocument:
        """A rated race of two seats (name, race token hash, player id) made by quick
        pairing or an arena's wave, its countdown running: a certified deal when one is
        ready, else a secret one, dealt ahead when one is (``games.openings``); both
        secret until the race is over. Its time limit is quick pairing's unless given.
        One made before its players learn of it (an arena's first heats) counts down from
        ``reveal_at``. It names what it is made for: an arena's heat its arena
        (``heat_of``), a quick pairing its first seat's seek (``pair_of``)."""
        certified = await self.analysis.take_winnable_now(mode)
        code, opening = (certified, None) if certified else self.games.openings.take(mode)
        players = [new_player(name, token_hash, account) for name, token_hash, account in seats]
        race_id = new_id(12)
        # The games first: a race is never seen started without them. The race is
        # written once, started, with nobody yet to tell.
        await self._seat_games(code, race_id, players, opening)
        doc = await self._create(
            game=mode.game.value,
            draw=mode.draw,
            scoring=mode.scoring.value,
            max_players=2,
            time_limit_seconds=time_limit_seconds or self.settings.pairing_time_limit_seconds,
            players=players,
            host=players[0].player_id,
            winnable=certified is not None,
            rated=True,
            code=code,
            race_id=race_id,
            started=True,
            reveal_at=reveal_at,
            heat_of=heat_of,
            pair_of=pair_of,
        )
        await self.updates.after_start(doc)
        return doc

    def _start(self, doc: RaceDocument, at: int) -> None:
        doc.start_at = at + int(self.settings.race_countdown_seconds * 1000)
        if doc.time_limit_seconds:
            doc.ends_at = doc.start_at + doc.time_limit_seconds * 1000
        for player in doc.players:
            player.state = "playing"

    async def rematch(self, race_id: str, token: str | None) -> dict[str, Any]:
        _, doc = await self.updates.load(race_id)
        find_player(doc, token)
        if doc.finished_at is None:
            raise ServiceError(
                ErrorCode.RACE_NOT_FINISHED, 409, "a rematch is offered once it is over"
            )
        if doc.rematch_race_id is None:
            players = [new_player(p.name, p.token_hash, p.account) for p in doc.players]
            for before, again in zip(doc.players, players, strict=True):
                again.player_id = before.player_id
            new_doc = await self._create(
                game=doc.game,
                draw=doc.draw,
                scoring=doc.scoring,
                max_players=doc.max_players,
                time_limit_seconds=doc.time_limit_seconds,
                players=players,
                host=doc.host,
                previous=race_id,
                winnable=doc.winnable,
                rated=doc.rated,
            )
            await self._create_games(new_doc, players)

            def link(d: RaceDocument, at: int) -> bool:
                if d.rematch_race_id:
                    return False
                d.rematch_race_id = new_doc.race_id
                return True

            doc, _ = await self.updates.update(race_id, link)
        assert doc.rematch_race_id is not None  # linked just now, or by another request
        _, rematch = await self.updates.load(doc.rematch_race_id)
        return {"race": await self.updates.view(rematch), "you": you(find_player(rematch, token))}
