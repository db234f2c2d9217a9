# Luzi: `make demo` runs the demo site, `make test` runs the tests. Both do all set-up from a fresh clone:
# a virtualenv in .venv, the package with its dev extras, compiled translations, migrations.
# Defaults need no server: SQLite files under var/, the site's database and the embedded Celery broker
# (config/broker.py). Set DATABASE_URL and CELERY_BROKER_URL to use PostgreSQL and Redis instead
# (as .ci/run does).

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 8000
PYTEST_ARGS ?=
VAR := var
MSGFMT ?= msgfmt

.PHONY: demo test test-fast setup install messages migrate lint format clean

demo: setup migrate
	$(PY) manage.py load_demo
	@echo ""
	@echo "Luzi demo: http://127.0.0.1:$(PORT)/   administration: http://127.0.0.1:$(PORT)/admin/"
	@echo "Log in as 'admin' (superuser) or 'organizer' with the passwords printed above. Ctrl-C stops."
	@echo "A Celery worker (with beat, started again if it dies) runs beside the site; bots play the event's first rounds."
	@# config/demo_run.py runs the site, the worker (started again if it dies) and the bots' play,
	@# each in a process group of its own, and stops them all on Ctrl-C within a few seconds.
	@$(PY) -m config.demo_run --port $(PORT) --var $(VAR)

# pytest exit code 5 means "no tests were collected": for this suite that is a broken set-up, so it fails.
test: setup
	@LUZI_BROKER_DIR=$${LUZI_BROKER_DIR:-$(VAR)/broker-test} $(PY) -m pytest $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test: pytest collected no tests; failing on purpose." >&2; fi; \
	exit $$rc

# The tests a developer runs between changes: everything but the browser tests and the tests that
# start Celery processes (markers set in tests/conftest.py), on two processes (pytest-xdist), the
# property tests on a tenth of their examples (hypothesis profile `dev`, tests/hypothesis_profiles.py).
# `make test` and CI run every test with every example.
FAST_WORKERS ?= 2
FAST_PROFILE ?= dev
test-fast: setup
	@LUZI_BROKER_DIR=$${LUZI_BROKER_DIR:-$(VAR)/broker-test} $(PY) -m pytest -m "not browser and not worker" \
		-n $(FAST_WORKERS) --hypothesis-profile=$(FAST_PROFILE) $(PYTEST_ARGS)

setup: install messages

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

# Compile the gettext catalogs with GNU msgfmt when present, else with the pure-Python fallback (polib).
messages: install
	@if command -v $(MSGFMT) >/dev/null 2>&1; then \
		$(PY) manage.py compilemessages --ignore=.venv --verbosity 0; \
	else \
		echo "$(MSGFMT) not found: compiling translations with polib"; $(PY) -m config.i18n; \
	fi

migrate: setup
	$(PY) manage.py migrate --noinput --verbosity 1

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: install
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

clean:
	rm -rf $(VENV) var staticfiles .pytest_cache
