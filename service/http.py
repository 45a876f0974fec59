"""Shared pieces of the HTTP routes: JSON answers, problem details, bodies and tokens."""

from __future__ import annotations

from typing import Any, TypeVar

import orjson
from pydantic import BaseModel, ValidationError
from starlette.requests import Request
from starlette.responses import Response

from .errors import ServiceError
from .protocol import ErrorCode, describe_validation_error

M = TypeVar("M", bound=BaseModel)

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
