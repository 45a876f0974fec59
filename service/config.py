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
    game_ttl_seconds: int = Field(7 * 24 * 3600, gt=0, description="Idle games expire after.")
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
    cors_origins: str = Field(
        "*", description="Origins whose browser pages may call the REST API, comma separated."
    )
    log_level: Annotated[Literal["debug", "info", "warning", "error"], BeforeValidator(_lower)] = (
        "info"
    )

    @property
    def cors_origin_list(self) -> list[str]:
        return [origin.strip() for origin in self.cors_origins.split(",") if origin.strip()]
