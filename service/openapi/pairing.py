"""The OpenAPI paths of quick pairing: ask to race now, read the seek, cancel it."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from ..protocol import ErrorCode
from ..protocol.pairing import SeekRequest, SeekResponse
from .common import AUTH, BODY, WRITE, errors, json_body, path_param, request_body

PAIRING_MODELS: list[type[BaseModel]] = [SeekRequest, SeekResponse]
SEEK_ID = path_param("seek_id")
_OWN_SEEK = [ErrorCode.UNAUTHORIZED, ErrorCode.NOT_FOUND, ErrorCode.NOT_YOUR_SEEK]


def pairing_paths() -> dict[str, Any]:
    return {
        "/pairing/seeks": {"post": _create_seek()},
        "/pairing/seeks/{seek_id}": {"get": _get_seek(), "delete": _cancel_seek()},
    }


def _create_seek() -> dict[str, Any]:
    return {
        "operationId": "createSeek",
        "summary": "Ask to race now in a mode (quick pairing), with your player token",
        "security": AUTH,
        "requestBody": request_body(SeekRequest, required=True),
        "responses": {
            "201": json_body(SeekResponse, "Waiting to be paired"),
            **errors(*BODY, ErrorCode.UNAUTHORIZED, ErrorCode.ALREADY_SEEKING),
        },
    }


def _get_seek() -> dict[str, Any]:
    return {
        "operationId": "getSeek",
        "summary": "Your seek: waiting (reading it keeps it), paired (with your race) or cancelled",
        "security": AUTH,
        "parameters": [SEEK_ID],
        "responses": {
            "200": json_body(SeekResponse, "The seek"),
            **errors(*_OWN_SEEK),
        },
    }


def _cancel_seek() -> dict[str, Any]:
    return {
        "operationId": "cancelSeek",
        "summary": "Cancel your seek; one already paired stays paired",
        "security": AUTH,
        "parameters": [SEEK_ID],
        "responses": {
            "200": json_body(SeekResponse, "The seek as it stands"),
            **errors(*_OWN_SEEK, *WRITE),
        },
    }
