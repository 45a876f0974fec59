"""Arena standings over a WebSocket: the pages of standings the connections follow, and
the small ``arena_standings`` messages that keep them current.

A follower gets its page in full once, then on each change of the arena (a message on
the arena's topic, from whichever instance counted a heat or paired players) only the
lines of its page that differ from what it was last sent, and its own line when it
changed.

The work is the instance's, not each connection's (``ArenaFollowers``): the instance
listens to an arena's topic once, however many of its connections follow the arena, and
the changes that arrive while it is telling the last ones are told together next. Each
followed page is read once per telling (on a shared store all at once; the tellings of
an arena take turns), and its message encoded once for every follower sent the page's
previous lines; the own lines of the players named in the changes are read in one store
call. The messages are queued on each connection's pump, never awaited: a follower that
cannot keep up is cut off by its pump, as for game changes, and delays nobody else.
A connection's own follows (``follow_arena``, ``unfollow_arena``) are ``follows.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

import orjson

from ..arenas import Arenas, arena_topic, records
from ..arenas.records import Rows, changed_lines, standings_message
from ..errors import ServiceError, from_store
from ..store import Delivery, StoreUnavailable, hash_token
from ..support.tasks import cancel_and_wait

log = logging.getLogger("service.ws")

# The longest a wave that says more of its pairing follows holds the pages back (seconds):
# a wave whose instance stopped midway never sends its last message.
MAX_PAGES_HELD = 1.0


class Follower:
    """One connection's following of one arena: its page, whose own line it sees, and
    what it was last sent."""

    __slots__ = ("arena_token", "page", "player_id", "rows", "send", "token", "you")

    def __init__(
        self, page: int, token: str | None, player_id: str | None, send: Callable[[bytes], None]
    ) -> None:
        self.page = page
        self.token = token
        self.player_id = player_id
        self.send = send
        # Rank -> the line last sent; the very dict the instance last read for the page
        # when the follower was sent that reading (so its message can be shared).
        self.rows: Rows = {}
        self.you: dict[str, Any] | None = None
        # The player's race token in the arena's heats and its hash, derived once.
        self.arena_token: tuple[str, str] | None = None


class _Followed:
    """An arena followed on this instance: its followers and the changes not told yet;
    the store's subscriber to the arena's topic."""

    __slots__ = (
        "arena_id",
        "by_player",
        "changed",
        "everyone",
        "final",
        "followers",
        "holding",
        "hub",
        "listening",
        "lock",
        "owed_since",
        "pages",
        "pages_due",
        "task",
        "total",
        "wake",
    )

    def __init__(self, hub: ArenaFollowers, arena_id: str) -> None:
        self.hub = hub
        self.arena_id = arena_id
        self.followers: set[Follower] = set()
        # Player id -> the followers who follow with that player's token: a change
        # names a few players of a thousand followers.
        self.by_player: dict[str, set[Follower]] = {}
        # Held while telling and while a new follower is sent its page, so that each
        # follower's messages are made in order from what it was sent before.
        self.lock = asyncio.Lock()
        # Page -> the lines last read for it.
        self.pages: dict[int, Rows] = {}
        # Players in the standings, as last read.
        self.total = 0
        # When the pages may next be told (event loop time), and since when changes
        # have not been told in them (None: every change was).
        self.pages_due = 0.0
        self.owed_since: float | None = None
        # The changes owed are a wave's (the heats it counted, then its pairing), which
        # goes on: the pages wait for its end. Changes owed before the wave (a leave,
        # say) are told when due all the same.
        self.holding = False
        self.wake = asyncio.Event()
        # The players named by the changes not told yet; ``everyone``: any line may have
        # changed (the feed was lost a while).
        self.changed: set[str] = set()
        self.everyone = False
        self.final = False
        self.task: asyncio.Task[None] | None = None
        self.listening: asyncio.Future[None] | None = None

    def deliver(self, delivery: Delivery) -> None:
        """Called by the store for a message on the arena's topic; never blocks."""
        more = False
        if delivery.payload is None:
            self.everyone = True
        else:
            news = orjson.loads(delivery.payload)
            self.changed.update(news.get("changed", []))
            self.final = self.final or bool(news.get("final"))
            more = bool(news.get("more"))
        if self.owed_since is None:
            self.owed_since = asyncio.get_running_loop().time()
            self.holding = more
        elif not more:
            self.holding = False
        self.wake.set()
        if self.task is None:
            self.task = asyncio.create_task(self._tell_all())

    async def _tell_all(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                async with self.lock:
                    # Cleared before the changes are looked at: one that comes after
                    # wakes the wait below.
                    self.wake.clear()
                    # Changes that arrive while these are told are told together next.
                    if self.changed or self.everyone or self.final:
                        changed, everyone, final = self.changed, self.everyone, self.final
                        self.changed, self.everyone, self.final = set(), False, False
                        pages = final or everyone or loop.time() >= self._pages_at()
                        await self._tell(changed, everyone, final, pages)
                        continue
                    if self.owed_since is None:
                        return
                    wait = self._pages_at() - loop.time()
                    if wait <= 0:
                        await self._tell(set(), False, False, True)
                        continue
                # Own lines changed meanwhile are not kept waiting for the pages.
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.wake.wait(), wait)
        finally:
            self.task = None

    def _pages_at(self) -> float:
        """When the pages may be told next. Own lines (a player's new heat) go out at
        once; a page, whose message goes to every follower of it, at most every
        ``ARENA_PAGE_SECONDS``, and while a wave's pairing goes on, after its last
        chunk: a wave that counts heats and pairs hundreds of players a chunk at a time
        tells the followers of a page once, after telling every player their heat.
        Changes owed before the wave began are not held back by it."""
        if self.holding and self.owed_since is not None:
            return max(self.pages_due, self.owed_since + MAX_PAGES_HELD)
        return self.pages_due

    async def _tell(self, changed: set[str], everyone: bool, final: bool, pages: bool) -> None:
        if pages:
            every = self.hub.arenas.settings.arena_page_seconds
            self.pages_due = asyncio.get_running_loop().time() + every
            # Cleared before the telling: a change that arrives during it is owed.
            self.owed_since = None
        try:
            await self.hub.tell(self, changed, everyone, final, pages)
        except (ServiceError, StoreUnavailable) as exc:
            log.info("arena standings not sent: %s", exc)


