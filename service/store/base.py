"""The store's interface and the types both backends share: stored games and races,
commits and their results, deliveries to subscribers, and the local fan-out."""

from __future__ import annotations

import functools
import hashlib
from abc import ABC, abstractmethod
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple, Protocol

from ..config import Settings
from .arenas import Arenas
from .records import Records
from .seeks import Seeks


class StoreUnavailable(Exception):
    """The backend cannot be reached; nothing was written."""


@dataclass(slots=True)
class StoredGame:
    game_id: str
    version: int
    state: str
    token_hash: str
    code: str
    # Once the game is over (won or resigned) it is kept for ``won_game_ttl_seconds``
    # and its record becomes public.
    over: bool = False
    race_id: str = ""
    # The player who created the game (empty: anonymous) and its daily challenge, if any.
    player_id: str = ""
    challenge: str = ""
    # The code is kept from clients until the game is over (a secret deal).
    hidden: bool = False
    # Server time the game was created (ms since the epoch); 0 for games from before.
    created_ms: int = 0


@dataclass(slots=True)
class StoredRace:
    """A race document (JSON, secrets included) with its compare-and-set version."""

    race_id: str
    version: int
    doc: str


class CommitStatus(Enum):
    APPLIED = "applied"
    DUPLICATE = "duplicate"
    CONFLICT = "conflict"
    MISSING = "missing"
    FULL = "full"
    REUSED = "reused"


# Named tuples, immutable like frozen dataclasses and built in half the time: every
# action makes one of each.
class CommitResult(NamedTuple):
    status: CommitStatus
    version: int


class Delivery(NamedTuple):
    """A change for a local subscriber; ``payload`` is None when it must resynchronise."""

    game_id: str
    version: int
    payload: bytes | None


class Subscriber(Protocol):
    """A local receiver of a game's changes (one WebSocket connection)."""

    def deliver(self, delivery: Delivery) -> None:
        """Must not block: a subscriber that cannot keep up handles that itself."""


def race_topic(race_id: str) -> str:
    """Subscriptions are by topic: a game id, or this for a race."""
    return f"race:{race_id}"


def is_game_topic(topic: str) -> bool:
    """Whether a topic is a game's: any other names its kind before a colon (a race's,
    an arena's, a seek's), which no game id holds."""
    return ":" not in topic


def log_entry(notation: str, at_ms: int) -> str:
    """An action as the log keeps it: its notation and its time after the game's start."""
    return f"{notation} {at_ms}"


def read_log_entry(entry: str) -> tuple[str, int | None]:
    notation, _, at = entry.partition(" ")
    return notation, int(at) if at else None


@functools.lru_cache(maxsize=16384)
def hash_token(token: str) -> str:
    # Remembered: a player's every action checks the same token again. The process holds
    # the tokens of its connections anyway; this holds the last ones seen a while longer.
    return hashlib.sha256(token.encode()).hexdigest()


# How many of a game's latest versions an instance remembers having handed to its
# subscribers: far more than can be on their way through pub/sub at once.
_RECENT_VERSIONS = 64

# Request ids are remembered for this many accepted actions of a game: enough for a
# client to retry whatever it had in flight when its connection dropped.
REQUEST_MEMORY = 32
# The commit also keeps the state of every version that is a multiple of this, so that
# rebuilding the changes after any version replays fewer than this many actions first,
# however long the game. (A game of 200 actions has none: they cost nothing there.)
CHECKPOINT_INTERVAL = 256


@dataclass(frozen=True, slots=True)
class History:
    """A stretch of a game's action log, and the state to replay it from."""

    length: int  # actions in the whole log: the game's version
    base_version: int  # the version of ``base_state``
    base_state: str | None  # serialized state at ``base_version``; None: from the deal (0)
    actions: list[str]  # the actions after ``base_version``, up to the stop asked for


