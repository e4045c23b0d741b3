# Quick start: `make run` starts the site; `make test` runs the whole suite.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# The compiled message catalogues (.mo) are built, not committed: each is rebuilt when its .po changes.
MO := $(patsubst %.po,%.mo,$(wildcard locale/*/LC_MESSAGES/django.po))

.PHONY: setup run test lint bench clean messages

setup: $(STAMP) $(MO)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(MO): %.mo: %.po $(STAMP)
	$(BIN)/python manage.py compilemessages -i $(VENV) -i node_modules >/dev/null
	touch $@

# After adding or changing a translatable string: refresh the catalogues, fill in the new msgstrs
# (ARCHITECTURE.md, "Two languages"), then `make setup` compiles them.
messages: setup
	$(BIN)/python manage.py makemessages -l en -i $(VENV) -i node_modules -i staticfiles --no-location

run: setup
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py ensure_demo
	$(BIN)/python manage.py runserver 127.0.0.1:8000

test: setup
	$(BIN)/ruff check .
	$(BIN)/lint-imports --no-logo
	$(BIN)/python manage.py makemigrations --check --dry-run >/dev/null
	$(BIN)/python -m pytest -q
	bash scripts/multiprocess.sh
	bash scripts/e2e.sh

# Checks only: `ruff check --fix .` and `ruff format .` change the files.
lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-logo

bench: setup
	$(BIN)/python bench/engine_bench.py

clean:
	rm -rf $(VENV) db.sqlite3 test-results
