"""Head-to-head races: every player gets a game of the same deal, started together.

A race is one JSON document in the store, changed only by compare-and-set, so the
instances that serve its players agree on who joined, who is ready, when it starts and
who finished when. The deal comes from a secret 128-bit seed chosen when the race is
created; its code stays in the document, never in a message, until the race is over:
anyone who knew it could compute every hidden card. Live progress (cards on foundations,
score, moves) is published after each accepted action without touching the document.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

from . import engine
from .config import Settings
from .errors import ServiceError
from .games import Games
from .protocol import ErrorCode
from .quotas import AddressQuota
from .store import CommitStatus, StoredRace, StoreUnavailable, hash_token, race_topic

log = logging.getLogger("service.races")

# 32 symbols without the look-alikes I/1 and O/0: 5 bits each, 40 bits a code.
JOIN_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
JOIN_CODE_LENGTH = 8
_SAVE_ATTEMPTS = 16


def now_ms() -> int:
    return int(time.time() * 1000)


def _new_join_code() -> str:
    return "".join(secrets.choice(JOIN_ALPHABET) for _ in range(JOIN_CODE_LENGTH))


def _status(doc: dict[str, Any], at: int) -> str:
    if doc["finished_at"] is not None:
        return "finished"
    if doc["start_at"] is None:
        return "lobby"
    return "countdown" if at < doc["start_at"] else "running"


def _error(code: ErrorCode, status: int, message: str) -> ServiceError:
    return ServiceError(code, status, message)


def rank_players(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Winners by time to win; then cards on foundations, score, fewer moves."""

    def key(entry: dict[str, Any]) -> tuple[int, int, int, int, int]:
        won = entry["state"] == "won"
        return (
            0 if won else 1,
            entry["finish_ms"] if won else 0,
            -entry["foundations"],
            -entry["score"],
            entry["moves"],
        )

    ranked = sorted(entries, key=key)
    for rank, entry in enumerate(ranked, start=1):
        entry["rank"] = rank
    return ranked