class ArenaFollowers:
    """The instance's followers of arena standings, by arena."""

    def __init__(self, arenas: Arenas) -> None:
        self.arenas = arenas
        self.store = arenas.store
        self._followed: dict[str, _Followed] = {}

    async def add(self, arena_id: str, follower: Follower, request_id: str) -> None:
        """Sends the follower its page in full (the answer to ``request_id``), then keeps
        it current."""
        followed = self._followed.get(arena_id)
        if followed is None:
            followed = self._followed[arena_id] = _Followed(self, arena_id)
            followed.listening = asyncio.ensure_future(
                self.store.subscribe(arena_topic(arena_id), followed)
            )
        followed.followers.add(follower)
        if follower.player_id is not None and follower.token is not None:
            token = records.arena_token(follower.token, arena_id)
            follower.arena_token = (token, hash_token(token))
            followed.by_player.setdefault(follower.player_id, set()).add(follower)
        try:
            # Listen first, then read: a change made in between is then in the page
            # read, or told after it.
            assert followed.listening is not None
            await asyncio.shield(followed.listening)
            async with followed.lock:
                page = await self.arenas.standings(arena_id, follower.page)
                rows = {row["rank"]: row for row in page["rows"]}
                yous = await self._yous(arena_id, [follower])
                lines = list(rows.values())
                # The page's last reading when the same (or this reading, the page's
                # first), so the follower's next message is the one shared by the
                # page's other followers.
                last = followed.pages.setdefault(follower.page, rows)
                follower.rows = last if last == rows else rows
                follower.you = yous.get(follower)
                follower.send(
                    standings_message(
                        arena_id, follower.page, page, True, lines, follower.you, request_id
                    )
                )
        except BaseException:
            await self.remove(arena_id, follower)
            raise

    async def remove(self, arena_id: str, follower: Follower) -> None:
        followed = self._followed.get(arena_id)
        if followed is None or follower not in followed.followers:
            return
        followed.followers.discard(follower)
        same = followed.by_player.get(follower.player_id or "")
        if same is not None:
            same.discard(follower)
            if not same:
                del followed.by_player[follower.player_id or ""]
        if not followed.followers:
            del self._followed[arena_id]
            if followed.task is not None:
                followed.task.cancel()
            if followed.listening is not None:
                # Left only once listening: leaving first would leave nothing, and the
                # subscription made after would outlive every follower.
                with contextlib.suppress(Exception):
                    await asyncio.shield(followed.listening)
            await self.store.unsubscribe(arena_topic(arena_id), followed)

    async def close(self) -> None:
        for followed in list(self._followed.values()):
            if followed.task is not None:
                await cancel_and_wait(followed.task)

    async def tell(
        self,
        followed: _Followed,
        changed: set[str],
        everyone: bool,
        final: bool,
        pages: bool,
    ) -> None:
        """Sends the followers named in ``changed`` their own line when it changed: the
        rank in ``you`` is as of the follower's last change, a rank moved by others'
        heats is not told. With ``pages``, sends each follower its page's changed lines
        too (all of them when ``final``)."""
        arena_id = followed.arena_id
        if everyone or final:
            mine = [f for same in followed.by_player.values() for f in same]
        else:
            mine = [f for p in changed for f in followed.by_player.get(p, ())]
        if not pages:
            yous = await self._yous(arena_id, mine)
            for follower in mine:
                you = yous[follower]
                if you != follower.you:
                    follower.you = you
                    unread = {"total": followed.total, "final": False}
                    follower.send(
                        standings_message(arena_id, follower.page, unread, False, [], you)
                    )
            return
        by_page: dict[int, list[Follower]] = {}
        named = set(mine)
        # Those named by the changes first: a player's new heat is queued before the page
        # goes out to everybody else.
        for follower in [*mine, *(f for f in followed.followers if f not in named)]:
            by_page.setdefault(follower.page, []).append(follower)
        if self.arenas.arenas.shared:
            # Every read at once, sharing the store's round trips: a player on the last of
            # many pages followed waits for no other page's reads (four round trips each).
            yous, *read = await asyncio.gather(
                self._yous(arena_id, mine),
                *(self.arenas.standings(arena_id, number) for number in by_page),
            )
        else:
            # In-process reads never wait: as tasks they would yield the loop mid-telling.
            yous = await self._yous(arena_id, mine)
            read = [await self.arenas.standings(arena_id, number) for number in by_page]
        for (number, followers), page in zip(by_page.items(), read, strict=True):
            followed.total = page["total"]
            rows = {row["rank"]: row for row in page["rows"]}
            before = followed.pages.get(number)
            followed.pages[number] = rows
            lines = changed_lines(before, rows, final)
            shared: bytes | None = None
            for follower in followers:
                you = yous.get(follower, follower.you)
                own = (
                    lines if follower.rows is before else changed_lines(follower.rows, rows, final)
                )
                if not final and not own and you == follower.you:
                    follower.rows = rows
                    continue
                told_you = you if final or you != follower.you else None
                follower.rows = rows
                follower.you = you
                if own is lines and told_you is None:
                    if shared is None:
                        shared = standings_message(
                            arena_id, follower.page, page, final, lines, None
                        )
                    follower.send(shared)
                else:
                    follower.send(
                        standings_message(arena_id, follower.page, page, final, own, told_you)
                    )

    async def _yous(self, arena_id: str, followers: list[Follower]) -> dict[Follower, Any]:
        """The own lines of followers who follow with their player token (None for one
        not in the arena), read in one call."""
        ids = list({f.player_id for f in followers if f.player_id is not None})
        if not ids:
            return {}
        store = self.arenas.arenas
        entries = await from_store(store.entries(arena_id, ids))
        ranks = await from_store(store.ranks(arena_id, list(entries)))
        yous: dict[Follower, Any] = {}
        for follower in followers:
            entry = entries.get(follower.player_id or "")
            rank = ranks.get(follower.player_id or "")
            if entry is None or rank is None or follower.arena_token is None:
                yous[follower] = None
            else:
                yous[follower] = records.own_line(
                    orjson.loads(entry), rank + 1, *follower.arena_token
                )
        return yous
