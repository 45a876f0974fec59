"""``python -m service``: run the service with uvicorn, configured from the environment."""

from __future__ import annotations

import logging

import uvicorn

from .app import create_app
from .config import Settings
from .logs import log_config
from .server import server_options


def main() -> None:
    settings = Settings()
    # Python's warnings become log records, so that they too are JSON lines.
    logging.captureWarnings(True)
    uvicorn.run(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        log_config=log_config(settings.log_level),
        log_level=settings.log_level,
        **server_options(settings),
    )


if __name__ == "__main__":
    main()