class Races:
    """Race logic; also the ``RaceHooks`` through which ``Games`` asks about race games."""

    def __init__(self, games: Games, settings: Settings) -> None:
        self.games = games
        self.store = games.store
        self.settings = settings
        self._timers: set[asyncio.Task[None]] = set()
        self._player_of_game: dict[str, tuple[str, str]] = {}
        # Where winnable deals come from (set by the application).
        self.deals: Any = None
        games.races = self

    async def close(self) -> None:
        for task in list(self._timers):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # ------------------------------------------------------------------ documents

    async def _load(self, race_id: str) -> tuple[StoredRace, dict[str, Any]]:
        try:
            stored = await self.store.load_race(race_id)
        except StoreUnavailable as exc:
            raise self.games._unavailable(exc) from exc
        if stored is None:
            raise _error(ErrorCode.NOT_FOUND, 404, f"no race with id {race_id!r}")
        doc: dict[str, Any] = orjson.loads(stored.doc)
        for player in doc["players"]:
            self._player_of_game[player["game_id"]] = (race_id, player["player_id"])
        return stored, doc

    async def _update(
        self,
        race_id: str,
        change: Callable[[dict[str, Any], int], bool],
        known: dict[str, engine.Klondike] | None = None,
    ) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """Applies ``change`` (which returns False when there is nothing to save) by CAS.

        Returns the document and the public view pushed with it (None when nothing was
        saved), so a caller answering with the race need not build the view again.
        ``known`` holds games by id as just committed, which need not be read again.
        """
        for _ in range(_SAVE_ATTEMPTS):
            stored, doc = await self._load(race_id)
            at = now_ms()
            if not change(doc, at):
                return doc, None
            self._finish_if_done(doc, at)
            # The result and the view pushed with it share one read of the games.
            wants_result = doc["finished_at"] is not None and "result" not in doc
            progress, actions = await self._progress(doc, wants_result, known)
            if wants_result:
                doc["result"] = self._result(doc, progress, actions)
            view = await self.view(doc, at, progress)
            message = {
                "type": "race",
                "race_id": race_id,
                "version": stored.version + 1,
                "race": view,
            }
            try:
                result = await self.store.save_race(
                    race_id,
                    stored.version,
                    orjson.dumps(doc).decode(),
                    orjson.dumps(message),
                    over=doc["finished_at"] is not None,
                )
            except StoreUnavailable as exc:
                raise self.games._unavailable(exc) from exc
            if result.status is CommitStatus.APPLIED:
                return doc, view
            if result.status is CommitStatus.MISSING:
                raise _error(ErrorCode.NOT_FOUND, 404, f"no race with id {race_id!r}")
        raise _error(ErrorCode.STALE_VERSION, 409, "the race kept changing; retry")

    def _finish_if_done(self, doc: dict[str, Any], at: int) -> None:
        if doc["finished_at"] is not None or doc["start_at"] is None:
            return
        settled = all(p["state"] in ("won", "resigned") for p in doc["players"])
        timed_out = doc["ends_at"] is not None and at >= doc["ends_at"]
        if settled or timed_out:
            doc["finished_at"] = min(at, doc["ends_at"]) if timed_out else at

    async def _progress(
        self,
        doc: dict[str, Any],
        with_actions: bool = False,
        known: dict[str, engine.Klondike] | None = None,
    ) -> tuple[dict[str, dict[str, Any]], dict[str, list[str]]]:
        """Each player's game as progress figures (games exist once the race started),
        and with ``with_actions`` each action log, all read in one round trip. A game in
        ``known`` is taken as it is (its log is still read for the records)."""
        known = known or {}
        opening = engine.VEGAS_START if doc["scoring"] == "vegas" else 0
        display = engine.format_score(opening, engine.Scoring(doc["scoring"]))
        players = doc["players"]
        started = doc["start_at"] is not None
        wanted = [
            p["game_id"] for p in players if with_actions or (started and p["game_id"] not in known)
        ]
        found: dict[str, tuple[Any, list[str] | None]] = {}
        if wanted:
            try:
                loaded = await self.store.load_many(wanted, with_actions)
            except StoreUnavailable as exc:
                raise self.games._unavailable(exc) from exc
            found = dict(zip(wanted, loaded, strict=True))
        progress: dict[str, dict[str, Any]] = {}
        logs: dict[str, list[str]] = {}
        for player in players:
            stored, actions = found.get(player["game_id"], (None, None))
            figures = {"foundations": 0, "score": opening, "score_display": display, "moves": 0}
            game = known.get(player["game_id"])
            if game is None and stored is not None and started:
                # Deserializing a whole game is the costliest part of a race update.
                game = engine.deserialize(stored.state)
            if game is not None and started:
                figures = {
                    "foundations": game.cards_on_foundations(),
                    "score": game.score,
                    "score_display": game.score_display,
                    "moves": game.moves,
                }
            progress[player["player_id"]] = figures
            logs[player["player_id"]] = actions or []
        return progress, logs

    def _result(
        self,
        doc: dict[str, Any],
        progress: dict[str, dict[str, Any]],
        actions: dict[str, list[str]],
    ) -> dict[str, Any]:
        entries = []
        records: dict[str, str] = {}
        for player in doc["players"]:
            figures = progress[player["player_id"]]
            entries.append(
                {
                    "player_id": player["player_id"],
                    "name": player["name"],
                    "state": player["state"],
                    "connected": player["connected"],
                    "finish_ms": self._finish_ms(doc, player),
                    "foundations": figures["foundations"],
                    "score": figures["score"],
                    "score_display": figures["score_display"],
                    "moves": figures["moves"],
                }
            )
            records[player["player_id"]] = " ".join([doc["code"], *actions[player["player_id"]]])
        return {"code": doc["code"], "ranking": rank_players(entries), "records": records}

    @staticmethod
    def _finish_ms(doc: dict[str, Any], player: dict[str, Any]) -> int | None:
        if player["won_at"] is None or doc["start_at"] is None:
            return None
        return int(player["won_at"] - doc["start_at"])

    async def view(
        self,
        doc: dict[str, Any],
        at: int | None = None,
        progress: dict[str, dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """The public race: never the code (until the end), tokens or game ids."""
        at = now_ms() if at is None else at
        status = _status(doc, at)
        if progress is None:
            progress, _ = await self._progress(doc)
        players = []
        for player in doc["players"]:
            state = player["state"]
            if state == "playing" and not player["connected"]:
                state = "disconnected"
            players.append(
                {
                    "player_id": player["player_id"],
                    "name": player["name"],
                    "ready": player["ready"],
                    "state": state,
                    "connected": player["connected"],
                    "finish_ms": self._finish_ms(doc, player),
                    **progress[player["player_id"]],
                }
            )
        return {
            "race_id": doc["race_id"],
            "join_code": doc["join_code"],
            "game": doc["game"],
            "draw": doc["draw"],
            "scoring": doc["scoring"],
            "max_players": doc["max_players"],
            "time_limit_seconds": doc["time_limit_seconds"],
            "status": status,
            "host": doc["host"],
            "server_time": at,
            "start_at": doc["start_at"],
            "ends_at": doc["ends_at"],
            "finished_at": doc["finished_at"],
            "players": players,
            "result": doc.get("result") if status == "finished" else None,
            "rematch_race_id": doc.get("rematch_race_id"),
        }

    # ------------------------------------------------------------------ players

    @staticmethod
    def _player(doc: dict[str, Any], token: str | None) -> dict[str, Any]:
        if token is not None:
            digest = hash_token(token)
            for player in doc["players"]:
                if secrets.compare_digest(player["token_hash"], digest):
                    found: dict[str, Any] = player
                    return found
        raise _error(ErrorCode.UNAUTHORIZED, 401, "a valid player token of this race is required")

    def _you(self, doc: dict[str, Any], player: dict[str, Any]) -> dict[str, Any]:
        return {"player_id": player["player_id"], "game_id": player["game_id"]}

    @staticmethod
    def _new_player(name: str, token_hash: str, account: str = "") -> dict[str, Any]:
        return {
            "account": account,
            "player_id": secrets.token_urlsafe(6),
            "name": name,
            "token_hash": token_hash,
            "game_id": secrets.token_urlsafe(16),
            "ready": False,
            "state": "waiting",
            "connected": False,
            "won_at": None,
            "resigned_at": None,
        }

    async def _create(
        self,
        *,
        game: str,
        draw: int,
        scoring: str,
        max_players: int,
        time_limit_seconds: int | None,
        players: list[dict[str, Any]],
        host: str,
        previous: str | None = None,
        winnable: bool = False,
    ) -> dict[str, Any]:
        try:
            if winnable and self.deals is not None:
                mode = f"{game}.D{draw}{'V' if scoring == 'vegas' else 'N'}"
                code = await self.deals.take_winnable(mode)
            else:
                code = engine.GameCode.random_secret(
                    engine.GameKind(game), draw, engine.Scoring(scoring)
                )
        except engine.InvalidCodeError as exc:
            raise _error(ErrorCode.BAD_CODE, 422, str(exc)) from exc
        race_id = secrets.token_urlsafe(12)
        for _ in range(20):
            join_code = _new_join_code()
            doc = {
                "race_id": race_id,
                "join_code": join_code,
                "game": game,
                "draw": draw,
                "scoring": scoring,
                "max_players": max_players,
                "time_limit_seconds": time_limit_seconds,
                "host": host,
                "code": str(code),
                "created_at": now_ms(),
                "start_at": None,
                "ends_at": None,
                "finished_at": None,
                "players": players,
                "previous_race_id": previous,
                "rematch_race_id": None,
                "winnable": winnable,
            }
            try:
                created = await self.store.create_race(
                    StoredRace(race_id, 0, orjson.dumps(doc).decode()), join_code
                )
            except StoreUnavailable as exc:
                raise self.games._unavailable(exc) from exc
            if created:
                return doc
        raise _error(ErrorCode.STORE_UNAVAILABLE, 503, "could not allocate a join code; retry")

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
    ) -> dict[str, Any]:
        if max_players > self.settings.max_race_players:
            raise _error(
                ErrorCode.BAD_MESSAGE,
                422,
                f"a race has at most {self.settings.max_race_players} players on this server",
            )
        token = secrets.token_urlsafe(32)
        player = self._new_player(name, hash_token(token), account)
        doc = await self._create(
            game=game,
            draw=draw,
            scoring=scoring,
            max_players=max_players,
            time_limit_seconds=time_limit_seconds,
            players=[player],
            host=player["player_id"],
            winnable=winnable,
        )
        await self._create_games(doc, [player])
        return await self._joined(doc, player, token)

    async def _answer(
        self, doc: dict[str, Any], view: dict[str, Any] | None, token: str | None
    ) -> dict[str, Any]:
        """A command's answer: the race (as just pushed, if it changed) and who you are."""
        race = view if view is not None else await self.view(doc)
        return {"race": race, "you": self._you(doc, self._player(doc, token))}

    async def _joined(
        self,
        doc: dict[str, Any],
        player: dict[str, Any],
        token: str,
        view: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        return {
            "race_id": doc["race_id"],
            "join_code": doc["join_code"],
            "player_id": player["player_id"],
            "player_token": token,
            "game_id": player["game_id"],
            "race": view if view is not None else await self.view(doc),
        }

    async def join(
        self, join_code: str, name: str, client: str = "", account: str = ""
    ) -> dict[str, Any]:
        """Joins the race of ``join_code``; a ``client`` address with too many wrong codes
        in the current minute is refused without a look-up, so codes cannot be guessed."""
        limit = self.settings.code_failures_per_minute
        wrong = AddressQuota(self.store, "wrong join codes", client, limit)
        await wrong.check()
        code = "".join(join_code.split()).replace("-", "").upper()
        try:
            race_id = await self.store.race_of_join_code(code)
        except StoreUnavailable as exc:
            raise self.games._unavailable(exc) from exc
        if race_id is None:
            await wrong.count()
            raise _error(ErrorCode.NOT_FOUND, 404, "no race with this join code")
        token = secrets.token_urlsafe(32)
        player = self._new_player(name, hash_token(token), account)
        _, current = await self._load(race_id)
        # The game first: a join that fails after it leaves only an unused game behind
        # (which expires), never a seat without a game.
        await self._create_games(current, [player])

        def add(doc: dict[str, Any], at: int) -> bool:
            if doc["start_at"] is not None:
                raise _error(ErrorCode.RACE_STARTED, 409, "the race has already started")
            if len(doc["players"]) >= doc["max_players"]:
                raise _error(ErrorCode.RACE_FULL, 409, "the race is full")
            doc["players"].append(player)
            return True

        doc, view = await self._update(race_id, add)
        return await self._joined(doc, player, token, view)

    async def state(self, race_id: str, token: str | None = None) -> dict[str, Any]:
        _, doc = await self._load(race_id)
        if _status(doc, now_ms()) == "running" and doc["ends_at"] and now_ms() >= doc["ends_at"]:
            doc, _ = await self._update(race_id, lambda d, at: True)
        response: dict[str, Any] = {"race": await self.view(doc)}
        if token is not None:
            response["you"] = self._you(doc, self._player(doc, token))
        return response

    async def set_ready(self, race_id: str, token: str | None, ready: bool) -> dict[str, Any]:
        def mark(doc: dict[str, Any], at: int) -> bool:
            player = self._player(doc, token)
            if doc["start_at"] is not None:
                raise _error(ErrorCode.RACE_STARTED, 409, "the race has already started")
            if player["ready"] == ready:
                return False
            player["ready"] = ready
            if len(doc["players"]) >= 2 and all(p["ready"] for p in doc["players"]):
                self._start(doc, at)
            return True

        doc, view = await self._update(race_id, mark)
        await self._after_start(doc)
        return await self._answer(doc, view, token)

    async def start(self, race_id: str, token: str | None) -> dict[str, Any]:
        def begin(doc: dict[str, Any], at: int) -> bool:
            player = self._player(doc, token)
            if player["player_id"] != doc["host"]:
                raise _error(ErrorCode.NOT_HOST, 403, "only the host can start the race")
            if doc["start_at"] is not None:
                raise _error(ErrorCode.RACE_STARTED, 409, "the race has already started")
            self._start(doc, at)
            return True

        doc, view = await self._update(race_id, begin)
        await self._after_start(doc)
        return await self._answer(doc, view, token)

    def _start(self, doc: dict[str, Any], at: int) -> None:
        doc["start_at"] = at + int(self.settings.race_countdown_seconds * 1000)
        if doc["time_limit_seconds"]:
            doc["ends_at"] = doc["start_at"] + doc["time_limit_seconds"] * 1000
        for player in doc["players"]:
            player["state"] = "playing"

    async def _create_games(self, doc: dict[str, Any], players: list[dict[str, Any]]) -> None:
        """Each player's game exists from joining on, so it is there the moment the race
        starts; until then nobody may read it (see ``stage``)."""
        code = engine.GameCode.parse(doc["code"])
        for player in players:
            await self.games.create_race_game(
                player["game_id"],
                code,
                player["token_hash"],
                doc["race_id"],
                player.get("account", ""),
            )

    async def _after_start(self, doc: dict[str, Any]) -> None:
        """Sets the timers of a race that has just started."""
        if doc["start_at"] is None or doc["finished_at"] is not None:
            return
        race_id = doc["race_id"]
        self._later(doc["start_at"], lambda: self._announce(race_id))
        if doc["ends_at"] is not None:
            self._later(doc["ends_at"], lambda: self._expire(race_id))

    def _later(self, at_ms: int, work: Callable[[], Awaitable[None]]) -> None:
        """Runs ``work`` at server time ``at_ms``; other instances act lazily instead."""

        async def run() -> None:
            # The event loop's clock and the wall clock can disagree by a little: a timer
            # that woke early must not announce a race that has not started yet.
            while (wait := at_ms - now_ms()) > 0:
                await asyncio.sleep(wait / 1000)
            try:
                await work()
            except (ServiceError, StoreUnavailable) as exc:
                log.warning("race timer failed: %s", exc)

        task = asyncio.create_task(run())
        self._timers.add(task)
        task.add_done_callback(self._timers.discard)

    async def _announce(self, race_id: str) -> None:
        """Pushes the race again when the countdown ends, so clients flip to running."""

        def mark_running(doc: dict[str, Any], at: int) -> bool:
            # A saved change, so the message has a version of its own like every other.
            if doc.get("announced") or doc["finished_at"] is not None:
                return False
            doc["announced"] = True
            return True

        await self._update(race_id, mark_running)

    async def _expire(self, race_id: str) -> None:
        await self._update(race_id, lambda doc, at: doc["finished_at"] is None)

    async def resign(self, race_id: str, token: str | None) -> dict[str, Any]:
        """Resigns (see ``resign_game``) and answers with the race as it is now."""
        await self.resign_game(race_id, token)
        _, doc = await self._load(race_id)
        return await self._answer(doc, None, token)

    async def resign_game(self, race_id: str, token: str | None) -> None:
        """Resigning from a race is resigning one's game: the game ends, final, and
        ``after_action`` marks the player resigned (one meaning for both)."""
        _, doc = await self._load(race_id)
        player = self._player(doc, token)
        status = _status(doc, now_ms())
        if status == "finished":
            raise _error(ErrorCode.RACE_OVER, 409, "the race is over")
        if status != "running":
            raise _error(ErrorCode.RACE_NOT_STARTED, 409, "the race is not running")
        if player["state"] != "playing":
            raise _error(ErrorCode.RACE_OVER, 409, "you have already finished this race")
        await self.games.act(player["game_id"], token, engine.Resign())

    async def rematch(self, race_id: str, token: str | None) -> dict[str, Any]:
        _, doc = await self._load(race_id)
        self._player(doc, token)
        if doc["finished_at"] is None:
            raise _error(ErrorCode.RACE_NOT_FINISHED, 409, "a rematch is offered once it is over")
        if doc.get("rematch_race_id") is None:
            players = [
                self._new_player(p["name"], p["token_hash"], p.get("account", ""))
                for p in doc["players"]
            ]
            for old, new in zip(doc["players"], players, strict=True):
                new["player_id"] = old["player_id"]
            new_doc = await self._create(
                game=doc["game"],
                draw=doc["draw"],
                scoring=doc["scoring"],
                max_players=doc["max_players"],
                time_limit_seconds=doc["time_limit_seconds"],
                players=players,
                host=doc["host"],
                previous=race_id,
                winnable=doc.get("winnable", False),
            )
            await self._create_games(new_doc, players)

            def link(d: dict[str, Any], at: int) -> bool:
                if d.get("rematch_race_id"):
                    return False
                d["rematch_race_id"] = new_doc["race_id"]
                return True

            doc, _ = await self._update(race_id, link)
        _, new = await self._load(doc["rematch_race_id"])
        return {"race": await self.view(new), "you": self._you(new, self._player(new, token))}

    async def set_connected(self, race_id: str, token: str | None, connected: bool) -> None:
        """Counts the player's race subscriptions: connected while at least one is open."""

        def mark(doc: dict[str, Any], at: int) -> bool:
            player = self._player(doc, token)
            watches = max(0, player.get("watches", 0) + (1 if connected else -1))
            player["watches"] = watches
            player["connected"] = watches > 0
            return True

        await self._update(race_id, mark)

    async def watch(self, race_id: str, token: str | None) -> tuple[dict[str, Any], int]:
        """The race message for a new subscriber (with ``you`` for a player)."""
        stored, doc = await self._load(race_id)
        message: dict[str, Any] = {
            "type": "race",
            "race_id": race_id,
            "version": stored.version,
            "race": await self.view(doc),
        }
        if token is not None:
            message["you"] = self._you(doc, self._player(doc, token))
        return message, stored.version

    # ------------------------------------------------------------------ hooks for Games

    async def gate(self, race_id: str, game_id: str) -> None:
        _, doc = await self._load(race_id)
        at = now_ms()
        status = _status(doc, at)
        if status in ("lobby", "countdown"):
            raise _error(ErrorCode.RACE_NOT_STARTED, 409, "the race has not started yet")
        player = next(p for p in doc["players"] if p["game_id"] == game_id)
        if status == "finished" or player["state"] == "resigned":
            raise _error(ErrorCode.RACE_OVER, 409, "the race is over for this game")
        if doc["ends_at"] is not None and at >= doc["ends_at"]:
            await self._expire(race_id)
            raise _error(ErrorCode.RACE_OVER, 409, "the race's time is up")

    async def after_action(self, race_id: str, game_id: str, game: engine.Klondike) -> None:
        player_id = self._player_of_game.get(game_id, (race_id, ""))[1]
        ending = "won" if game.won else "resigned" if game.resigned else None

        def settle(doc: dict[str, Any], at: int) -> bool:
            changed = False
            if doc["finished_at"] is not None and "result" in doc:
                # An action that passed the gate just before the end was committed after
                # the result was computed: publish the result again so record and figures
                # agree.
                del doc["result"]
                changed = True
            if ending is not None:
                player = next(p for p in doc["players"] if p["game_id"] == game_id)
                if player["state"] not in ("won", "resigned"):
                    player["state"] = ending
                    player[f"{ending}_at"] = at
                    changed = True
            return changed

        # One update for both: the result of a race this action ends is computed once.
        await self._update(race_id, settle, {game_id: game})
        progress = {
            "type": "race_progress",
            "race_id": race_id,
            "player_id": player_id,
            "state": ending or "playing",
            "foundations": game.cards_on_foundations(),
            "score": game.score,
            "score_display": game.score_display,
            "moves": game.moves,
            "server_time": now_ms(),
        }
        try:
            await self.store.publish(race_topic(race_id), orjson.dumps(progress))
        except StoreUnavailable:
            log.warning("race progress of %s not published", race_id)

    async def stage(self, race_id: str) -> str:
        try:
            _, doc = await self._load(race_id)
        except ServiceError as exc:
            if exc.code is ErrorCode.NOT_FOUND:
                return "finished"  # a race that expired leaves its games public
            raise
        at = now_ms()
        if doc["finished_at"] is None and doc["ends_at"] is not None and at >= doc["ends_at"]:
            doc, _ = await self._update(race_id, lambda d, _: d["finished_at"] is None)
        return _status(doc, at)
