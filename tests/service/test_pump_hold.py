"""While a connection acts with changes in results, what arrives for that game waits
and then goes out in order, without the change its result carried."""

from __future__ import annotations

from typing import Any, cast

import pytest

from service.config import Settings
from service.store import Delivery
from service.ws.pump import Pump


def new_pump() -> Pump:
    # Holding and queueing need neither a socket nor the games.
    return Pump(cast(Any, None), cast(Any, None), cast(Any, None), Settings())


def queued(pump: Pump) -> list[Delivery]:
    items = []
    while not pump.inbox.empty():
        items.append(pump.inbox.get_nowait())
    return items


async def test_the_carried_change_is_dropped_and_the_rest_keeps_its_order() -> None:
    pump = new_pump()
    before = Delivery("g", 3, b"3")
    pump.deliver(before)
    with pump.hold("g") as held:
        held.carried = 5
        pump.deliver(Delivery("g", 4, b"from elsewhere"))
        pump.deliver(Delivery("other", 1, b"1"))
        pump.deliver(Delivery("g", 5, b"own"))
        pump.deliver(Delivery("g", -1, None))
    pump.deliver(Delivery("g", 6, b"after"))
    assert queued(pump) == [
        before,
        Delivery("other", 1, b"1"),
        Delivery("g", 4, b"from elsewhere"),
        Delivery("g", -1, None),
        Delivery("g", 6, b"after"),
    ]


async def test_nothing_is_dropped_when_the_result_carried_no_change() -> None:
    pump = new_pump()
    with pytest.raises(RuntimeError), pump.hold("g"):
        pump.deliver(Delivery("g", 5, b"own"))
        raise RuntimeError("the action failed after its commit")
    assert queued(pump) == [Delivery("g", 5, b"own")]
    pump.deliver(Delivery("g", 6, b"next"))
    assert queued(pump) == [Delivery("g", 6, b"next")]
