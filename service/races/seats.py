"""Who a race token belongs to: the seats of a race and the players who hold them."""

from __future__ import annotations

import secrets
from typing import Any

from ..errors import ServiceError
from ..protocol import ErrorCode
from ..store import hash_token
from ..store.race_document import RaceDocument, RacePlayer
from ..support.ids import new_id


def find_player(doc: RaceDocument, token: str | None) -> RacePlayer:
    if token is not None:
        digest = hash_token(token)
        for player in doc.players:
            if secrets.compare_digest(player.token_hash, digest):
                return player
    raise ServiceError(ErrorCode.UNAUTHORIZED, 401, "a valid race token of this race is required")


def seat_of(doc: RaceDocument, joining: RacePlayer) -> RacePlayer | None:
    """The seat a player who joins already holds: the same race token's, taken by an
    earlier try of the same join; ``already_in_race`` when their player holds another."""
    if not joining.account:
        return None
    for player in doc.players:
        if player.account == joining.account:
            if secrets.compare_digest(player.token_hash, joining.token_hash):
                return player
            raise ServiceError(
                ErrorCode.ALREADY_IN_RACE,
                409,
                "your player already holds a seat in this race (one seat per player)",
            )
    return None


def you(player: RacePlayer) -> dict[str, Any]:
    return {"player_id": player.player_id, "game_id": player.game_id}


def new_player(name: str, token_hash: str, account: str = "") -> RacePlayer:
    return RacePlayer(
        account=account,
        player_id=new_id(6),
        name=name,
        token_hash=token_hash,
        game_id=new_id(16),
    )
