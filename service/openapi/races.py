"""The OpenAPI paths of races: the lobby, the commands of its players, the result."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from ..protocol import ErrorCode
from ..protocol.races import (
    CreateRaceRequest,
    JoinRaceRequest,
    RaceJoined,
    RaceResponse,
    ReadyRequest,
)
from .common import (
    AUTH,
    BODY,
    OPTIONAL_AUTH,
    RACE_COMMAND,
    RACE_ID,
    WRITE,
    errors,
    json_body,
    request_body,
)


def race_paths() -> dict[str, Any]:
    return {
        "/races": {"post": _create_race()},
        "/races/join": {"post": _join_race()},
        "/races/{race_id}": {"get": _get_race()},
        "/races/{race_id}/ready": {
            "post": _race_command("raceReady", "Set ready", ReadyRequest, ErrorCode.RACE_STARTED)
        },
        "/races/{race_id}/start": {
            "post": _race_command(
                "raceStart", "Start (host)", None, ErrorCode.NOT_HOST, ErrorCode.RACE_STARTED
            )
        },
        "/races/{race_id}/resign": {
            "post": _race_command(
                "raceResign",
                "Resign",
                None,
                ErrorCode.RACE_NOT_STARTED,
                ErrorCode.RACE_OVER,
            )
        },
        "/races/{race_id}/rematch": {
            "post": _race_command(
                "raceRematch",
                "New race, same players, new deal",
                None,
                ErrorCode.RACE_NOT_FINISHED,
                ErrorCode.BAD_CODE,
            )
        },
    }


def _race_command(
    operation_id: str, summary: str, body: type[BaseModel] | None, *codes: ErrorCode
) -> dict[str, Any]:
    operation: dict[str, Any] = {
        "operationId": operation_id,
        "summary": summary,
        "security": AUTH,
        "parameters": [RACE_ID],
        "responses": {
            "200": json_body(RaceResponse, "The race after the command"),
            **errors(*RACE_COMMAND, *codes, *(BODY if body is not None else WRITE)),
        },
    }
    if body is not None:
        operation["requestBody"] = request_body(body)
    return operation


def _create_race() -> dict[str, Any]:
    return {
        "operationId": "createRace",
        "summary": "Create a race; you are its host and first player",
        "requestBody": request_body(CreateRaceRequest, required=True),
        "responses": {
            "201": json_body(RaceJoined, "Created"),
            **errors(
                *BODY,
                ErrorCode.BAD_CODE,
                ErrorCode.UNAUTHORIZED,
                ErrorCode.WINNABLE_NOT_OFFERED,
                ErrorCode.WINNABLE_POOL_EMPTY,
            ),
        },
    }


def _join_race() -> dict[str, Any]:
    return {
        "operationId": "joinRace",
        "summary": "Join a race in its lobby with the shared join code",
        "requestBody": request_body(JoinRaceRequest, required=True),
        "responses": {
            "201": json_body(RaceJoined, "Joined"),
            **errors(
                *BODY,
                ErrorCode.NOT_FOUND,
                ErrorCode.RACE_FULL,
                ErrorCode.RACE_STARTED,
                ErrorCode.ALREADY_IN_RACE,
                ErrorCode.STALE_VERSION,
                ErrorCode.UNAUTHORIZED,
            ),
        },
    }


def _get_race() -> dict[str, Any]:
    return {
        "operationId": "getRace",
        "summary": "Lobby, progress and (once over) result; `you` with a race token",
        "security": OPTIONAL_AUTH,
        "parameters": [RACE_ID],
        "responses": {
            "200": json_body(RaceResponse, "The race"),
            **errors(*RACE_COMMAND),
        },
    }
