"""Settings, read from the environment (names in docs/configuration table of the README)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator, Field
from pydantic_settings import BaseSettings, SettingsConfigDict


def _lower(value: object) -> object:
    return value.lower() if isinstance(value, str) else value


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="", case_sensitive=False, extra="ignore")

    store_url: str = Field("memory://", description="`memory://` or `redis://host:port/db`.")
    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = Field(
        1, ge=1, description="Service processes behind the one port (above 1: Redis store only)."
    )
    game_ttl_seconds: int = Field(
        7 * 24 * 3600,
        gt=0,
        description="Idle games expire after (with Redis, up to a tenth sooner, a minute at most).",
    )
    won_game_ttl_seconds: int = Field(0, ge=0, description="0 keeps won games for good.")
    max_frame_bytes: int = Field(16 * 1024, gt=0)
    rate_per_second: float = Field(20.0, gt=0)
    rate_burst: int = Field(40, gt=0)
    flood_dropped_frames: int = Field(
        100, gt=0, description="Frames over the rate within the flood window that close."
    )
    flood_window_seconds: float = Field(10.0, gt=0)
    http_write_rate_per_second: float = Field(20.0, gt=0, description="POSTs per address.")
    http_write_burst: int = Field(60, gt=0)
    changes_rate_per_second: float = Field(5.0, gt=0, description="Changes pages per address.")
    changes_burst: int = Field(20, gt=0)
    changes_page_size: int = Field(50, gt=0, description="Most changes in one page.")
    max_subscriptions: int = Field(16, gt=0)
    send_queue_size: int = Field(256, gt=0)
    catchup_limit: int = Field(1000, gt=0, description="Older gaps get a snapshot instead.")
    max_actions_per_game: int = Field(20000, gt=0)
    redis_max_connections: int = Field(256, gt=0, description="Redis connection pool size.")
    race_countdown_seconds: float = Field(3.0, ge=0, description="Countdown before a race.")
    max_race_players: int = Field(8, ge=2)
    code_failures_per_minute: int = Field(
        10, gt=0, description="Wrong join or link codes one client address may try a minute."
    )
    link_code_seconds: int = Field(300, gt=0, description="How long a player link code lasts.")
    winnable_pool_size: int = Field(
        8, ge=0, description="Certified winnable deals kept ready per mode (0: none made)."
    )
    winnable_refill_poll_seconds: float = Field(5.0, gt=0)
    certify_seconds: float = Field(
        5.0, gt=0, description="CPU seconds the solver may spend to win a pool deal."
    )
    analysis_seconds: float = Field(
        3.0, gt=0, description="CPU seconds for each verdict of 'was it winnable?'."
    )
    solver_processes: int = Field(
        1, ge=1, description="Worker processes that certify winnable deals for the pools."
    )
    analysis_max_searches: int = Field(
        2, ge=1, description="'Was it winnable?' searches run at once; past them: `busy`."
    )
    analysis_searches_per_address: int = Field(
        1,
        ge=1,
        description="Searches one address may have started and running at once in an "
        "instance; past them: `busy`.",
    )
    hints_max_waiting: int = Field(
        16, ge=1, description="Hints worked out or waiting at once; past them: `busy`."
    )
    hints_per_player_per_minute: int = Field(60, gt=0, description="Hints one player may ask.")
    hints_per_address_per_minute: int = Field(
        300, gt=0, description="Hints one client address may ask a minute."
    )
    analyses_per_player_per_minute: int = Field(
        5, gt=0, description="Analyses ('was it winnable?') one player may ask a minute."
    )
    # A search spends up to two verdicts of ``analysis_seconds`` (6 s): ten a minute keep
    # one address to about one search slot's worth of CPU.
    analyses_per_address_per_minute: int = Field(
        10, gt=0, description="Analyses one client address may ask a minute."
    )
    pace_burst_actions: int = Field(
        8, ge=0, description="Actions in a row, each soon after the last, that no person makes."
    )
    pace_burst_gap_ms: int = Field(100, gt=0, description="What 'soon' means for a burst (ms).")
    pace_min_moves: int = Field(
        20, gt=0, description="Card moves a game needs before its pace counts."
    )
    pace_median_ms: int = Field(
        150, ge=0, description="A median time before card moves under this is no person's pace."
    )
    board_min_account_hours: float = Field(
        24.0, ge=0, description="Age an account needs before it stands on public boards."
    )
    board_min_games: int = Field(
        5, ge=0, description="Counted games an account needs before it stands on public boards."
    )
    rating_provisional_games: int = Field(
        10, ge=0, description="Rated races a player needs in a mode before the rating is firm."
    )
    pairing_wave_seconds: float = Field(
        0.5, gt=0, description="How often waiting seekers are paired (seconds)."
    )
    pairing_window: int = Field(
        100, ge=0, description="Rating gap two seekers may have when both have just asked."
    )
    pairing_window_growth: int = Field(
        50, ge=0, description="Rating points the window widens by each second a seeker waits."
    )
    pairing_seek_seconds: int = Field(
        30, gt=0, description="A seek nobody renews (its socket or polls gone) is dropped then."
    )
    pairing_time_limit_seconds: int = Field(900, ge=30, description="Time limit of a paired race.")
    arena_schedule: str = Field(
        "off",
        description="Recurring arenas: items like 'hourly DS.D1N 30m' separated by ';', or "
        "'off' (docs/arena.md).",
    )
    arena_wave_seconds: float = Field(
        1.0, gt=0, description="How often an arena's free players are paired (seconds)."
    )
    arena_heat_seconds: int = Field(300, ge=30, description="Time limit of an arena heat.")
    arena_page_seconds: float = Field(
        0.1,
        ge=0,
        le=10,
        description="The least time between two tellings of a followed page of an arena's "
        "standings (a follower's own line goes at once).",
    )
    players_per_hour: int = Field(
        30, gt=0, description="Players one client address may create in an hour."
    )
    cors_origins: str = Field(
        "*", description="Origins whose browser pages may call the REST API, comma separated."
    )
    max_header_bytes: int = Field(
        16 * 1024, ge=1024, description="Largest request line and headers of one request (431)."
    )
    max_headers: int = Field(100, gt=0, description="Most header lines in one request (431).")
    header_timeout_seconds: float = Field(
        10.0, gt=0, description="Time to send a request's line and headers, from its first byte."
    )
    body_timeout_seconds: float = Field(
        10.0, gt=0, description="Time to send a request body once its headers are in (408)."
    )
    keep_alive_timeout_seconds: int = Field(
        5, gt=0, description="An idle keep-alive HTTP connection is closed after this long."
    )
    hello_timeout_seconds: float = Field(
        10.0, gt=0, description="A WebSocket that sends nothing this long after the upgrade closes."
    )
    max_connections: int = Field(
        0, ge=0, description="Open connections at most; 0 derives it from the open-file limit."
    )
    max_connections_per_address: int = Field(
        10000, ge=0, description="Open connections of one client address at most; 0: no cap."
    )
    log_level: Annotated[Literal["debug", "info", "warning", "error"], BeforeValidator(_lower)] = (
        "info"
    )

    @property
    def cors_origin_list(self) -> list[str]:
        return [origin.strip() for origin in self.cors_origins.split(",") if origin.strip()]
