"""Strict reading of what a client sends: each field takes the JSON type of its schema.

Every model a client sends (the HTTP bodies, the WebSocket's client messages and the
action objects inside both) is a ``service.protocol.ClientModel``, whose ``strict``
config turns pydantic's conversions off: an integer takes a JSON integer, not "5",
true or 5.0 (a number written with a fraction is refused even when the fraction is
zero); a string takes a JSON string; a boolean JSON true or false. Reading is the same
for a frame parsed as JSON (the WebSocket) and for a body decoded first (HTTP), since
no request field is an enum, which strict reading of decoded JSON would want as an
enum member rather than its string (a literal of strings reads the same either way).

Literals are the exception: pydantic matches one by equality, strict or not, so
``Literal[1, 3]`` would take true or 1.0 and ``Literal[True]`` would take 1. Their types
here add the check of the JSON type.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator
from pydantic_core import PydanticCustomError


def only_json_booleans(value: Any) -> Any:
    """JSON true or false and nothing else, for a ``Literal[True]``. Null stays null."""
    if value is not None and not isinstance(value, bool):
        raise PydanticCustomError("bool_type", "Input should be a valid boolean")
    return value


def only_json_integers(value: Any) -> Any:
    """A JSON integer and nothing else, for a literal of integers: not true (a bool is an
    int in Python), not 1.0. Null stays null."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise PydanticCustomError("int_type", "Input should be a valid integer")
    return value


DrawCount = Annotated[Literal[1, 3], BeforeValidator(only_json_integers)]
