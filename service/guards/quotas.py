"""Quotas counted by the store, so every instance sees the same count, in fixed windows:
per address, wrong guesses of short secrets (race join codes, player link codes) and the
creation of players; per player and per address, the requests that cost solver time
(hints and analyses).

A request takes its place in the quota before it is served, in one atomic step of the
store (``Store.admit``): of requests that arrive together, exactly as many pass as the
quota has room for. One that turns out not to count (a right code, a player that was not
made after all) gives its place back.
"""

from __future__ import annotations

import contextlib

from ..errors import ServiceError, from_store
from ..protocol import ErrorCode
from ..store import Store


class AddressQuota:
    """The quota of one client (``client``: its address, or ``player <id>``) for one kind
    of request (``what``)."""

    def __init__(
        self,
        store: Store,
        what: str,
        client: str,
        limit: int,
        window_seconds: int = 60,
        *,
        now: float,
    ) -> None:
        self.store = store
        self.window = window_seconds
        # Without braces, which would name a hash slot on Redis Cluster (redis_once).
        address = client.replace("{", "(").replace("}", ")")
        # The service's clock (seconds), not the machine's: requests sent together fall
        # in one window however the test or server clock is set.
        self.now = int(now)
        self.key = f"quota:{what}:{address}:{self.now // window_seconds}"
        self.limit = limit
        self.what = what
        self.whose = "this player" if client.startswith(PLAYER_PREFIX) else "this address"

    async def take(self) -> None:
        """Counts this request, or refuses it (429, ``Retry-After``) when the client has
        used up its quota."""
        if not await from_store(self.store.admit(self.key, self.limit, self.window)):
            window = "a minute" if self.window == 60 else f"in {self.window} seconds"
            raise ServiceError(
                ErrorCode.RATE_LIMITED,
                429,
                f"too many {self.what} from {self.whose} (at most {self.limit} {window}); "
                "try again later",
                retry_after=self.window - self.now % self.window,
            )

    async def give_back(self) -> None:
        """The request counted by ``take`` does not count after all. Best effort: when the
        store cannot be reached it stays counted."""
        with contextlib.suppress(ServiceError):
            await from_store(self.store.refund(self.key))


PLAYER_PREFIX = "player "


class Quotas:
    """Several quotas counted together (a player's and its address's): a request takes a
    place in every one of them or in none."""

    def __init__(self, *quotas: AddressQuota) -> None:
        self.quotas = quotas

    async def take(self) -> None:
        taken: list[AddressQuota] = []
        try:
            for quota in self.quotas:
                await quota.take()
                taken.append(quota)
        except BaseException:
            for quota in reversed(taken):
                await quota.give_back()
            raise

    async def give_back(self) -> None:
        for quota in self.quotas:
            await quota.give_back()


def cost_quotas(
    store: Store,
    what: str,
    address: str,
    player_id: str,
    limits: tuple[int, int],
    now: float,
) -> Quotas:
    """The quotas of a costly request (a hint, an analysis): its address's, and its
    player's when it names one (``limits``: per address, per player). A request without
    a player counts against its address only, which every player behind that address
    shares. ``now`` (the service's clock) picks the window."""
    per_address, per_player = limits
    quotas = [AddressQuota(store, what, address, per_address, now=now)]
    if player_id:
        quotas.append(AddressQuota(store, what, PLAYER_PREFIX + player_id, per_player, now=now))
    return Quotas(*quotas)
