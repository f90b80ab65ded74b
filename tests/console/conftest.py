"""Fixtures of the console's tests: the identity server, the platform and the console really
running; people made on the identity server, and a browser-like client per person (cookies kept,
the console's Origin on writes, each form's CSRF token read from the page it came from)."""

from __future__ import annotations

import re
from typing import AsyncIterator

import httpx
import pytest
from tortoise import connections

from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import Member, new_account, signed_in_member
from tests.fixtures.providers import dns_server  # noqa: F401  (fixture: the DNS of dns_hosts)

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


@pytest.fixture(scope="session")
def dns_hosts(services, dns_server, tmp_path_factory):  # noqa: F811
    """The systems under their host names (tests/console/web.py) with the platform resolving DNS
    through the loopback ``dns_server``: defined here, once, so every browser journey that verifies
    a domain (the modules star-importing tests/console/dns_web.py) shares one stack."""
    from tests.console.web import hosts_running

    with hosts_running(services, tmp_path_factory, DNS_NAMESERVERS=dns_server.address) as hosts:
        yield hosts