class Store(ABC):
    """A game store. Commit is the only write after create, and it is atomic.

    Every write is done once per call whatever the network did: a call whose command
    reached Redis twice (its reply lost, the client library sent it again) is answered
    as the first one was (``redis_once``)."""

    # Players' documents, boards and single-use keys, kept by the same backend.
    records: Records
    # The pool of quick pairing.
    seeks: Seeks
    # Arena tournaments.
    arenas: Arenas

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._local: dict[str, set[Subscriber]] = {}
        # Per game with local subscribers: the versions handed to them lately.
        self._dispatched: dict[str, set[int]] = {}

    @property
    @abstractmethod
    def kind(self) -> str: ...

    async def open(self) -> None:  # noqa: B027 - optional for backends
        """Connects; called once at start-up."""

    async def close(self) -> None:  # noqa: B027 - optional for backends
        """Releases connections; called once at shutdown."""

    @abstractmethod
    async def ping(self) -> None:
        """Raises ``StoreUnavailable`` when the backend does not answer."""

    @abstractmethod
    async def create(self, game: StoredGame) -> None: ...

    @abstractmethod
    async def load(self, game_id: str) -> StoredGame | None: ...

    @abstractmethod
    async def commit(
        self,
        game_id: str,
        expected_version: int,
        state: str,
        notation: str,
        request_id: str | None,
        over: bool,
        payload: bytes,
        fingerprint: str = "",
    ) -> CommitResult:
        """Writes the new state if the game is still at ``expected_version``.

        In one atomic step: answers a request id seen before with DUPLICATE (same
        ``fingerprint``, with the version it produced) or REUSED (another request under
        the same id), refuses a changed version (CONFLICT, with the current one), else
        stores the state, appends ``notation`` to the game's action log, remembers the
        request id and publishes ``payload`` to every subscriber of the game.
        """

    @abstractmethod
    async def seen_request(self, game_id: str, request_id: str) -> tuple[int, str] | None:
        """(version it produced, fingerprint) of an earlier accepted request, if remembered."""

    async def find_request(self, game_id: str, request_id: str) -> int | None:
        """The version an earlier accepted request produced, if remembered."""
        seen = await self.seen_request(game_id, request_id)
        return seen[0] if seen else None

    async def actions(self, game_id: str) -> list[str] | None:
        """The whole action log in order (action ``k`` produced version ``k``)."""
        timed = await self.timed_actions(game_id)
        return None if timed is None else [notation for notation, _ in timed]

    async def load_many(
        self, game_ids: list[str], with_actions: bool = False
    ) -> list[tuple[StoredGame | None, list[str] | None]]:
        """Several games at once (with their action logs if asked), in the order given.

        A backend answers them in one round trip; the games need not be read at one
        instant (each one is read whole).
        """
        found: list[tuple[StoredGame | None, list[str] | None]] = []
        for game_id in game_ids:
            stored = await self.load(game_id)
            actions = await self.actions(game_id) if with_actions and stored else None
            found.append((stored, actions))
        return found

    @abstractmethod
    async def timed_actions(self, game_id: str) -> list[tuple[str, int | None]] | None:
        """The log with each action's server time, in ms after the game was created
        (``None`` for actions logged without one)."""

    @abstractmethod
    async def history(self, game_id: str, since: int, stop: int) -> History | None:
        """The actions after the latest checkpoint at or before version ``since`` (the
        deal if there is none), up to version ``stop`` (or the end of the log), read in
        one consistent step with that checkpoint."""

    # ------------------------------------------------------------------ races

    @abstractmethod
    async def create_race(self, race: StoredRace, join_code: str) -> bool:
        """Stores a new race under a fresh join code; False if the code is taken."""

    @abstractmethod
    async def load_race(self, race_id: str) -> StoredRace | None: ...

    @abstractmethod
    async def race_versions(self, race_ids: list[str]) -> dict[str, int]:
        """The stored version of each race that exists, in one call: a reader that
        looks at hundreds of races a second, most of them unchanged, reads a number
        rather than each race's document."""

    @abstractmethod
    async def save_race(
        self, race_id: str, expected_version: int, doc: str, payload: bytes, over: bool = False
    ) -> CommitResult:
        """Replaces the race document if still at ``expected_version``, then publishes
        ``payload`` on the race's topic (``race_topic``). A race that is ``over`` is kept
        like a won game (``won_game_ttl_seconds``), for its published result."""

    @abstractmethod
    async def renew_race(self, race_id: str) -> None:
        """A race still played lives ``game_ttl_seconds`` from now: its document must not
        expire under its players (a race that is over keeps the lifetime it was given)."""

    @abstractmethod
    async def race_of_join_code(self, join_code: str) -> str | None: ...

    # ------------------------------------------------------------------ counters

    @abstractmethod
    async def tally(self, key: str, window_seconds: int, add: int = 1) -> int:
        """Adds ``add`` (0 only reads) to a counter shared by every instance, which is
        deleted ``window_seconds`` after it was first counted; returns its value."""

    @abstractmethod
    async def admit(self, key: str, limit: int, window_seconds: int) -> bool:
        """Counts one on the counter ``key`` (as ``tally`` does) if it is under ``limit``,
        in one atomic step; False, counting nothing, when it is not: of concurrent calls
        at most ``limit`` pass in a window."""

    @abstractmethod
    async def refund(self, key: str) -> None:
        """Takes one off the counter ``key`` (never below 0; nothing once its window is
        over): a call that was admitted turned out not to count."""

    @abstractmethod
    async def publish(self, topic: str, payload: bytes) -> None:
        """Publishes a transient message (not stored) to the topic's subscribers."""

    # ------------------------------------------------------------------ fan-out

    async def subscribe(self, game_id: str, subscriber: Subscriber) -> None:
        subscribers = self._local.setdefault(game_id, set())
        first = not subscribers
        subscribers.add(subscriber)
        if first:
            await self._listen(game_id)

    async def unsubscribe(self, game_id: str, subscriber: Subscriber) -> None:
        subscribers = self._local.get(game_id)
        if not subscribers or subscriber not in subscribers:
            return
        subscribers.discard(subscriber)
        if not subscribers:
            del self._local[game_id]
            self._dispatched.pop(game_id, None)
            await self._unlisten(game_id)

    @property
    def subscribed_games(self) -> int:
        """Games with at least one subscriber on this instance."""
        return sum(1 for topic in self._local if is_game_topic(topic))

    @property
    def feed_health(self) -> tuple[bool, int]:
        """Whether the changes made by other instances reach this one now (no
        reconnection under way), and how many times their feed has been lost."""
        return True, 0

    async def _listen(self, game_id: str) -> None:  # noqa: B027 - optional for backends
        """Starts receiving the game's changes from other instances."""

    async def _unlisten(self, game_id: str) -> None:  # noqa: B027 - optional for backends
        """Stops receiving the game's changes."""

    def _dispatch(self, delivery: Delivery) -> None:
        subscribers = self._local.get(delivery.game_id)
        if not subscribers:
            return
        if delivery.payload is not None and delivery.version > 0:
            # An instance hands its own commits to its subscribers at once; the copy that
            # comes back through pub/sub (when another instance watches too) is then not
            # handed out a second time. A lower version made elsewhere can arrive after
            # a higher one made here: it is still handed out.
            handed = self._dispatched.setdefault(delivery.game_id, set())
            if delivery.version in handed:
                return
            handed.add(delivery.version)
            if len(handed) > 2 * _RECENT_VERSIONS:
                floor = max(handed) - _RECENT_VERSIONS
                handed.difference_update([v for v in handed if v < floor])
        for subscriber in list(subscribers):
            subscriber.deliver(delivery)

    def _resync_all(self) -> None:
        for game_id in list(self._local):
            self._dispatch(Delivery(game_id, -1, None))
