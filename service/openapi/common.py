"""What the parts of the OpenAPI document share: references to the protocol models,
path parameters, and the problem responses of each error code."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from ..protocol import ErrorCode, Problem


def ref(model: type[BaseModel]) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{model.__name__}"}


def json_body(model: type[BaseModel], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": ref(model)}}}


def request_body(model: type[BaseModel], *, required: bool | None = None) -> dict[str, Any]:
    """A JSON request body; ``required`` is left out of the document unless given, as the
    published document has always done for the operations that do not state it."""
    content = {"application/json": {"schema": ref(model)}}
    if required is None:
        return {"content": content}
    return {"required": required, "content": content}


def path_param(name: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}


GAME_ID = path_param("game_id")
RACE_ID = path_param("race_id")
ARENA_ID = path_param("arena_id")
AUTH: list[dict[str, list[str]]] = [{"bearer": []}]
# Without a token the operation answers too, with what anyone may see.
OPTIONAL_AUTH: list[dict[str, list[str]]] = [{}, {"bearer": []}]

# The HTTP status of every error code (docs/protocol.md repeats it in its error table).
# Codes without one are sent over the WebSocket only.
ERROR_STATUS: dict[ErrorCode, int] = {
    ErrorCode.BAD_JSON: 400,
    ErrorCode.BAD_MESSAGE: 422,
    ErrorCode.FRAME_TOO_LARGE: 413,
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.UNAUTHORIZED: 401,
    ErrorCode.BAD_CODE: 422,
    ErrorCode.INVALID_ACTION: 422,
    ErrorCode.RULE_VIOLATION: 409,
    ErrorCode.STALE_VERSION: 409,
    ErrorCode.GAME_TOO_LONG: 409,
    ErrorCode.STORE_UNAVAILABLE: 503,
    ErrorCode.REQUEST_ID_REUSED: 409,
    ErrorCode.METHOD_NOT_ALLOWED: 405,
    ErrorCode.INTERNAL_ERROR: 500,
    ErrorCode.RACE_RUNNING: 403,
    ErrorCode.RACE_FULL: 409,
    ErrorCode.RACE_STARTED: 409,
    ErrorCode.RACE_NOT_STARTED: 409,
    ErrorCode.RACE_OVER: 409,
    ErrorCode.RACE_NOT_FINISHED: 409,
    ErrorCode.NOT_HOST: 403,
    ErrorCode.RATE_LIMITED: 429,
    ErrorCode.GAME_NOT_OVER: 409,
    ErrorCode.BAD_NAME: 422,
    ErrorCode.DAILY_CLOSED: 409,
    ErrorCode.DAILY_RUNNING: 403,
    ErrorCode.DAILY_ATTEMPT_USED: 409,
    ErrorCode.ALREADY_IN_RACE: 409,
    ErrorCode.ALREADY_SEEKING: 409,
    ErrorCode.NOT_YOUR_SEEK: 403,
    ErrorCode.ARENA_OVER: 409,
    ErrorCode.ARENA_STARTED: 409,
    ErrorCode.NOT_IN_ARENA: 409,
    ErrorCode.NOT_YOUR_ARENA: 403,
    ErrorCode.WINNABLE_POOL_EMPTY: 503,
    ErrorCode.WINNABLE_NOT_OFFERED: 422,
    ErrorCode.HINTS_NOT_ALLOWED: 403,
    ErrorCode.BUSY: 503,
}

STATUS_TEXT = {
    400: "Body is not JSON",
    401: "Missing or wrong token (the game, race or player token the operation needs)",
    403: "Forbidden",
    404: "No such game, race or join code",
    405: "Method not allowed",
    409: "Conflict with the state of the game or race",
    413: "Body over the size limit",
    422: "Malformed request",
    429: "Too many requests from this address; see Retry-After",
    500: "Fault in the service",
    503: "Store unavailable or the solver busy; retry after Retry-After",
}

# Codes that any request can meet, and those of any request with a JSON body.
ANY = [ErrorCode.STORE_UNAVAILABLE, ErrorCode.INTERNAL_ERROR]
# Every POST counts against its address's write rate.
WRITE = [ErrorCode.RATE_LIMITED]
BODY = [ErrorCode.BAD_JSON, ErrorCode.FRAME_TOO_LARGE, ErrorCode.BAD_MESSAGE, *WRITE]
# Reading an ended game (replay, analysis): public once the game, its race or its day
# is over.
ENDED_GAME_READ = [
    ErrorCode.NOT_FOUND,
    ErrorCode.GAME_NOT_OVER,
    ErrorCode.RACE_NOT_STARTED,
    ErrorCode.RACE_RUNNING,
    ErrorCode.DAILY_RUNNING,
]
# Reading a game that belongs to a race: nobody before the start, only its player (with
# the race token) while the race runs.
RACE_GAME_READ = [
    ErrorCode.NOT_FOUND,
    ErrorCode.UNAUTHORIZED,
    ErrorCode.RACE_NOT_STARTED,
    ErrorCode.RACE_RUNNING,
    # Likewise a daily challenge game, until its day is over.
    ErrorCode.DAILY_RUNNING,
]
PLAY = [
    *BODY,
    ErrorCode.NOT_FOUND,
    ErrorCode.UNAUTHORIZED,
    ErrorCode.INVALID_ACTION,
    ErrorCode.RULE_VIOLATION,
    ErrorCode.STALE_VERSION,
    ErrorCode.GAME_TOO_LONG,
    ErrorCode.REQUEST_ID_REUSED,
    ErrorCode.RACE_NOT_STARTED,
    ErrorCode.RACE_OVER,
    # A ranked daily attempt stands as it was when its day ended.
    ErrorCode.DAILY_CLOSED,
]
# A race that changes under a command is retried a few times, then refused as stale.
RACE_COMMAND = [ErrorCode.NOT_FOUND, ErrorCode.UNAUTHORIZED, ErrorCode.STALE_VERSION]


def errors(*codes: ErrorCode) -> dict[str, Any]:
    """The problem responses of an operation, one per status, each naming its codes.

    The schema of each narrows ``code`` to the codes this operation can send with that
    status, so a client generated from the document knows exactly what to expect.
    """
    by_status: dict[int, list[ErrorCode]] = {}
    for code in [*codes, *ANY]:
        listed = by_status.setdefault(ERROR_STATUS[code], [])
        if code not in listed:
            listed.append(code)
    responses: dict[str, Any] = {}
    for status in sorted(by_status):
        names = [code.value for code in by_status[status]]
        described = ", ".join(f"`{name}`" for name in names)
        responses[str(status)] = {
            "description": f"{STATUS_TEXT[status]}: {described}",
            "content": {
                "application/problem+json": {
                    "schema": {
                        "allOf": [
                            ref(Problem),
                            {"properties": {"code": {"enum": names}}, "required": ["code"]},
                        ]
                    }
                }
            },
        }
    return responses


def game_read(
    operation_id: str,
    summary: str,
    model: type[BaseModel],
    answer: str,
    *codes: ErrorCode,
) -> dict[str, Any]:
    return {
        "operationId": operation_id,
        "summary": summary,
        "parameters": [GAME_ID],
        "responses": {"200": json_body(model, answer), **errors(*codes)},
    }
