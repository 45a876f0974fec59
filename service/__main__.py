"""``python -m service``: run the service with uvicorn, configured from the environment."""

from __future__ import annotations

import logging

import uvicorn

from .app import create_app
from .config import Settings
from .server import server_options


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
