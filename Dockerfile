# The solitaire service: `docker build -t solitaire-service .`, then
# `docker run -p 8000:8000 solitaire-service` (in-memory store) or `docker compose up`.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# Only what the package needs, so edits to tests or docs do not rebuild this layer. The
# package includes the web front end (clients/web), served at "/".
COPY pyproject.toml README.md ./
COPY service ./service
COPY clients/web ./clients/web
RUN pip install . && useradd --system --uid 10001 --no-create-home solitaire

USER solitaire

# Listen on every interface of the container; the rest comes from the environment
# (STORE_URL, LOG_LEVEL, ... see the configuration table in the README).
ENV HOST=0.0.0.0 \
    PORT=8000
EXPOSE 8000

CMD ["python", "-m", "service"]
