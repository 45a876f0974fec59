"""Prometheus metrics of one instance, in a registry of its own (one per app), and the
process-wide metrics of its connections (``CONNECTIONS``)."""

from __future__ import annotations

import time
from bisect import bisect_left
from collections.abc import Callable, Iterator

from prometheus_client import CollectorRegistry, Counter, Gauge, generate_latest
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector
from prometheus_client.samples import Sample

# Upper bounds (seconds) of the action latency histogram's buckets.
ACTION_SECONDS_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0)


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.connections = Gauge(
            "solitaire_ws_connections", "Open WebSocket connections", registry=self.registry
        )
        self.active_games = Gauge(
            "solitaire_active_games",
            "Games with at least one subscriber on this instance",
            registry=self.registry,
        )
        self.games_created = Counter(
            "solitaire_games_created", "Games created", ["game"], registry=self.registry
        )
        self.actions = ActionCounts()
        self.registry.register(self.actions)
        self.rejections = Counter(
            "solitaire_rejections",
            "Actions refused by a rule, by rule id",
            ["rule_id"],
            registry=self.registry,
        )
        self.errors = Counter(
            "solitaire_errors", "Requests refused, by error code", ["code"], registry=self.registry
        )
        self.slow_disconnects = Counter(
            "solitaire_slow_disconnects",
            "Connections closed because their send queue overflowed",
            registry=self.registry,
        )
        self.ws_frames_dropped = Counter(
            "solitaire_ws_frames_dropped",
            "WebSocket frames dropped unread because their connection was over its rate",
            registry=self.registry,
        )
        self.ws_flood_closes = Counter(
            "solitaire_ws_flood_closes",
            "WebSocket connections closed for going over their rate too often (1008)",
            registry=self.registry,
        )
        self.http_rate_limited = Counter(
            "solitaire_http_rate_limited",
            "HTTP requests refused with 429 by the per-address limits, by kind",
            ["kind"],
            registry=self.registry,
        )
        self.store_errors = Counter(
            "solitaire_store_errors", "Store (Redis) operations that failed", registry=self.registry
        )
        self.analyses = Counter(
            "solitaire_analyses",
            "Analysis requests by how they were served: searched, shared (joined a search under "
            "way), kept (answered from the store), busy, cancelled (every waiter had gone)",
            ["outcome"],
            registry=self.registry,
        )
        self.orphan_seconds = Counter(
            "solitaire_analysis_orphan_seconds",
            "Seconds searches ran after every client waiting for them had gone (an upper "
            "bound of the solver CPU spent for nobody)",
            registry=self.registry,
        )

    def follow_feed(self, health: Callable[[], tuple[bool, int]]) -> None:
        """Reports the store's change feed: ``health`` says whether it is up and how many
        times it was lost."""
        self.registry.register(FeedCollector(health))

    def render(self) -> bytes:
        return generate_latest(self.registry) + generate_latest(CONNECTIONS.registry)


class ActionCounts(Collector):
    """Accepted actions and the time each took, as a counter and a histogram.

    Counted on every action, so kept as plain numbers and turned into metric families
    only when scraped: ``prometheus_client``'s own counter and histogram take a lock per
    update, about 2 % of an action's CPU. Updated and read on the event loop's thread.
    """

    def __init__(self) -> None:
        self.created = time.time()
        self.total = 0
        self.seconds = 0.0
        # One count per bucket, the last for values above every bound.
        self.per_bucket = [0] * (len(ACTION_SECONDS_BUCKETS) + 1)

    def count(self, seconds: float) -> None:
        self.total += 1
        self.seconds += seconds
        self.per_bucket[bisect_left(ACTION_SECONDS_BUCKETS, seconds)] += 1

    def collect(self) -> Iterator[Metric]:
        yield CounterMetricFamily(
            "solitaire_actions",
            "Accepted actions and undos",
            value=self.total,
            created=self.created,
        )
        cumulative = 0
        buckets: list[tuple[str, float]] = []
        for bound, count in zip((*ACTION_SECONDS_BUCKETS, "+Inf"), self.per_bucket, strict=True):
            cumulative += count
            buckets.append((str(bound), cumulative))
        latency = HistogramMetricFamily(
            "solitaire_action_seconds",
            "Time to validate and commit one action",
            buckets=buckets,
            sum_value=self.seconds,
        )
        latency.samples.append(Sample("solitaire_action_seconds_created", {}, self.created))
        yield latency


class FeedCollector(Collector):
    """The change feed's state, read from the store at each scrape."""

    def __init__(self, health: Callable[[], tuple[bool, int]]) -> None:
        self.health = health

    def collect(self) -> Iterator[Metric]:
        up, losses = self.health()
        yield GaugeMetricFamily(
            "solitaire_change_feed_up",
            "1 while changes made by other instances reach this one, 0 while its change "
            "feed reconnects",
            value=int(up),
        )
        yield CounterMetricFamily(
            "solitaire_change_feed_losses",
            "Times this instance's change feed lost its connection to the store",
            value=losses,
        )


class ConnectionMetrics:
    """What the server refused or cut short, counted where it happens: in the HTTP and
    WebSocket protocols and the body limit, before (or without) any route seeing it.

    One per process, since connections belong to the server rather than to an app.
    """

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.open = Gauge(
            "solitaire_connections",
            "Open client connections (HTTP and WebSocket) that the server admitted",
            registry=self.registry,
        )
        self.refused = Counter(
            "solitaire_connections_refused",
            "Connections refused as they opened, by cap (per_address, total)",
            ["cap"],
            registry=self.registry,
        )
        self.timeouts = Counter(
            "solitaire_connection_timeouts",
            "Connections closed for sending too little in time, by stage (header, body, hello)",
            ["stage"],
            registry=self.registry,
        )
        self.oversized = Counter(
            "solitaire_oversized_requests",
            "Requests refused for their size, by part (body, header_bytes, header_count)",
            ["part"],
            registry=self.registry,
        )
        self.client_disconnects = Counter(
            "solitaire_client_disconnects",
            "Clients that went away in the middle of sending a request body",
            registry=self.registry,
        )
        self.bad_frames = Counter(
            "solitaire_bad_frames",
            "WebSocket connections closed for a frame the protocol forbids, by reason",
            ["reason"],
            registry=self.registry,
        )


CONNECTIONS = ConnectionMetrics()
