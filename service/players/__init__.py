"""Players: anonymous identities that several devices can share.

A player is a display name and an id. A device holds a player token (256 bits, stored
only as a hash); a second device joins the same player with a short link code that the
first one asks for, valid for a few minutes and for one use. Tokens can be revoked, and
revoking them voids the link codes not used yet: each code carries the player's link
epoch, which revoking moves on.
"""

from __future__ import annotations

import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson

from ..config import Settings
from ..errors import ServiceError, from_store
from ..guards.quotas import AddressQuota
from ..protocol import ErrorCode
from ..store import hash_token
from ..store.records import Records
from ..store.versioned import compare_and_set
from ..support.ids import new_id

NAME_MAX = 24
# Control, format (zero-width and direction marks), surrogate, private-use and unassigned
# characters, and line or paragraph separators: invisible, or able to disguise a name.
_REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
LINK_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
LINK_CODE_LENGTH = 8
_LINK_LETTERS = frozenset(LINK_ALPHABET)
_SAVE_ATTEMPTS = 16


def clean_name(raw: str) -> str:
    """The name as stored (NFC, trimmed), or ``bad_name`` saying what rule it breaks."""
    name = unicodedata.normalize("NFC", raw).strip()
    if not 1 <= len(name) <= NAME_MAX:
        raise bad_name(f"a name has 1 to {NAME_MAX} characters")
    for char in name:
        if unicodedata.category(char) in _REFUSED_CATEGORIES:
            raise bad_name(
                f"a name may not hold invisible or control characters (U+{ord(char):04X})"
            )
        if char.isspace() and char != " ":
            raise bad_name("the only space allowed in a name is the plain space")
    if "  " in name:
        raise bad_name("a name may not hold two spaces in a row")
    return name


def bad_name(detail: str) -> ServiceError:
    return ServiceError(ErrorCode.BAD_NAME, 422, detail)


def _unauthorized() -> ServiceError:
    return ServiceError(ErrorCode.UNAUTHORIZED, 401, "a valid player token is required")


def _no_link_code() -> ServiceError:
    return ServiceError(ErrorCode.NOT_FOUND, 404, "no such link code (or it was used)")


def player_key(player_id: str) -> str:
    return f"player:{player_id}"


def name_key(player_id: str) -> str:
    return f"player-name:{player_id}"


def _token_key(token_hash: str) -> str:
    return f"player-token:{token_hash}"


@dataclass(slots=True)
class Player:
    player_id: str
    name: str
    created_at: int
    token_hashes: list[str]
    current_game: str | None = None
    link_epoch: int = 0

    def public(self) -> dict[str, Any]:
        return {"player_id": self.player_id, "name": self.name, "created_at": self.created_at}

    def dump(self) -> str:
        return orjson.dumps(
            {
                "player_id": self.player_id,
                "name": self.name,
                "created_at": self.created_at,
                "token_hashes": self.token_hashes,
                "current_game": self.current_game,
                "link_epoch": self.link_epoch,
            }
        ).decode()


