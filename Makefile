# Two entry points: `make run` starts the service, `make test` runs every check.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint schemas bench

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

test: lint
	scripts/ensure-redis-server
	$(BIN)/python -m pytest

schemas: $(VENV)/.installed
	$(BIN)/python -m service.schemas

bench: $(VENV)/.installed
	$(BIN)/python benchmarks/engine.py
