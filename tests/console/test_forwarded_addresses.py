"""Two people's addresses behind the console's proxy: the console learns each one from the proxy it
trusts (Sanic's ``SANIC_PROXIES_COUNT``: the last ``X-Forwarded-For`` hop), forwards it to the platform
next to the service credential, and the platform forwards it to the identity server. So each
address has its own failed-sign-in bucket (the identity server's 50 failures per address in 10
minutes) and each session record names the address it was opened from, never the console's.

Over HTTP, with the console as a real process of the test's own (behind "its proxy" at the public
URL ``http://console.herald.test``) on the run's identity server and platform."""

from __future__ import annotations

import secrets
from typing import AsyncIterator

import httpx
import pytest

from tests.console.conftest import Browser
from tests.fixtures.identity import PASSWORD, make_person, unique_email

PUBLIC = "http://console.herald.test"  # the console's CONSOLE_URL behind the proxy: the Origin of its forms
FAILURES_PER_ADDRESS = 50  # app/identity/gate/throttle.py: LOGIN_IP


class ProxiedBrowser(Browser):
    """A person's browser reaching the console through the proxy, which names their address."""

    def __init__(self, http: httpx.AsyncClient, address: str):
        super().__init__(http)
        self.address = address

    async def get(self, path: str, **options) -> httpx.Response:
        options["headers"] = {"X-Forwarded-For": self.address, **options.get("headers", {})}
        return await super().get(path, **options)

    async def post(self, path: str, data: dict | None = None, **options) -> httpx.Response:
        options["headers"] = {"X-Forwarded-For": self.address, "Origin": PUBLIC, **options.get("headers", {})}
        return await super().post(path, data, **options)


@pytest.fixture
async def proxied_console(servers, start_server) -> AsyncIterator[str]:
    """A console of the test's own that trusts one proxy hop, on the run's identity server and platform."""
    servers("identity")
    servers("platform")
    yield start_server("console", SANIC_PROXIES_COUNT="1", CONSOLE_URL=PUBLIC).url


def fresh_addresses(count: int) -> list[str]:
    """Addresses no other test uses (the identity tests' are random 10.x too: the odds of a clash are nil)."""
    found: set[str] = set()
    while len(found) < count:
        found.add(f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}")
    return sorted(found)


async def test_two_forwarded_addresses_have_their_own_throttle_and_their_own_session(proxied_console, identity):
    person = await make_person(identity, "two-places", login=False)
    home, crowded = fresh_addresses(2)
    async with (httpx.AsyncClient(base_url=proxied_console, timeout=20) as laptop,
                httpx.AsyncClient(base_url=proxied_console, timeout=20) as phone,
                httpx.AsyncClient(base_url=proxied_console, timeout=20) as attacker,
                httpx.AsyncClient(base_url=proxied_console, timeout=20) as later):
        at_home = ProxiedBrowser(laptop, home)
        assert (await at_home.sign_in(person.email, PASSWORD)).status_code == 303
        on_the_road = ProxiedBrowser(phone, crowded)
        assert (await on_the_road.sign_in(person.email, PASSWORD)).status_code == 303

        # Someone sharing the second address guesses, each time another e-mail (so no account's own
        # counter is what stops them), until that address's bucket is empty.
        guesser = ProxiedBrowser(attacker, crowded)
        await guesser.get("/sign-in")
        for _ in range(FAILURES_PER_ADDRESS):
            wrong = await guesser.post("/sign-in", {"email": unique_email("guess"), "password": "not it at all"})
            assert wrong.status_code == 401, wrong.text
        stopped = await guesser.post("/sign-in", {"email": unique_email("guess"), "password": "not it at all"})
        assert stopped.status_code == 429 and "Too many attempts to sign in" in stopped.text
        assert "Try again in" in stopped.text
        # The bucket is the address's: the person's right password from there waits too...
        there = ProxiedBrowser(later, crowded)
        refused = await there.sign_in(person.email, PASSWORD)
        assert refused.status_code == 429 and "Too many attempts to sign in" in refused.text
        # ...and from the other address it does not.
        there.address = home
        assert (await there.sign_in(person.email, PASSWORD)).status_code == 303

        # The person's sessions, as the console lists them, were opened from both addresses.
        profile = await at_home.get("/me")
        assert profile.status_code == 200
        assert f"<code>{home}</code>" in profile.text and f"<code>{crowded}</code>" in profile.text
        assert "<code>127.0.0.1</code>" not in profile.text  # never the console's (or the proxy's) own address
        assert profile.text.count(f"<code>{home}</code>") == 2 and profile.text.count(f"<code>{crowded}</code>") == 1
