"""The race document: what a race is, as its JSON stands in the store.

``RaceDocument`` reads and writes that JSON field for field, keys in the order they have
always been written; a key that older documents may lack reads as the value it stood
for, and a key written only once it means something (``watches``, ``rated``,
``announced``, ``heat_of``, ``pair_of``, ``result``) stays absent until then. What the fields mean
for a race (its status, its view, its ranking) is the business of ``service.races``;
the type lives here, beside ``StoredRace``, because ``games`` hands a race read back to
the races unchanged and may not import them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson


@dataclass(slots=True)
class RacePlayer:
    player_id: str
    name: str
    token_hash: str
    game_id: str
    # The player account that joined, if the player brought its token; empty otherwise.
    account: str = ""
    ready: bool = False
    # ``waiting``, ``playing``, ``won`` or ``resigned``.
    state: str = "waiting"
    connected: bool = False
    won_at: int | None = None
    resigned_at: int | None = None
    # Open race subscriptions of the player; None until the first one.
    watches: int | None = None

    @property
    def ended(self) -> bool:
        return self.state in ("won", "resigned")

    def end(self, ending: str, at: int) -> bool:
        """Records the player's game as ``won`` or ``resigned`` at ``at`` (server time, ms),
        unless it has ended already; returns whether anything changed."""
        if self.ended:
            return False
        self.state = ending
        if ending == "won":
            self.won_at = at
        else:
            self.resigned_at = at
        return True

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RacePlayer:
        return cls(
            player_id=data["player_id"],
            name=data["name"],
            token_hash=data["token_hash"],
            game_id=data["game_id"],
            account=data.get("account", ""),
            ready=data["ready"],
            state=data["state"],
            connected=data["connected"],
            won_at=data["won_at"],
            resigned_at=data["resigned_at"],
            watches=data.get("watches"),
        )

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "account": self.account,
            "player_id": self.player_id,
            "name": self.name,
            "token_hash": self.token_hash,
            "game_id": self.game_id,
            "ready": self.ready,
            "state": self.state,
            "connected": self.connected,
            "won_at": self.won_at,
            "resigned_at": self.resigned_at,
        }
        if self.watches is not None:
            data["watches"] = self.watches
        return data


@dataclass(slots=True)
class RaceDocument:
    """One race, secrets included (player token hashes, the deal's code): never sent as
    it is. Times are milliseconds of server time."""

    race_id: str
    join_code: str
    game: str
    draw: int
    scoring: str
    max_players: int
    time_limit_seconds: int | None
    host: str
    code: str
    created_at: int
    start_at: int | None
    ends_at: int | None
    finished_at: int | None
    players: list[RacePlayer]
    previous_race_id: str | None = None
    rematch_race_id: str | None = None
    winnable: bool = False
    # Finishing updates the ratings of the players who brought a player token.
    rated: bool = False
    # Saved once the countdown is over, so that clients see the race flip to running.
    announced: bool = False
    # The arena whose heat this race is made for: its players learn of it only when the
    # heat is recorded there, and a race whose heat never was is rated for nobody.
    heat_of: str | None = None
    # The seek of quick pairing whose pairing this race is made for (its first seat's):
    # likewise, its players learn of it only when both seeks are marked paired with it.
    pair_of: str | None = None
    # The ranking, the code and the records, once the race is over.
    result: dict[str, Any] | None = None

    @classmethod
    def parse(cls, text: str | bytes) -> RaceDocument:
        data = orjson.loads(text)
        return cls(
            race_id=data["race_id"],
            join_code=data["join_code"],
            game=data["game"],
            draw=data["draw"],
            scoring=data["scoring"],
            max_players=data["max_players"],
            time_limit_seconds=data["time_limit_seconds"],
            host=data["host"],
            code=data["code"],
            created_at=data["created_at"],
            start_at=data["start_at"],
            ends_at=data["ends_at"],
            finished_at=data["finished_at"],
            players=[RacePlayer.from_json(player) for player in data["players"]],
            previous_race_id=data.get("previous_race_id"),
            rematch_race_id=data.get("rematch_race_id"),
            winnable=data.get("winnable", False),
            rated=data.get("rated", False),
            announced=data.get("announced", False),
            heat_of=data.get("heat_of"),
            pair_of=data.get("pair_of"),
            result=data.get("result"),
        )

    def to_json(self) -> str:
        data: dict[str, Any] = {
            "race_id": self.race_id,
            "join_code": self.join_code,
            "game": self.game,
            "draw": self.draw,
            "scoring": self.scoring,
            "max_players": self.max_players,
            "time_limit_seconds": self.time_limit_seconds,
            "host": self.host,
            "code": self.code,
            "created_at": self.created_at,
            "start_at": self.start_at,
            "ends_at": self.ends_at,
            "finished_at": self.finished_at,
            "players": [player.to_json() for player in self.players],
            "previous_race_id": self.previous_race_id,
            "rematch_race_id": self.rematch_race_id,
            "winnable": self.winnable,
        }
        if self.rated:
            data["rated"] = True
        if self.announced:
            data["announced"] = True
        if self.heat_of is not None:
            data["heat_of"] = self.heat_of
        if self.pair_of is not None:
            data["pair_of"] = self.pair_of
        if self.result is not None:
            data["result"] = self.result
        return orjson.dumps(data).decode()

    def player_of_game(self, game_id: str) -> RacePlayer:
        return next(player for player in self.players if player.game_id == game_id)
