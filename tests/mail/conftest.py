"""Fixtures and helpers of tests/mail/ (tests/smtp/ uses the helpers too): accounts with keys,
self-registered people, verified domains. The mail system, its platform, the SMTP inbox and herald smtpd
are tests/fixtures/mail.py's, registered once for the run in tests/conftest.py."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

import httpx

from tests.fixtures.identity import PASSWORD, unique_email
from tests.fixtures.platform import make_account  # noqa: F401  (fixture)

MANAGE = ("mail:admin", "email:send")
TENANT_HEADER = "X-Service-Tenant"


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


def publish(dns_server, records: list[dict]) -> None:
    for record in records:
        dns_server.publish(record["name"], record["type"], record["value"])


async def verified_domain(mail: httpx.AsyncClient, dns_server, headers: dict, name: str | None = None) -> str:
    """A domain added through the mail API, its records published, verified."""
    name = name or f"brand{secrets.token_hex(4)}.example"
    added = await mail.post("/v1/domains", headers=headers, json={"name": name})
    assert added.status_code == 201, added.text
    publish(dns_server, added.json()["domain"]["records"])
    verified = await mail.post(f"/v1/domains/{name}/verify", headers=headers)
    assert verified.status_code == 200, verified.text
    return name


def dkim_dns(dns_server):
    """dkimpy's DNS function, answering from the loopback DNS server."""
    import dns.resolver

    resolver = dns.resolver.Resolver(configure=False)
    host, port = dns_server.address.split(":")
    resolver.nameservers, resolver.port = [host], int(port)

    def lookup(name: bytes, timeout: int = 5) -> bytes:
        answer = resolver.resolve(name.decode().rstrip("."), "TXT", lifetime=timeout)
        return b"".join(next(iter(answer)).strings)

    return lookup
