"""``python -m service``: run the service with uvicorn, configured from the environment."""

from __future__ import annotations

import logging

import uvicorn

from .app import create_app
from .config import Settings


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
        # Frames above our own limit are answered with an error; far larger ones are abuse.
        ws_max_size=max(settings.max_frame_bytes * 8, 1 << 20),
        proxy_headers=False,
        # Frames are small JSON; compressing each costs more CPU than it saves.
        ws_per_message_deflate=False,
    )


if __name__ == "__main__":
    main()
