"""Shared pieces of the HTTP routes: JSON answers, problem details, bodies and tokens."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

import orjson
from pydantic import BaseModel, ValidationError
from starlette.requests import Request
from starlette.responses import Response

from .errors import ServiceError
from .protocol import ErrorCode, describe_validation_error
from .support.tasks import cancel_and_wait

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")
# The status logged for a request whose client left before its answer (nobody reads it).
CLIENT_GONE = 499

MAX_BODY_BYTES = 16 * 1024
PROBLEM_TYPE = "https://solitaire.invalid/problems/"


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(orjson.dumps(data), status, headers, media_type="application/json")


def problem(
    code: ErrorCode, status: int, detail: str, extra: dict[str, Any] | None = None
) -> Response:
    body = {
        "type": PROBLEM_TYPE + code.value,
        "title": code.value.replace("_", " "),
        "status": status,
        "code": code.value,
        "detail": detail,
        **(extra or {}),
    }
    return Response(orjson.dumps(body), status, media_type="application/problem+json")


async def read_body(request: Request, model: type[M]) -> M:
    raw = await request.body()
    if len(raw) > MAX_BODY_BYTES:
        raise ServiceError(
            ErrorCode.FRAME_TOO_LARGE, 413, f"request bodies are limited to {MAX_BODY_BYTES} bytes"
        )
    try:
        data = orjson.loads(raw or b"{}")
    except orjson.JSONDecodeError as exc:
        raise ServiceError(ErrorCode.BAD_JSON, 400, f"body is not valid JSON: {exc}") from exc
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ServiceError(ErrorCode.BAD_MESSAGE, 422, describe_validation_error(exc)) from exc


def bearer_token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


async def while_connected(request: Request, work: Coroutine[Any, Any, T]) -> T | None:
    """The result of ``work``, or None once the client has closed its connection, with
    ``work`` cancelled: nobody is left to answer, and what it costs is spent for nobody.
    For requests whose body has been read (or that have none)."""
    task = asyncio.ensure_future(work)
    gone = asyncio.ensure_future(_disconnect(request))
    try:
        await asyncio.wait({task, gone}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        if not task.done():
            await cancel_and_wait(task)
        await cancel_and_wait(gone)
    if task.cancelled():
        return None
    return task.result()


async def _disconnect(request: Request) -> None:
    while (await request.receive())["type"] != "http.disconnect":
        pass
