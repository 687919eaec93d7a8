# Muster: `make run` starts everything with demo data; `make test` runs the whole suite.
PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test install lint migrate demo bench clean

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP)

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

## ruff on everything; mypy (django-stubs) on what pyproject.toml's [tool.mypy] lists.
lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

bench: install
	@for b in benchmarks/bench_*.py; do $(PY) $$b; done

clean:
	rm -rf $(VENV) var staticfiles test-artifacts
