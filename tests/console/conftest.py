"""Fixtures of the console's tests: the identity server, the platform and the console really
running; people made on the identity server, and a browser-like client per person (cookies kept,
the console's Origin on writes, each form's CSRF token read from the page it came from)."""

from __future__ import annotations

import re
from typing import AsyncIterator, Iterator

import httpx
import pytest
from tortoise import connections

from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.console.web import Hosts, Visit, hosts_running, launch_chromium, resolver_rules, visiting
from tests.fixtures.dashboard import Member, new_account, signed_in_member

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


class Browser:
    """A person's browser on the console: a cookie jar, and forms posted the way a page posts them."""

    def __init__(self, http: httpx.AsyncClient):
        self.http = http
        self.csrf = ""

    async def get(self, path: str, **options) -> httpx.Response:
        answer = await self.http.get(path, **options)
        found = CSRF.search(answer.text)
        if found:
            self.csrf = found.group(1)
        return answer

    async def post(self, path: str, data: dict | None = None, *, csrf: str | None = None, **options) -> httpx.Response:
        form = {"csrf_token": self.csrf if csrf is None else csrf, **(data or {})}
        options.setdefault("headers", {}).setdefault("Origin", str(self.http.base_url).rstrip("/"))
        answer = await self.http.post(path, data=form, **options)
        found = CSRF.search(answer.text)
        if found:
            self.csrf = found.group(1)
        return answer

    async def sign_in(self, email: str, password: str) -> httpx.Response:
        await self.get("/sign-in")
        return await self.post("/sign-in", {"email": email, "password": password})


@pytest.fixture
async def console(servers) -> AsyncIterator[str]:
    servers("identity")
    servers("platform")
    yield servers("console").url


@pytest.fixture
async def browser(console) -> AsyncIterator[Browser]:
    async with httpx.AsyncClient(base_url=console, timeout=20) as http:
        yield Browser(http)


@pytest.fixture
async def another_browser(console) -> AsyncIterator[Browser]:
    async with httpx.AsyncClient(base_url=console, timeout=20) as http:
        yield Browser(http)


async def age_sessions(user_id: str, minutes: int = 11) -> None:
    """The person's sessions as if their last proof was ``minutes`` ago: a staff write asks to confirm."""
    await connections.get("identity").execute_query(
        "UPDATE sessions SET reauthenticated_at = reauthenticated_at - make_interval(mins => $2) "
        "WHERE user_id = (SELECT id FROM users WHERE public_id = $1)", [user_id, minutes])


async def owner_with_account(identity, dashboard, tag: str, name: str) -> tuple[Member, dict]:
    member = await signed_in_member(identity, dashboard, tag)
    return member, await new_account(dashboard, member, name)


# The browser's stack, once per test process and shared by every browser module of this folder (defined
# here and nowhere else: a session fixture imported into a module is an instance of that module's own, kept
# to the end of the run, tests/house/test_fixtures_once.py). Modules add the roles they watch (a worker, a
# scheduler, a stream consumer) for their own duration beside it.
@pytest.fixture(scope="session")
def herald_hosts(services, tmp_path_factory, dns_server) -> Iterator[Hosts]:  # noqa: F811
    """Every system under its host name (tests/console/web.py): pages and the platform resolve DNS through
    the loopback ``dns_server``, so a journey verifies a domain by publishing its records there; the
    runtime's live view beats every 3 s (a lease left behind runs out soon)."""
    with hosts_running(services, tmp_path_factory, DNS_NAMESERVERS=dns_server.address,
                       RUNTIME_SSE_HEARTBEAT_SECONDS="3") as hosts:
        yield hosts


@pytest.fixture(scope="session")
async def chromium_browser(herald_hosts):
    """One headless Chromium for the run (Playwright, Debian's binary): the systems' host names and the
    pages' domains (``*.example.com``, ``*.example.test``) resolve to this machine, a local HTTPS server's
    own certificate is accepted (the replays' remote images), and the console's origin counts as secure
    (WebAuthn)."""
    async with launch_chromium(resolver_rules("*.example.com", "*.example.test"), "--ignore-certificate-errors",
                               "--unsafely-treat-insecure-origin-as-secure=" + herald_hosts.url("console")) as browser:
        yield browser


@pytest.fixture
async def web(chromium_browser, herald_hosts) -> AsyncIterator[Visit]:
    """A fresh browser profile (its own cookies) on the console, 1280 px wide."""
    async with visiting(chromium_browser, herald_hosts) as visit:
        yield visit
