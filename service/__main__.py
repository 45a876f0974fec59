"""``python -m service``: run the service with uvicorn, configured from the environment."""

from __future__ import annotations

import logging
from typing import Any

import uvicorn

from .app import create_app
from .config import Settings


def server_options(settings: Settings) -> dict[str, Any]:
    """The uvicorn options of the service (benchmarks use them for their servers too)."""
    return {
        # Frames above our own limit are answered with an error; far larger ones are abuse.
        "ws_max_size": max(settings.max_frame_bytes * 8, 1 << 20),
        # Frames are small JSON; compressing each costs more CPU than it saves.
        "ws_per_message_deflate": False,
        "proxy_headers": False,
    }


def main() -> None:
    settings = Settings()
    logging.basicConfig(
        level=settings.log_level.upper(),
        format='{"time":"%(asctime)s","level":"%(levelname)s","logger":"%(name)s",'
        '"message":"%(message)s"}',
    )
    uvicorn.run(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        **server_options(settings),
    )


if __name__ == "__main__":
    main()
