# Everything runs from a project-local virtualenv, created on first use.
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install test demo run bench lint clean loadtest

$(STAMP): pyproject.toml
	@command -v $(PY) >/dev/null 2>&1 || { echo "Python 3.11 is needed: set PY=/path/to/python3.11"; exit 1; }
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest -n 2 -p xdist

demo: $(STAMP)
	$(BIN)/python -m bot.demo $(DEMO_ARGS)

run: $(STAMP)
	$(BIN)/python -m bot

bench: $(STAMP)
	$(BIN)/python -m pytest tests/perf -q -s -p no:xdist -o addopts=""

# Load test (docs/performance.md "Bot under load"): the real bot in its own process against the simulator at
# Telegram's rates. make loadtest TABLES=16 PRESET=shengji-17-deals THINK=1.5 DB=sqlite RTT=80 DURATION=150
TABLES ?= 4
PRESET ?= shengji-17-deals
DEALS ?= 1
THINK ?= 1.5
DB ?= sqlite
RTT ?= 80
DURATION ?= 150
loadtest: $(STAMP)
	$(BIN)/python -m bot.loadtest --tables $(TABLES) --preset $(PRESET) --deals $(DEALS) --think $(THINK) \
		--db $(DB) --rtt $(RTT) --duration $(DURATION) $(LOADTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check bot engine storage scheduler tests
	$(BIN)/mypy engine

clean:
	rm -rf $(VENV) demo-output .pytest_cache .mypy_cache .ruff_cache
