"""Fixtures of tests/mail/: the mail system and a platform of its own that resolves DNS through the
tests' loopback DNS server (so domains verify against records the test publishes), each knowing the
other's address; the identity server; accounts with keys; self-registered people."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import AsyncIterator

import httpx
import pytest

from tests.fixtures.harness import Server, free_port
from tests.fixtures.identity import PASSWORD, unique_email
from tests.fixtures.platform import make_account  # noqa: F401  (fixture)

MANAGE = ("mail:admin", "email:send")
TENANT_HEADER = "X-Service-Tenant"


@dataclass
class MailStack:
    platform: Server
    mail: Server


@pytest.fixture(scope="session")
def mail_stack(services, servers, dns_server, tmp_path_factory):  # noqa: F811
    """A platform (DNS through the loopback server) and the mail system, pointing at each other."""
    servers("identity")  # sessions and the product decision
    log_dir = tmp_path_factory.mktemp("mail-servers")
    mail_port = free_port()
    platform = Server("platform", {**services.env, "DNS_NAMESERVERS": dns_server.address,
                                   "MAIL_INTERNAL_URL": f"http://127.0.0.1:{mail_port}"}, log_dir)
    try:
        mail = Server("mail", {**services.env, "PLATFORM_INTERNAL_URL": platform.url}, log_dir, port=mail_port)
    except Exception:
        platform.stop()
        raise
    yield MailStack(platform, mail)
    mail.stop()
    platform.stop()


@pytest.fixture
async def mail(mail_stack) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=mail_stack.mail.url, timeout=20) as client:
        yield client


@pytest.fixture
async def core(mail_stack, services) -> AsyncIterator[httpx.AsyncClient]:
    """The platform the mail system calls (its /api and /v1); writes from the dashboard's origin
    (PLATFORM_URL's, which the platform allows)."""
    async with httpx.AsyncClient(base_url=mail_stack.platform.url, timeout=20,
                                 headers={"Origin": services.env["PLATFORM_URL"]}) as client:
        yield client


@dataclass
class SignedUp:
    """A person who signed up on their own: their account, their session, a key they made."""

    tenant_id: str
    token: str
    key: str

    @property
    def session(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}", TENANT_HEADER: self.tenant_id}

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.key}"}


async def sign_up(core: httpx.AsyncClient, scopes=MANAGE, kind: str = "live") -> SignedUp:
    """POST /api/auth/register, sign in, make an API key on the dashboard: no operator involved."""
    email = unique_email("mail")
    made = await core.post("/api/auth/register", json={"Email": email, "Password": PASSWORD,
                                                       "TenantName": f"Mail {secrets.token_hex(3)}"})
    assert made.status_code == 201, made.text
    tenant_id = made.json()["Tenant"]["Id"]
    login = await core.post("/api/auth/login", json={"email": email, "password": PASSWORD})
    assert login.status_code == 200, login.text
    token = login.json()["Token"]
    key = await core.post(f"/api/tenants/{tenant_id}/api-keys", headers={"Authorization": f"Bearer {token}"},
                          json={"name": "mail", "scopes": list(scopes), "kind": kind})
    assert key.status_code == 201, key.text
    return SignedUp(tenant_id, token, key.json()["ApiKey"]["Key"])


def publish(dns_server, records: list[dict]) -> None:  # noqa: F811
    for record in records:
        dns_server.publish(record["name"], record["type"], record["value"])


async def verified_domain(mail: httpx.AsyncClient, dns_server, headers: dict, name: str | None = None) -> str:  # noqa: F811
    """A domain added through the mail API, its records published, verified."""
    name = name or f"brand{secrets.token_hex(4)}.example"
    added = await mail.post("/v1/domains", headers=headers, json={"name": name})
    assert added.status_code == 201, added.text
    publish(dns_server, added.json()["domain"]["records"])
    verified = await mail.post(f"/v1/domains/{name}/verify", headers=headers)
    assert verified.status_code == 200, verified.text
    return name


@pytest.fixture
def inbox():
    """A local SMTP server (aiosmtpd) keeping every message it is given."""
    from tests.fixtures.provider_servers import SmtpInbox, smtp_server

    box = SmtpInbox()
    controller = smtp_server(box)
    box.port = controller.port
    yield box
    controller.stop()


def dkim_dns(dns_server):  # noqa: F811
    """dkimpy's DNS function, answering from the loopback DNS server."""
    import dns.resolver

    resolver = dns.resolver.Resolver(configure=False)
    host, port = dns_server.address.split(":")
    resolver.nameservers, resolver.port = [host], int(port)

    def lookup(name: bytes, timeout: int = 5) -> bytes:
        answer = resolver.resolve(name.decode().rstrip("."), "TXT", lifetime=timeout)
        return b"".join(next(iter(answer)).strings)

    return lookup
