# The solitaire service: `docker build -t solitaire-service .`, then
# `docker run -p 8000:8000 solitaire-service` (in-memory store) or `docker compose up`.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# Only what the package needs, so edits to tests or docs do not rebuild this layer. The
# package includes the web front end (clients/web), served at "/", and the JavaScript SDK
# it imports (clients/js/src), served at "/sdk/".
COPY pyproject.toml setup.py README.md ./
COPY service ./service
COPY clients/web ./clients/web
COPY clients/js/src ./clients/js/src
# A C compiler for the build only: it compiles the solver's core (CONTRIBUTING.md, "Run"),
# and goes again in the same layer.
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && pip install . \
    && apt-get purge -y --auto-remove gcc libc6-dev && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --no-create-home solitaire

USER solitaire

# Listen on every interface of the container; the rest comes from the environment
# (STORE_URL, LOG_LEVEL, ... see the configuration table in the README).
ENV HOST=0.0.0.0 \
    PORT=8000
EXPOSE 8000

CMD ["python", "-m", "service"]
