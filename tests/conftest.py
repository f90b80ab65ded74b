"""Fixtures: the run's databases (migrated once), the ORM in the test process, and real servers.

The environment is prepared in ``pytest_configure``, before any Herald module reads its
settings, so the test process and every subprocess see the same configuration. Under pytest-xdist
(``make test``: ``-n 2``) each worker is such a run of its own; the controller runs no test.
"""

from __future__ import annotations

import asyncio
import os
from typing import AsyncIterator, Callable

import httpx
import pytest
from tortoise import Tortoise

from tests.fixtures.harness import Process, Server, Services

# Session fixtures of more than one folder, registered here once: a fixture imported into several conftests or
# modules is registered at each, each registration is an instance of its own kept to the end of the run (the
# same servers started again and again). tests/house/test_fixtures_once.py keeps it so.
from tests.fixtures.dns import dns_server  # noqa: F401  (herald, mail, pages, platform, providers, runtime, smtp)
from tests.fixtures.mail import core, inbox, mail, mail_stack, smtpd  # noqa: F401  (tests/mail and tests/smtp)

_services: Services | None = None


def pytest_configure(config: pytest.Config) -> None:
    global _services
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        return  # pytest-xdist's controller runs no test: each of its workers has services of its own
    _services = Services()
    # Not bcrypt's test cost: processes that copy this environment (`herald up`, the wheel, the
    # benchmarks) run as development or production, which refuse it; servers get it from services.env.
    os.environ.update({name: value for name, value in _services.env.items() if name != "PASSWORD_HASH_COST"})


def pytest_unconfigure(config: pytest.Config) -> None:
    if _services is None:
        return
    from herald.database import drop_databases
    from kit.settings import load_settings

    try:
        asyncio.run(drop_databases(load_settings()))
    finally:
        _services.close()


# Fixtures that start whole processes of a test's (or a module's) own, beyond the session's servers and
# pipeline: a test that uses one is marked slow, so `make test-fast` leaves it out (docs/testing.md).
OWN_PROCESS_FIXTURES = {
    "start_server",  # a server with other settings (below)
    "roles",  # tests/identity/test_email.py: a scheduler and a worker with the identity mail credential
    "crm_relay", "crm_pipeline", "crm_drain",  # tests/crm/: a CRM relay and worker of the module's own
    "lead_pipeline",  # tests/runtime/test_forms.py: a runtime worker and scheduler of the module's own
    "notice_pipeline",  # tests/runtime/test_form_destination.py: the same, for the forms' notices and lists
    "scheduler_redis",  # tests/platform/test_scheduler_first_run.py: schedulers of its own, waiting for jobs
    "chromium_browser",  # the console's headless Chromium (tests/console/web.py; other browser tests are marked slow)
    "mail_relay",  # tests/mail/test_received.py: the mail system's outbox relay
    "herald_hosts",  # tests/console/web.py: the systems again under host names of their own, for the browser
}


# What tests/house/test_fixtures_once.py checks, kept from this run's own collection when it is the whole suite.
REGISTRATIONS = pytest.StashKey[list]()


def pytest_collection_finish(session: pytest.Session) -> None:
    from tests.house.fixture_registrations import registrations, whole_suite

    if whole_suite(session):
        session.config.stash[REGISTRATIONS] = registrations(session)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if OWN_PROCESS_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def services() -> Services:
    assert _services is not None
    return _services


@pytest.fixture(scope="session")
def settings(services):
    from kit.settings import get_settings

    return get_settings()


@pytest.fixture(scope="session", autouse=True)
async def database(settings) -> AsyncIterator[None]:
    """The run's databases, copies of migrated templates (tests/fixtures/databases.py), and the ORM
    opened in the test process."""
    from models import tortoise_config
    from tests.fixtures.databases import clone_migrated

    await clone_migrated(settings)
    await Tortoise.init(config=tortoise_config(settings, pool_max=3), _enable_global_fallback=True)
    yield
    await Tortoise.close_connections()


@pytest.fixture(scope="session")
def servers(services, tmp_path_factory) -> Callable[[str], Server]:
    """``servers("platform")``: the base URL of a running system, started on first use."""
    running: dict[str, Server] = {}
    log_dir = tmp_path_factory.mktemp("servers")

    def get(system: str) -> Server:
        if system not in running:
            running[system] = Server(system, services.env, log_dir, int(services.env[f"{system.upper()}_PORT"]))
        return running[system]

    yield get
    for server in running.values():
        server.stop()


def _server_starter(services, log_dir):
    started: list[Server] = []

    def start(system: str, **overrides: str) -> Server:
        shares_redis = overrides.get("REDIS_URL", services.env.get("REDIS_URL")) == services.env.get("REDIS_URL")
        server = Server(system, {**services.env, **overrides}, log_dir,
                        consumer_env=services.env if shares_redis else None)
        started.append(server)
        return server

    return start, started


