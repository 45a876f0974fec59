# Two entry points: `make run` starts the service, `make test` runs every check.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint schemas bench types chromium

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $@

run: $(VENV)/.installed
	$(BIN)/python -m service

lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/mypy --strict clients/python/solitaire_client

test: lint types chromium
	scripts/ensure-redis-server
	$(BIN)/python -m pytest

# The web client and the TypeScript types generated from schemas/ type-check together.
types:
	scripts/check-types

# Browser tests drive the system's Chromium (Playwright's own download is not used).
chromium:
	@test -x /usr/bin/chromium || { SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium >/dev/null; }

schemas: $(VENV)/.installed
	$(BIN)/python -m service.schemas

bench: $(VENV)/.installed
	$(BIN)/python benchmarks/engine.py