class Players:
    def __init__(
        self, records: Records, settings: Settings, clock: Callable[[], float] = time.time
    ) -> None:
        self.records = records
        self.settings = settings
        self.clock = clock

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    async def create(self, raw_name: str) -> dict[str, Any]:
        name = clean_name(raw_name)
        token = new_id(32)
        player = Player(new_id(12), name, self.now_ms(), [])
        await from_store(self._add_token(player, token))
        await from_store(self.records.save(player_key(player.player_id), 0, player.dump()))
        await from_store(self.records.claim(name_key(player.player_id), name))
        return {**player.public(), "player_token": token}

    async def _add_token(self, player: Player, token: str) -> None:
        digest = hash_token(token)
        await self.records.claim(_token_key(digest), player.player_id)
        player.token_hashes.append(digest)

    async def authenticate(self, token: str | None) -> Player:
        """The player holding ``token``; ``unauthorized`` for a missing or revoked one."""
        return await self.load(await self.player_id_of(token))

    async def player_id_of(self, token: str | None) -> str:
        """Who holds ``token``, in one look-up (no profile read)."""
        if not token:
            raise _unauthorized()
        player_id: str | None = await from_store(self.records.get(_token_key(hash_token(token))))
        if player_id is None:
            raise _unauthorized()
        return player_id

    async def load(self, player_id: str) -> Player:
        return (await self._read(player_id))[1]

    async def _read(self, player_id: str) -> tuple[int, Player]:
        doc = await from_store(self.records.load(player_key(player_id)))
        if doc is None:
            raise ServiceError(ErrorCode.NOT_FOUND, 404, f"no player with id {player_id!r}")
        return doc.version, Player(**orjson.loads(doc.text))

    async def update(self, player_id: str, change: Callable[[Player], None]) -> Player:
        """Applies ``change(player)`` by compare-and-set, retried on a concurrent update."""

        def apply(read: tuple[int, Player]) -> bool:
            change(read[1])
            return True

        async def write(read: tuple[int, Player]) -> bool:
            version, player = read
            saved: bool = await from_store(
                self.records.save(player_key(player_id), version, player.dump())
            )
            return saved

        (_, player), _ = await compare_and_set(
            lambda: self._read(player_id),
            apply,
            write,
            attempts=_SAVE_ATTEMPTS,
            kept_changing=lambda: ServiceError(
                ErrorCode.STALE_VERSION, 409, "the player kept changing; retry"
            ),
        )
        return player

    async def me(self, token: str | None) -> dict[str, Any]:
        return (await self.authenticate(token)).public()

    async def rename(self, token: str | None, raw_name: str) -> dict[str, Any]:
        name = clean_name(raw_name)
        player = await self.authenticate(token)

        def rename(found: Player) -> None:
            found.name = name

        renamed = await self.update(player.player_id, rename)
        await from_store(self.records.delete(name_key(player.player_id)))
        await from_store(self.records.claim(name_key(player.player_id), name))
        return renamed.public()

    async def names(self, player_ids: list[str]) -> dict[str, str]:
        found: dict[str, str] = {}
        for player_id in player_ids:
            name = await from_store(self.records.get(name_key(player_id)))
            found[player_id] = name if name is not None else "?"
        return found

    # ------------------------------------------------------------------ devices

    async def link_code(self, token: str | None) -> dict[str, Any]:
        """A single-use code that lets a second device join this player."""
        player = await self.authenticate(token)
        ttl = self.settings.link_code_seconds
        for _ in range(8):
            code = "".join(secrets.choice(LINK_ALPHABET) for _ in range(LINK_CODE_LENGTH))
            holder = f"{player.player_id} {player.link_epoch}"
            if await from_store(self.records.claim(f"link:{code}", holder, ttl)):
                expires_at = self.now_ms() + ttl * 1000
                return {"link_code": code, "expires_at": expires_at}
        raise ServiceError(ErrorCode.STORE_UNAVAILABLE, 503, "could not allocate a code; retry")

    async def link(self, raw_code: str, failures: AddressQuota) -> dict[str, Any]:
        """Trades a link code for a new token of the same player (the code is used up).

        ``failures`` counts this client's wrong codes; too many answer ``rate_limited``.
        Every try counts until its code proves right, so that tries sent together cannot
        pass the limit.
        """
        await failures.take()
        code = "".join(raw_code.split()).replace("-", "").upper()
        holder = None
        if len(code) == LINK_CODE_LENGTH and set(code) <= _LINK_LETTERS:
            holder = await from_store(self.records.take(f"link:{code}"))
        if holder is None:
            raise _no_link_code()
        player_id, _, epoch = holder.partition(" ")
        token = new_id(32)
        digest = hash_token(token)
        await from_store(self.records.claim(_token_key(digest), player_id))

        def remember(player: Player) -> None:
            # Checked in the same compare-and-set as the token is added: a code made
            # before the other devices were revoked never adds one, however they race.
            if player.link_epoch != int(epoch or 0):
                raise _no_link_code()
            player.token_hashes.append(digest)

        try:
            player = await self.update(player_id, remember)
        except ServiceError:
            await from_store(self.records.delete(_token_key(digest)))
            raise
        await failures.give_back()
        return {**player.public(), "player_token": token}

    async def revoke(self, token: str | None) -> dict[str, Any]:
        """Revokes every token of the player except the one making the request."""
        player = await self.authenticate(token)
        keep = hash_token(token or "")
        revoked: list[str] = []

        def drop(found: Player) -> None:
            revoked[:] = [h for h in found.token_hashes if h != keep]
            found.token_hashes = [keep]
            found.link_epoch += 1  # voids the link codes not used yet

        await self.update(player.player_id, drop)
        for digest in revoked:
            await from_store(self.records.delete(_token_key(digest)))
        return {"revoked": len(revoked)}
