"""The OpenAPI paths of the service itself: the API index, this document, metrics,
health and readiness."""

from __future__ import annotations

from typing import Any

from ..protocol import Health
from .common import json_body

_API_INDEX: dict[str, Any] = {
    "type": "object",
    "properties": {
        "service": {"const": "solitaire"},
        "openapi": {"type": "string"},
        "websocket": {"type": "string"},
        "games": {"type": "string"},
    },
    "required": ["service", "openapi", "websocket", "games"],
    "additionalProperties": False,
}


def _response(description: str, media_type: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "content": {media_type: {"schema": schema}}}


def service_paths() -> dict[str, Any]:
    return {
        "/api": {
            "get": {
                "operationId": "apiIndex",
                "summary": "Where the API documents and entry points are",
                "responses": {
                    "200": _response(
                        "Paths of the OpenAPI document, the WebSocket and the games",
                        "application/json",
                        _API_INDEX,
                    )
                },
            }
        },
        "/openapi.json": {
            "get": {
                "operationId": "openapi",
                "summary": "This document",
                "responses": {
                    "200": _response("OpenAPI 3.1", "application/json", {"type": "object"})
                },
            }
        },
        "/metrics": {
            "get": {
                "operationId": "metrics",
                "summary": "Prometheus metrics of this instance",
                "responses": {
                    "200": _response("Text exposition format", "text/plain", {"type": "string"})
                },
            }
        },
        "/healthz": {
            "get": {
                "operationId": "health",
                "summary": "Liveness",
                "responses": {"200": json_body(Health, "Alive")},
            }
        },
        "/readyz": {
            "get": {
                "operationId": "ready",
                "summary": "Readiness: fails when the store is unreachable",
                "responses": {
                    "200": json_body(Health, "Ready"),
                    "503": json_body(Health, "Store unreachable"),
                },
            }
        },
    }
