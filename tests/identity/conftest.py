"""Fixtures of the identity tests: the real identity server over HTTP, a few users made once.

bcrypt cost 12 takes ~240 ms per hash here, so users are made once per module or session and
shared; tests that count failures (throttles, timing) use their own server that trusts one
proxy hop, and a distinct X-Forwarded-For per test, so they never exhaust the shared limits.
"""

from __future__ import annotations

import os
import secrets
import time
from dataclasses import dataclass, field
from typing import AsyncIterator

import httpx
import pyotp
import pytest

PASSWORD = "correct horse battery staple 42"


@dataclass
class Person:
    id: str
    email: str
    password: str = PASSWORD
    token: str | None = None
    totp_secret: str | None = None
    used_steps: list[int] = field(default_factory=list)
    recovery_codes: list[str] = field(default_factory=list)

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def code(self) -> str:
        """A TOTP code of the current step, not used yet: the server takes only the current step
        (and the previous one for 10 s), so after a used step this waits for the next (bounded)."""
        deadline = time.monotonic() + 35
        step = int(time.time() // 30)
        while self.used_steps and step <= self.used_steps[-1] and time.monotonic() < deadline:
            time.sleep(0.2)
            step = int(time.time() // 30)
        assert not self.used_steps or step > self.used_steps[-1], "no fresh TOTP step within 35 s"
        self.used_steps.append(step)
        return pyotp.TOTP(self.totp_secret).at(step * 30)


def unique_email(tag: str = "user") -> str:
    return f"{tag}-{secrets.token_hex(5)}@example.com"


def service_headers() -> dict[str, str]:
    return {"Authorization": f"Bearer {os.environ['SERVICE_TOKEN']}"}


@pytest.fixture(scope="session")
def identity_url(servers) -> str:
    return servers("identity").url


@pytest.fixture
async def client(identity_url) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=identity_url, timeout=20) as http:
        yield http


async def make_person(http: httpx.AsyncClient, tag: str = "user", *, login: bool = True) -> Person:
    email = unique_email(tag)
    response = await http.post("/v1/users", json={"email": email, "password": PASSWORD, "name": tag.title()})
    assert response.status_code == 201, response.text
    person = Person(id=response.json()["user"]["id"], email=email)
    if login:
        answer = await http.post("/v1/auth/login", json={"email": email, "password": PASSWORD})
        assert answer.status_code == 200, answer.text
        person.token = answer.json()["token"]
    return person


async def enable_totp(http: httpx.AsyncClient, person: Person) -> None:
    setup = await http.post("/v1/2fa/setup", json={"password": person.password}, headers=person.auth)
    assert setup.status_code == 200, setup.text
    person.totp_secret = setup.json()["secret"]
    verify = await http.post("/v1/2fa/verify", json={"code": person.code()}, headers=person.auth)
    assert verify.status_code == 200, verify.text
    person.recovery_codes = verify.json()["recovery_codes"]


@pytest.fixture(scope="session")
async def people(identity_url) -> dict[str, Person]:
    """Users shared by the identity tests: ``plain`` (password only) and ``guarded`` (TOTP on)."""
    async with httpx.AsyncClient(base_url=identity_url, timeout=20) as http:
        plain = await make_person(http, "plain")
        guarded = await make_person(http, "guarded")
        await enable_totp(http, guarded)
    return {"plain": plain, "guarded": guarded}


@pytest.fixture(scope="session")
def proxied_identity(start_session_server) -> str:
    """An identity server behind one trusted proxy hop: X-Forwarded-For is the client address."""
    return start_session_server("identity", SANIC_PROXIES_COUNT="1").url


def from_ip() -> dict[str, str]:
    return {"X-Forwarded-For": f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"}


async def outbox_for(address: str, kind: str) -> dict:
    """The newest e-mail of ``kind`` queued to ``address`` (decrypted), read from the identity database."""
    from models.identity.email import open_payload
    from models.identity import IdentityEmail

    row = await IdentityEmail.filter(to_address=address, kind=kind).order_by("-id").first()
    assert row is not None, f"no {kind} e-mail queued to {address}"
    return open_payload(row)
