"""Race messages reach a connection newest last: each is the whole race, so one older
than what the connection already got is left out; progress messages all go out."""

from __future__ import annotations

from typing import Any, cast

from service.config import Settings
from service.store import Delivery, race_topic
from service.ws.pump import Pump


class Outbox:
    def __init__(self) -> None:
        self.sent: list[bytes] = []

    async def send_raw(self, payload: bytes) -> None:
        self.sent.append(payload)


async def test_an_older_race_message_after_a_newer_one_is_left_out() -> None:
    outbox = Outbox()
    pump = Pump(cast(Any, outbox), cast(Any, None), cast(Any, None), Settings())
    pump.race_watches["r1"] = None
    pump.race_versions["r1"] = 2  # the version of the race sent when watching began
    topic = race_topic("r1")
    for delivery in [
        Delivery(topic, 2, b"v2 again"),
        Delivery(topic, 4, b"v4"),
        Delivery(topic, 0, b"progress"),
        Delivery(topic, 3, b"v3, late"),
        Delivery(topic, 0, b"progress"),
        Delivery(topic, 5, b"v5"),
        Delivery(race_topic("other"), 9, b"not watched"),
    ]:
        await pump._forward(delivery)
    assert outbox.sent == [b"v4", b"progress", b"progress", b"v5"]
    assert pump.race_versions["r1"] == 5
