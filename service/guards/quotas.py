"""Per-address quotas counted by the store, so every instance sees the same count, in
fixed windows: wrong guesses of short secrets (race join codes, player link codes) and
the creation of players."""

from __future__ import annotations

import time

from ..errors import ServiceError, from_store
from ..protocol import ErrorCode
from ..store import Store


class AddressQuota:
    def __init__(
        self, store: Store, what: str, client: str, limit: int, window_seconds: int = 60
    ) -> None:
        self.store = store
        self.window = window_seconds
        self.key = f"quota:{what}:{client}:{int(time.time()) // window_seconds}"
        self.limit = limit
        self.what = what

    async def check(self) -> None:
        """Refuses (429, ``Retry-After``) a client that used up its quota."""
        if await self._tally(0) >= self.limit:
            window = "a minute" if self.window == 60 else f"in {self.window} seconds"
            raise ServiceError(
                ErrorCode.RATE_LIMITED,
                429,
                f"too many {self.what} from this address (at most {self.limit} {window}); "
                "try again later",
                retry_after=self.window - int(time.time()) % self.window,
            )

    async def count(self) -> None:
        await self._tally(1)

    async def _tally(self, add: int) -> int:
        return await from_store(self.store.tally(self.key, self.window, add))
