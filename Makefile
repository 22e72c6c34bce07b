# Quick start: `make run` serves the site on http://127.0.0.1:8000/, `make test` runs
# every test. Both create .venv and install requirements.txt first (again only when
# that file changes). scripts/dev.py does the rest: finding PostgreSQL and Redis,
# migrating, compiling the translations (locale/), starting daphne (and a Celery
# worker), installing Chromium for tests.

PYTHON ?= $(shell command -v python3.11 2>/dev/null || echo python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.requirements-installed

.PHONY: run test install clean

run: $(STAMP)
	$(PY) scripts/dev.py run

# Extra pytest arguments: make test ARGS="-k home -x"
test: $(STAMP)
	$(PY) scripts/dev.py test $(ARGS)

install: $(STAMP)

$(PY):
	$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); \
	  echo "Could not create $(VENV) with $(PYTHON): on Debian, apt-get install python3.11-venv"; exit 1; }

# The stamp is newer than requirements.txt exactly when the install is current.
$(STAMP): requirements.txt | $(PY)
	$(PY) -m pip install --disable-pip-version-check -r requirements.txt
	touch $@

clean:
	rm -rf $(VENV) artifacts .pytest_cache .mypy_cache .hypothesis staticfiles
