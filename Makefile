# tablescore: `make run` starts the app, `make test` runs every test tier.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
# One stamp per lock: `make run` installs the runtime only (requirements.lock), `make test`
# the runtime and the development tools (requirements-dev.lock), `make bench` and `make
# loadtest` Locust too (requirements-load.lock, on top of the development lock).
STAMP := $(VENV)/.installed-runtime
DEV_STAMP := $(VENV)/.installed-dev
LOAD_STAMP := $(VENV)/.installed-load
# Python 3.12 (.python-version): python3.12 on PATH, else pyenv's.
PYTHON312 ?= $(shell command -v python3.12 2>/dev/null || pyenv which python3.12 2>/dev/null || echo python3.12)
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint bench loadtest worker serve install demo messages clean

$(VENV)/bin/python:
	$(PYTHON312) -m venv $(VENV)

define pip_install
	@$(PY) -c 'import sys; assert sys.version_info[:2] == (3, 12), sys.version' \
		|| { echo "$(VENV) is not Python 3.12: remove it and install Python 3.12"; exit 1; }
	$(PY) -m pip install -q --disable-pip-version-check -r $(1)
	@touch $@
endef

$(STAMP): requirements.lock pyproject.toml | $(VENV)/bin/python
	$(call pip_install,requirements.lock)

$(DEV_STAMP): requirements-dev.lock requirements.lock pyproject.toml | $(VENV)/bin/python
	$(call pip_install,requirements-dev.lock)

$(LOAD_STAMP): requirements-load.lock requirements-dev.lock requirements.lock pyproject.toml | $(VENV)/bin/python
	$(call pip_install,requirements-load.lock)

install: $(STAMP)

run: $(STAMP)
	$(PY) manage.py migrate --noinput -v 0
	$(PY) manage.py demo_data
	$(PY) manage.py runserver $(HOST):$(PORT)

test: $(DEV_STAMP)
	$(PY) tests/tiers.py

lint: $(DEV_STAMP)
	$(PY) tests/tiers.py lint

bench: $(DEV_STAMP) $(LOAD_STAMP)
	$(PY) benchmarks/run_all.py

# A full hall against gunicorn + Celery on loopback (Locust; one app server, then two):
# needs PostgreSQL and Redis on 127.0.0.1; LOADTEST_SECONDS, LOADTEST_DATABASE_URL (its
# name must contain "loadtest": it is dropped and made again), LOADTEST_REDIS_URL.
loadtest: $(DEV_STAMP) $(LOAD_STAMP)
	$(PY) benchmarks/loadtest/run.py

# Production-shaped: gunicorn plus a Celery worker (with its beat: the heartbeat /health
# watches); needs DATABASE_URL and REDIS_URL. In hall mode (DJANGO_HALL_HTTP=true, plain HTTP
# on the LAN) it listens on every interface unless HOST is given, and prints the address
# phones should open with a QR code of it.
HALL_MODE := $(filter 1 true yes on TRUE True,$(DJANGO_HALL_HTTP))
SERVE_HOST ?= $(if $(HALL_MODE),$(if $(filter command line,$(origin HOST)),$(HOST),0.0.0.0),$(HOST))
serve: $(STAMP)
	@test -n "$$DATABASE_URL" || { echo "serve needs DATABASE_URL (see README)"; exit 1; }
	@test -n "$$REDIS_URL" || { echo "serve needs REDIS_URL (see README)"; exit 1; }
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput -v 0
	@$(PY) -m config.hall $(PORT)
	$(VENV)/bin/celery -A config worker --beat --loglevel=info --concurrency=2 & \
		trap 'kill %1' EXIT; \
		$(VENV)/bin/gunicorn config.wsgi --bind $(SERVE_HOST):$(PORT) --workers 3 --preload

worker: $(STAMP)
	$(VENV)/bin/celery -A config worker --loglevel=info

demo: $(STAMP)
	$(PY) manage.py migrate --noinput -v 0
	$(PY) manage.py demo_data

messages: $(STAMP)
	$(PY) manage.py makemessages -l pl --no-obsolete --no-location -i ".venv/*" -i "tests/*"
	$(PY) manage.py compilemessages -l pl -i ".venv"

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles
