# Two entry points: `make run` starts the service, `make test` runs every check.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Python caches compiled modules (pytest its rewritten test modules) in __pycache__
# folders, which git ignores. Where the environment turns that off, every test process
# and every service a test starts would compile the whole project again.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test lint schemas bench types chromium

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Running needs the runtime dependencies only; the checks add the development tools.
# Installing compiles the solver's core (setup.py), so an edit to it installs again.
BUILD := pyproject.toml setup.py $(wildcard service/solver/*.py)
$(VENV)/.installed-runtime: $(BUILD) | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.installed-dev: $(BUILD) | $(BIN)/python
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $@ $(VENV)/.installed-runtime

run: $(VENV)/.installed-runtime
	$(BIN)/python -m service

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/mypy --strict clients/python/solitaire_client

# The suite mostly waits (on servers, timeouts, the browser), so it runs in more
# processes than there are cores; TEST_WORKERS=0 runs it in this process.
TEST_WORKERS ?= 4
# Run after the others, on their own: the slow-consumer tests of test_limits measure how
# the service's writes back up, which the other workers' load would decide.
ALONE := tests/scale/test_limits.py

# The JavaScript SDK's tests (node's test runner, `npm test` in clients/js) start services
# of their own from .venv and mostly wait on them, as pytest's workers do: they run beside
# pytest, and their report follows pytest's.
test: lint types chromium
	scripts/ensure-redis-server
	@log=$$(mktemp); npm test --prefix $(JS) >$$log 2>&1 & sdk=$$!; \
	$(BIN)/python -m pytest -n $(TEST_WORKERS) $(addprefix --ignore=,$(ALONE)); status=$$?; \
	wait $$sdk; sdk_status=$$?; \
	echo "npm test --prefix $(JS)"; \
	if [ $$sdk_status -eq 0 ]; then grep -E '^# (tests|pass|fail|duration_ms)' $$log; else cat $$log; fi; \
	rm -f $$log; [ $$status -eq 0 ] && [ $$sdk_status -eq 0 ]
	$(BIN)/python -m pytest $(ALONE)

# The JavaScript SDK (clients/js) and its pinned tools: TypeScript, the schema-to-types
# generator, and what its tests use.
JS := clients/js
$(JS)/node_modules/.installed: $(JS)/package.json $(JS)/package-lock.json
	npm ci --prefix $(JS) --no-audit --no-fund --loglevel=error
	touch $@

# The SDK, the web client and the TypeScript types generated from schemas/ type-check
# together.
types: $(JS)/node_modules/.installed
	scripts/check-types

# Browser tests drive the system's Chromium (Playwright's own download is not used).
chromium:
	@test -x /usr/bin/chromium || { SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium >/dev/null; }

schemas: $(VENV)/.installed-runtime
	$(BIN)/python -m service.schemas

bench: $(VENV)/.installed-dev
	$(BIN)/python benchmarks/engine.py
