# Muster: `make run` starts everything with demo data; `make test` runs the whole suite.
# Dependencies come from uv.lock (the same versions everywhere); uv itself is pinned here and bootstrapped
# from PyPI into .venv-uv/, so a new machine needs nothing but Python 3.11 or newer.
UV_VERSION := 0.13.9
VENV       := .venv
PY         := $(VENV)/bin/python
STAMP      := $(VENV)/.installed
UV_DIR     := .venv-uv
UV         := $(UV_DIR)/bin/uv
export UV_PROJECT_ENVIRONMENT := $(VENV)

# The first Python that fits pyproject.toml's requires-python: PYTHON if given, else python3.11, 3.12, 3.13, python3.
PYTHON_FITS = import sys; sys.exit(0 if sys.version_info[:2] >= (3, 11) else 1)
FOUND_PYTHON = $(shell for p in $(or $(PYTHON),python3.11 python3.12 python3.13 python3); do \
	  "$$p" -c '$(PYTHON_FITS)' >/dev/null 2>&1 && command -v "$$p" && break; done)

.PHONY: run test install lock lint migrate demo bench clean python vendor-js

python:
	@if [ -z "$(FOUND_PYTHON)" ]; then \
	  echo "Muster needs Python 3.11 or newer$(if $(PYTHON), ($(PYTHON) is older or not found),). Install one" \
	       "(apt install python3.11, or from python.org) or pass PYTHON=/path/to/python3.x." >&2; exit 1; fi
	@echo "Using $$($(FOUND_PYTHON) -c 'import sys; print("Python", sys.version.split()[0])') at $(FOUND_PYTHON)"

$(UV):
	@$(MAKE) --no-print-directory python
	$(FOUND_PYTHON) -m venv $(UV_DIR)
	$(UV_DIR)/bin/python -m pip install --quiet "uv==$(UV_VERSION)"

$(STAMP): pyproject.toml uv.lock | $(UV)
	@$(UV) lock --check --offline >/dev/null 2>&1 || $(UV) lock --check >/dev/null 2>&1 || { \
	  echo "uv.lock does not match pyproject.toml: run 'make lock' and commit uv.lock." >&2; exit 1; }
	@$(MAKE) --no-print-directory python
	$(UV) sync --locked --extra dev --no-install-project --python "$(FOUND_PYTHON)"
	@touch $(STAMP)

install: $(STAMP)

## Update uv.lock after changing the dependencies in pyproject.toml (then commit it).
lock: | $(UV)
	$(UV) lock

migrate: install
	DEBUG=$${DEBUG:-1} $(PY) manage.py migrate --noinput

demo: migrate
	DEBUG=$${DEBUG:-1} $(PY) manage.py load_demo

## Start the web server, the Celery worker and Celery beat with the demo campaign.
run: demo
	DEBUG=$${DEBUG:-1} $(PY) manage.py runstack

## Run every test (PostgreSQL, Redis and browser tests run when DATABASE_URL/REDIS_URL and Chromium are there).
test: install
	$(PY) -m pytest $(PYTEST_ARGS)

## Fetch the JavaScript libraries named in static/vendor/packages.json from the npm registry (then commit them).
vendor-js: install
	$(PY) scripts/vendor_js.py

## ruff on everything; mypy (django-stubs) on what pyproject.toml's [tool.mypy] lists.
lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

## Every benchmark, one JSON line per figure. The database ones need DATABASE_URL (PostgreSQL): without it
## they say so, and make bench lists them and fails rather than skip them quietly.
bench: install
	@failed=""; all=$$(date +%s); for b in benchmarks/bench_*.py; do echo "# $$b" >&2; one=$$(date +%s); \
	  $(PY) $$b || failed="$$failed $$b"; echo "# $$b: $$(( $$(date +%s) - one )) s" >&2; done; \
	echo "# make bench: $$(( $$(date +%s) - all )) s in all (goal: under 600)" >&2; \
	if [ -n "$$failed" ]; then echo "These benchmarks did not run:$$failed" >&2; exit 1; fi

clean:
	rm -rf $(VENV) $(UV_DIR) var staticfiles test-artifacts
