"""Strict reading of what a client sends: each field takes the JSON type of its schema.

Every model a client sends (the HTTP bodies, the WebSocket's client messages and the
action objects inside both) is a ``service.protocol.ClientModel``, whose ``strict``
config turns pydantic's conversions off: an integer takes a JSON number with no
fractional part, as JSON Schema counts integers (5, 5.0 or 5e0; not "5", true or 5.5); a
string takes a JSON string; a boolean JSON true or false. Reading is the same
for a frame parsed as JSON (the WebSocket) and for a body decoded first (HTTP), since
no request field is an enum, which strict reading of decoded JSON would want as an
enum member rather than its string (a literal of strings reads the same either way).

Strict reading alone would refuse 5.0, which the schemas (draft 2020-12) call an integer
and which some clients cannot help sending (a JavaScript number has no integer type, and
some serialisers write every number with a fraction): ``JsonInt`` reads a whole number
written so as the integer it is, before the strict check. So the service accepts exactly
what its schemas accept (tests/service/test_schema_agreement.py).

Literals are the exception: pydantic matches one by equality, strict or not, so
``Literal[1, 3]`` would take true and ``Literal[True]`` would take 1. Their types here
add the check of the JSON type.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field
from pydantic_core import PydanticCustomError


def only_json_booleans(value: Any) -> Any:
    """JSON true or false and nothing else, for a ``Literal[True]``. Null stays null."""
    if value is not None and not isinstance(value, bool):
        raise PydanticCustomError("bool_type", "Input should be a valid boolean")
    return value


def whole_numbers(value: Any) -> Any:
    """A JSON number with no fractional part (5.0, 5e0; also an integer too long for 64
    bits, which the JSON reader gives as a float) as the integer it is; anything else as
    it came, for the strict check that follows."""
    if type(value) is float and value.is_integer():
        return int(value)
    return value


def only_json_integers(value: Any) -> Any:
    """A JSON integer (a whole number, 3 or 3.0) and nothing else, for a literal of
    integers: not true (a bool is an int in Python), not 1.5. Null stays null."""
    value = whole_numbers(value)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise PydanticCustomError("int_type", "Input should be a valid integer")
    return value


WHOLE = BeforeValidator(whole_numbers)
"""An integer field a client sends takes a whole JSON number, written with a fraction or
not: ``Annotated[int, Field(ge=0), WHOLE]``. Bounds go before it, where pydantic writes
them into the schema as ``minimum`` and ``maximum``."""

JsonInt = Annotated[int, WHOLE]
"""An integer a client sends, with no bounds."""

VersionNumber = Annotated[int, Field(ge=0), WHOLE]
"""A game version a client sends (``expected_version``, ``since``)."""

DrawCount = Annotated[Literal[1, 3], BeforeValidator(only_json_integers)]
