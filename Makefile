# Everything runs from a project-local virtualenv, created on first use.
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install test demo run bench lint clean webapp

$(STAMP): pyproject.toml
	@command -v $(PY) >/dev/null 2>&1 || { echo "Python 3.11 is needed: set PY=/path/to/python3.11"; exit 1; }
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@command -v chromium >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; } || echo "chromium is missing (apt-get install chromium): the table page's browser tests need it"
	@touch $(STAMP)

install: $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest -n 2 -p xdist

demo: $(STAMP)
	$(BIN)/python -m bot.demo $(DEMO_ARGS)

run: $(STAMP)
	$(BIN)/python -m bot

webapp: $(STAMP)
	$(BIN)/python -m bot.webapp.local $(WEBAPP_ARGS)

bench: $(STAMP)
	$(BIN)/python -m pytest tests/perf -q -s -p no:xdist -o addopts=""

lint: $(STAMP)
	$(BIN)/ruff check bot engine storage scheduler tests
	$(BIN)/mypy engine

clean:
	rm -rf $(VENV) demo-output .pytest_cache .mypy_cache .ruff_cache
