# Everything runs from a project-local virtualenv, created (or rebuilt) on first use.
#
#   PY=    the interpreter that makes the venv: python3.11 when it runs, else python3 when it is
#          3.11 or newer. Any Python 3.11, 3.12 or 3.13 works, e.g. `make test PY=python3.13`.
#   VENV=  where the venv lives (default .venv); e.g. `make test PY=python3.13 VENV=.venv-3.13`.
#
# A venv made with another Python than PY, or left half-installed (no stamp: the stamp is written
# only after a successful install and records the Python version and pyproject.toml's hash), is
# removed and made again; one line says so.
PY ?= $(shell for p in python3.11 python3; do \
        $$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1 && { echo $$p; break; }; done)
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install test demo run bench loadtest lint lint-docker clean print-python webapp frontend figures ai-eval

define ENSURE_VENV
set -eu
if [ -z "$$PY" ] || ! "$$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1; then
  echo "make: Python 3.11 or newer is needed ('$$PY' is missing or older): run e.g. make $${TARGET} PY=/path/to/python3.12" >&2
  exit 1
fi
want="python=$$("$$PY" -c 'import platform; print(platform.python_version())') pyproject=$$(sha256sum pyproject.toml | cut -c1-16)"
if [ -d "$$VENV" ]; then
  have=$$(cat "$$VENV/.installed" 2>/dev/null || true)
  venv_py=$$("$$VENV/bin/python" -c 'import platform; print(platform.python_version())' 2>/dev/null || echo none)
  if [ -z "$$have" ]; then
    echo "make: $$VENV is half-installed (no stamp of a finished install): rebuilding it with $$PY ($${want%% *})"
    rm -rf "$$VENV"
  elif [ "python=$$venv_py" != "$${have%% *}" ] || [ "$${have%% *}" != "$${want%% *}" ]; then
    echo "make: $$VENV was made with python=$$venv_py, PY=$$PY is $${want%% *}: rebuilding it"
    rm -rf "$$VENV"
  elif [ "$$have" = "$$want" ]; then
    exit 0
  else
    echo "make: pyproject.toml changed since $$VENV was installed: installing again"
  fi
fi
[ -x "$$VENV/bin/python" ] || "$$PY" -m venv "$$VENV"
"$$VENV/bin/python" -m pip install --quiet --upgrade pip
"$$VENV/bin/python" -m pip install --quiet -e '.[dev]'
echo "$$want" > "$$VENV/.installed"
echo "make: $$VENV ready ($${want%% *})"
endef
export ENSURE_VENV

install:
	@PY='$(PY)' VENV='$(VENV)' TARGET='$(or $(MAKECMDGOALS),install)' sh -c "$$ENSURE_VENV"
	@command -v chromium >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; } || echo "make: chromium is missing (apt-get install chromium): the table page's browser tests need it"
	@$(MAKE) --no-print-directory frontend

# The table page's type checker (bot/webapp/frontend: TypeScript's tsc --checkJs over the page's plain ES
# modules; the page itself has no build step). Node from Debian's packages when missing.
FRONTEND := bot/webapp/frontend
frontend:
	@command -v npm >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq nodejs npm >/dev/null; } || echo "make: npm is missing (apt-get install nodejs npm): make lint type-checks the table page with it"
	@if command -v npm >/dev/null 2>&1 && [ ! "$(FRONTEND)/node_modules/.package-lock.json" -nt "$(FRONTEND)/package-lock.json" ]; then \
		cd $(FRONTEND) && npm ci --no-audit --no-fund --loglevel=error >/dev/null; fi

# PostgreSQL and Redis: TEST_DATABASE_URL / TEST_REDIS_URL when set, else the local servers when they answer (one
# line each says which); the tests of a service not given are skipped (tests/services.py, docs/bot.md "Tests").
test: install
	@found=$$($(BIN)/python -m tests.services) && eval "$$found" && $(BIN)/python -m pytest -n 2 -p xdist

demo: install
	$(BIN)/python -m bot.devtools.demo $(DEMO_ARGS)

run: install
	$(BIN)/python -m bot

webapp: install
	$(BIN)/python -m bot.devtools.webapp_local $(WEBAPP_ARGS)

bench: install
	$(BIN)/python -m pytest tests/perf -q -s -p no:xdist -o addopts=""

# Computer players on paired deals (docs/performance.md "Computer players"): fresh seeds each run; OUT= resumes.
# make ai-eval GAME=shengji A=strong B=normal PAIRS=100 JOBS=2 OUT=/tmp/ai-eval.jsonl
GAME ?= both
A ?= strong
B ?= normal
PAIRS ?= 20
JOBS ?= 1
ai-eval: install
	nice -n 10 $(BIN)/python -m tests.perf.ai_eval --game $(GAME) --a $(A) --b $(B) --pairs $(PAIRS) --jobs $(JOBS) \
		$(if $(OUT),--out $(OUT))

# Load test (docs/performance.md "Bot under load"): the real bot in its own process against the simulator at
# Telegram's rates. make loadtest TABLES=16 PRESET=shengji-17-deals THINK=1.5 DB=sqlite RTT=80 DURATION=150
# Two strong computers at each table (the people take seats 0 and 2): LOADTEST_ARGS="--computers 2 --ai strong"
TABLES ?= 4
PRESET ?= shengji-17-deals
DEALS ?= 1
THINK ?= 1.5
DB ?= sqlite
RTT ?= 80
DURATION ?= 150
loadtest: install
	$(BIN)/python -m bot.devtools.loadtest --tables $(TABLES) --preset $(PRESET) --deals $(DEALS) --think $(THINK) \
		--db $(DB) --rtt $(RTT) --duration $(DURATION) $(LOADTEST_ARGS)

# ruff on everything; mypy --strict on engine/, storage/, scheduler/ and bot/ (pyproject.toml); the import
# contracts of the rooms (import-linter, pyproject.toml [tool.importlinter]); the Dockerfile.
lint: install lint-docker
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache
	cd $(FRONTEND) && npx --no-install tsc -p tsconfig.json

# The architecture's figures (issue 18, docs/architecture.md): cycles, imports inside functions, Any, ...
figures: install
	$(BIN)/python -m tests.architecture.figures

lint-docker: install
	$(BIN)/hadolint Dockerfile

print-python:
	@echo '$(PY)'

clean:
	rm -rf $(VENV) demo-output .pytest_cache .mypy_cache .ruff_cache
