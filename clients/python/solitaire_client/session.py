"""``GameSession``: play or watch one game over WebSocket with a live local state.

The session subscribes (as the player with the token, or as a watcher without one),
keeps the public state by applying every pushed JSON Patch, and checks that versions
go up by exactly one. A gap, a patch that does not apply or a score that does not add
up makes it resubscribe (``since`` its last version, or for a full snapshot), so the
local copy always converges on the service's. A dropped connection is redialled and
the game resumed from the last version (see :class:`~solitaire_client.Connection`).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
from collections.abc import Callable
from typing import Any, Literal

import jsonpatch

from service.protocol import Change, ErrorCode, PublicState
from service.protocol.ws import (
    ActionMessage,
    ErrorMessage,
    HintAnswer,
    HintMessage,
    ResignMessage,
    ResultMessage,
    SnapshotMessage,
    SubscribedMessage,
    SubscribeMessage,
    UndoMessage,
    UnsubscribeMessage,
)

from .connection import AnyServerMessage, Connection, Send
from .errors import ProtocolError, RuleRejected, error_from_message
from .following import Following
from .rest import new_request_id
from .types import ActionLike, action_payload

log = logging.getLogger("solitaire_client")

Update = Change | SnapshotMessage
"""What a session listener receives: each applied change, or a fresh snapshot."""

_RETRY_SUBSCRIBE = {ErrorCode.STORE_UNAVAILABLE, ErrorCode.RATE_LIMITED}


class GameSession(Following):
    """A live game over WebSocket; see the module docstring.

    Either give ``url`` (the session opens and owns its connection) or share an open
    :class:`Connection` (``connection=``) with other sessions and race watches.

    >>> async with GameSession("http://127.0.0.1:8000", game_id, token=token) as game:
    ...     await game.play("d")
    ...     print(game.state.waste, game.version)
    """

    first_view = "the game's snapshot"

    def __init__(
        self,
        url: str | None = None,
        game_id: str = "",
        *,
        token: str | None = None,
        connection: Connection | None = None,
        reconnect: bool = True,
    ) -> None:
        super().__init__(url, connection, reconnect)
        if not game_id:
            raise ValueError("game_id is required")
        self.game_id = game_id
        self.token = token
        self.role: Literal["player", "watcher"] | None = None
        self._doc: dict[str, Any] | None = None
        self._state: PublicState | None = None
        self._version = -1
        # None: in step. "since": resubscribed after a gap, only the next version fits.
        # "snapshot": waiting for a full snapshot, every change is ignored until then.
        self._awaiting: Literal["since", "snapshot"] | None = "snapshot"
        self._subscribe_ids: set[str] = set()
        self._listeners: list[Callable[[Update], None]] = []
        self._retry_task: asyncio.Task[None] | None = None
        self.resyncs = 0
        """How many times the session had to resubscribe because of a gap or bad patch."""
        self.changes_applied = 0

    # ------------------------------------------------------------------ lifecycle

    def _stop(self) -> None:
        if self._retry_task is not None:
            self._retry_task.cancel()

    def _unfollow_message(self) -> dict[str, Any]:
        return UnsubscribeMessage(
            type="unsubscribe", id=new_request_id(), game_id=self.game_id
        ).model_dump()

    # ------------------------------------------------------------------ state

    @property
    def version(self) -> int:
        """The version of the local state (-1 before the first snapshot)."""
        return self._version

    @property
    def state(self) -> PublicState:
        """The local copy of the public state."""
        if self._state is None:
            if self._doc is None:
                raise ProtocolError("no_state", "the session has no state yet")
            self._state = PublicState.model_validate(self._doc)
        return self._state

    def state_dict(self) -> dict[str, Any]:
        """A copy of the local state as plain JSON data."""
        if self._doc is None:
            raise ProtocolError("no_state", "the session has no state yet")
        return copy.deepcopy(self._doc)

    def add_listener(self, listener: Callable[[Update], None]) -> Callable[[], None]:
        """Calls ``listener`` after every applied change or snapshot; returns a remover."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    async def wait_for_version(self, version: int, timeout: float | None = 10.0) -> None:
        """Waits until the local state has reached ``version``."""
        async with asyncio.timeout(timeout):
            while self._version < version:
                self._check_usable()
                event = self._changed
                await event.wait()
        self._check_usable(allow_closed=True)

    # ------------------------------------------------------------------ playing

    async def play(
        self,
        action: ActionLike,
        *,
        expected_version: int | None = None,
        timeout: float | None = None,
    ) -> ResultMessage:
        """Plays one action and returns the accepted result once the local state has it.

        Raises ``RuleRejected`` (with the rule id and both messages) when a rule forbids
        it, ``InvalidAction`` for notation the service cannot read, and the other typed
        errors for the other refusals.
        """
        message = ActionMessage(
            type="action",
            id=new_request_id(),
            game_id=self.game_id,
            action=action_payload(action),
            expected_version=expected_version,
        )
        return await self._act(message.model_dump(by_alias=True, exclude_none=True), timeout)

    async def undo(
        self, *, expected_version: int | None = None, timeout: float | None = None
    ) -> ResultMessage:
        """Undoes the last action; returns the accepted result."""
        message = UndoMessage(
            type="undo",
            id=new_request_id(),
            game_id=self.game_id,
            expected_version=expected_version,
        )
        return await self._act(message.model_dump(exclude_none=True), timeout)

    async def hint(self, *, timeout: float | None = None) -> HintAnswer:
        """One suggested action from what the player can see (counted in the game)."""
        self._check_usable()
        answer = await self.connection.request(
            HintMessage(type="hint", id=new_request_id(), game_id=self.game_id).model_dump(),
            timeout=timeout,
        )
        if not isinstance(answer, HintAnswer):
            raise ProtocolError("bad_answer", f"expected a hint, got {answer.type}")
        return answer

    async def resign(self, *, timeout: float | None = None) -> ResultMessage:
        """Ends the game where it stands (final, like a won game); in a race, resigns."""
        message = ResignMessage(type="resign", id=new_request_id(), game_id=self.game_id)
        return await self._act(message.model_dump(), timeout)

    async def _act(self, message: dict[str, Any], timeout: float | None) -> ResultMessage:
        self._check_usable()
        answer = await self.connection.request(message, timeout=timeout)
        if not isinstance(answer, ResultMessage):
            raise ProtocolError("bad_answer", f"expected a result, got {answer.type}")
        if answer.status == "rejected":
            if answer.rejection is None:
                raise ProtocolError("bad_answer", "a rejected result without a rejection")
            raise RuleRejected.from_rejection(answer.rejection, answer.version)
        if answer.version is not None:
            await self.wait_for_version(answer.version, timeout=timeout or 10.0)
        return answer

    # ------------------------------------------------------------------ subscription

    def _subscribe_message(self, since: int | None) -> dict[str, Any]:
        message = SubscribeMessage(
            type="subscribe",
            id=new_request_id(),
            game_id=self.game_id,
            token=self.token,
            since=since,
        )
        self._subscribe_ids.add(message.id)
        return message.model_dump(exclude_none=True)

    async def _resubscribe(self, send: Send, *, snapshot: bool = False) -> None:
        self._awaiting = "snapshot" if snapshot or self._doc is None else "since"
        since = None if self._awaiting == "snapshot" else self._version
        await send(self._subscribe_message(since))

    async def on_connected(self, send: Send) -> None:
        self._subscribe_ids.clear()
        await self._resubscribe(send)

    async def on_rate_limited(self, send: Send) -> None:
        if self._awaiting is not None:
            await self._resubscribe(send, snapshot=self._awaiting == "snapshot")

    def on_fatal(self, error: ProtocolError) -> None:
        self._failure = self._failure or error
        self._ready.set()
        self._changed.set()

    async def on_message(self, message: AnyServerMessage) -> None:
        if isinstance(message, Change):
            if message.game_id == self.game_id:
                await self._on_change(message)
        elif isinstance(message, SnapshotMessage):
            if message.game_id == self.game_id:
                self._on_snapshot(message)
        elif isinstance(message, SubscribedMessage):
            if message.game_id == self.game_id and message.id in self._subscribe_ids:
                self._subscribe_ids.discard(message.id)
                self.role = message.role
                if self._awaiting == "since":
                    self._awaiting = None if message.recovered else "snapshot"
        elif isinstance(message, ErrorMessage):
            await self._on_error(message)

    def _on_snapshot(self, message: SnapshotMessage) -> None:
        self._doc = message.state.model_dump(mode="json")
        self._state = message.state
        self._version = message.version
        self._awaiting = None
        self._notify(message)
        self._ready.set()

    async def _on_change(self, change: Change) -> None:
        if self._awaiting == "snapshot" or self._doc is None:
            return
        if change.version <= self._version:
            return  # already applied (a catch-up may repeat what the pump delivered)
        if change.version != self._version + 1:
            if self._awaiting is None:
                log.info("gap: version %d after %d; resuming", change.version, self._version)
                self.resyncs += 1
                await self._resubscribe(self.connection.send)
            return
        ops = [
            {"op": op.op, "path": op.path, **({} if op.op == "remove" else {"value": op.value})}
            for op in change.patch
        ]
        try:
            doc: dict[str, Any] = jsonpatch.apply_patch(self._doc, ops, in_place=False)
        except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException) as exc:
            log.warning("patch for version %d does not apply (%s); resyncing", change.version, exc)
            self.resyncs += 1
            await self._resubscribe(self.connection.send, snapshot=True)
            return
        if doc.get("score") != change.score.total:
            log.warning("score mismatch at version %d; resyncing", change.version)
            self.resyncs += 1
            await self._resubscribe(self.connection.send, snapshot=True)
            return
        self._doc = doc
        self._state = None
        self._version = change.version
        self.changes_applied += 1
        self._notify(change)

    async def _on_error(self, message: ErrorMessage) -> None:
        if message.id is not None and message.id in self._subscribe_ids:
            self._subscribe_ids.discard(message.id)
            if message.code in _RETRY_SUBSCRIBE:
                self._retry_later()
                return
            error = error_from_message(message)
            self._failure = error
            self._ready.set()
            self._changed.set()
        elif message.id is None and message.game_id == self.game_id:
            # The service could not catch this subscription up: ask again shortly.
            self._retry_later()

    def _retry_later(self, delay: float = 0.5) -> None:
        if self._retry_task is not None and not self._retry_task.done():
            return

        async def retry() -> None:
            await asyncio.sleep(delay)
            with contextlib.suppress(ProtocolError):
                await self._resubscribe(self.connection.send, snapshot=self._doc is None)

        self._retry_task = asyncio.create_task(retry())

    def _notify(self, update: Update) -> None:
        event, self._changed = self._changed, asyncio.Event()
        event.set()
        for listener in list(self._listeners):
            try:
                listener(update)
            except Exception:
                log.exception("session listener failed")