@pytest.fixture(scope="session")
def pages_server(servers, start_session_server, dns_server):  # noqa: F811
    """The pages system resolving DNS through the loopback ``dns_server`` (a page's domain verified by
    publishing its records there), for the pages tests and the runtime's (the pages it serves)."""
    servers("platform")  # keys are introspected there
    servers("identity")  # sessions are checked there (the session hop and the product decision)
    return start_session_server("pages", DNS_NAMESERVERS=dns_server.address)


@pytest.fixture
def start_server(services, tmp_path_factory) -> Callable[..., Server]:
    """A fresh server with environment overrides (for broken-dependency tests); stopped after the test."""
    start, started = _server_starter(services, tmp_path_factory.mktemp("custom-servers"))
    yield start
    for server in started:
        server.stop()


@pytest.fixture(scope="session")
def start_session_server(services, tmp_path_factory) -> Callable[..., Server]:
    """Like start_server, for a server that session-scoped fixtures share; stopped at the end."""
    start, started = _server_starter(services, tmp_path_factory.mktemp("session-servers"))
    yield start
    for server in started:
        server.stop()


@pytest.fixture(scope="session")
def identity_url(servers) -> str:
    """The identity server's base URL (tests/crm, http, identity, pages)."""
    return servers("identity").url


@pytest.fixture
async def platform(servers) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=servers("platform").url, timeout=10) as client:
        yield client


@pytest.fixture
async def app_code_person(servers):
    """A person signed in by password (``person.token``) with the authenticator app on (``person.code()``,
    ``person.recovery_codes``), turned on before the test. Turning it on spends the current 30-second step and
    the identity server never takes a step twice (app/identity/twofactor/service.py), so that step is made one
    step older (:func:`~tests.fixtures.identity.as_if_a_step_passed`): the next code needs no wait. For tests
    about signing in or re-authenticating with the app, not about turning it on."""
    from tests.fixtures.identity import as_if_a_step_passed, enable_totp, make_person

    async with httpx.AsyncClient(base_url=servers("identity").url, timeout=20) as http:
        person = await make_person(http, "app-code")
        await enable_totp(http, person)
    await as_if_a_step_passed(person)
    return person


@pytest.fixture(scope="session")
def worker_metrics_port() -> int:
    """The port of the session pipeline's worker exporter (WORKER_METRICS_PORT: Dramatiq's Prometheus
    middleware and tasks/gauges.py), which the metrics tests scrape."""
    from tests.fixtures.harness import free_port

    return free_port()


@pytest.fixture(scope="session")
def ga4_endpoint():
    """The run's GA4 collection endpoint, a local server that checks what it is sent: every worker of the
    run posts GA4 conversions there (GA4_MP_URL), so a CRM delivery reaches it whichever worker takes it up
    (the pipeline's worker takes the crm queue too)."""
    import secrets

    from tests.fixtures.ad_platforms import Ga4Collect

    server = Ga4Collect("G-TEST" + secrets.token_hex(3).upper(), "secret" + secrets.token_hex(6))
    yield server
    server.close()


@pytest.fixture(scope="session")
async def pipeline(services, servers, tmp_path_factory, worker_metrics_port, ga4_endpoint):
    """A worker and a scheduler (with the platform's outbox relay) for the run's shared databases.
    The identity outbox is left to the identity e-mail tests' own scheduler and worker
    (tests/identity/test_email.py), which carry the mail credential and watch every attempt.
    The worker holds a mail credential as `herald up`'s does (IDENTITY_MAIL_KEY, a test key of an
    account of its own), so the platform's own e-mails (alert firings) go out whichever relay
    claims them, and its metrics exporter is on, as in production (:func:`worker_metrics_port`)."""
    from app.platform.api_key.service import create_key
    from app.platform.tenant.service import create_tenant
    from models.platform.api_key import KeyKind
    from kit.ids import public_id

    mailer = await create_tenant("Herald mail (tests)", public_id("herald-mail", 4).replace("_", "-"))
    _, mail_key = await create_key(mailer.public_id, "platform mail", ["email:send"], KeyKind.TEST)
    log_dir = tmp_path_factory.mktemp("pipeline")
    env = {**services.env, "WORKER_THREADS": "4", "RELAY_SYSTEMS": "platform", "IDENTITY_MAIL_KEY": mail_key,
           "IDENTITY_MAIL_FROM": "alerts@sandbox.herald.test", "WORKER_METRICS_PORT": str(worker_metrics_port),
           "GA4_MP_URL": ga4_endpoint.url}
    roles = [Process("worker", ["worker"], env, log_dir), Process("scheduler", ["scheduler"], env, log_dir)]
    yield services.sink_dir
    for role in roles:
        role.stop()
