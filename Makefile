# InsightShop — the README's commands.
#   make run    set up .venv, upgrade the database, seed an empty catalog, serve with gunicorn on
#               http://127.0.0.1:$PORT (the shop and MCP at /mcp; production settings, see deploy/serve)
#   make dev    the same database, Flask's development server with the reloader and the debugger
#   make test   install test dependencies (and Chromium for the browser test), lint, run every test
#               on SQLite and on PostgreSQL (TEST_DATABASE_URL), on every core (pytest-xdist, TEST_WORKERS)
#   make test-fast   the quick loop while developing: SQLite, no browser and no live servers
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
FLASK := $(VENV)/bin/flask --app insightshop
PORT ?= 5000
TEST_DATABASE_URL ?= postgresql+psycopg://root@127.0.0.1:5432/test
CHROMIUM ?= /usr/bin/chromium
# One pytest worker per core; --dist loadgroup keeps the live servers' tests on one worker (tests/conftest.py).
TEST_WORKERS ?= auto
PYTEST_ARGS ?=
PYTEST := $(PY) -m pytest -n $(TEST_WORKERS) --dist loadgroup --durations=25 $(PYTEST_ARGS)
LINTED := insightshop tests bench deploy run.py

.PHONY: run dev serve db warm test test-sqlite test-postgres test-fast browser-deps server-deps bench lint clean

$(VENV)/.runtime: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.dev: requirements-dev.txt $(VENV)/.runtime
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@

db: $(VENV)/.runtime
	$(FLASK) db upgrade
	if $(FLASK) catalog-empty; then $(FLASK) seed-demo; fi
	$(FLASK) assistant-warm

run: db
	PORT=$(PORT) deploy/serve

dev: db
	APP_ENV=development FLASK_DEBUG=1 $(FLASK) run --host 127.0.0.1 --port $(PORT)

browser-deps:
	@if [ ! -x $(CHROMIUM) ]; then \
		echo "Installing Debian's chromium for the browser test"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	fi

# nginx for the several-servers test, wrk for the load benchmark (Debian's packages).
server-deps:
	@missing=""; command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing="$$missing nginx-light"; \
	command -v wrk >/dev/null || missing="$$missing wrk"; \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian's$$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

test: lint test-sqlite test-postgres

# The assistant's intent model is trained once and cached on disk before the workers start (else each live server
# and worker would train it at its first chat).
warm: $(VENV)/.dev
	$(FLASK) assistant-warm

test-sqlite: $(VENV)/.dev browser-deps server-deps warm
	$(PYTEST)

test-postgres: $(VENV)/.dev warm
	TEST_DATABASE_URL=$(TEST_DATABASE_URL) $(PYTEST) -m "not browser and not live"

test-fast: $(VENV)/.dev warm
	$(PYTEST) -m "not browser and not live"

bench: $(VENV)/.dev server-deps
	$(PY) bench/search.py
	$(PY) bench/tools.py
	$(PY) bench/chat.py
	$(PY) bench/receipts.py
	$(PY) bench/ocr.py
	$(PY) bench/http.py
	$(PY) bench/fuzz_http.py

lint: $(VENV)/.dev
	$(VENV)/bin/ruff check $(LINTED)
	$(VENV)/bin/ruff format --check $(LINTED)

clean:
	rm -rf $(VENV) .pytest_cache bench/.data
