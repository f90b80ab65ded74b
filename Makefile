# The two commands of Herald: `make up` runs it, `make test` tests it. Both work on a fresh clone.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: up test lint-imports install install-test migrate bench profile clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: $(BIN)/python setup.cfg pyproject.toml
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $@

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test

up: install
	$(BIN)/herald up

migrate: install
	$(BIN)/herald migrate

test: install-test
	$(BIN)/lint-imports --no-cache
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# Benchmarks (bench/README.md): uses DATABASE_URL / REDIS_URL when set, else embedded servers.
bench: install
	$(BIN)/python -m bench $(BENCH_ARGS)

profile: install
	$(BIN)/python -m pip install --quiet "py-spy>=0.3,<1"
	$(BIN)/python -m bench --profile --skip-e2e $(BENCH_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache
