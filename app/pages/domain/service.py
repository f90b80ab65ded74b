"""Custom domains: added unverified with a token; verified by a TXT record
``_herald-verify.<host>`` = ``herald-verify=<token>``; every attempt recorded (success or not);
withdrawn only by deletion. The TLS ask (:func:`tls_authorized`) is true only for a verified host.

A failed re-check does not unverify a domain (the contract: deletion is the only way to withdraw TLS
authorization); it is recorded, and the domain's ``LastCheck`` shows it.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.exceptions import IntegrityError

from app.http import errors
from app.http.paging import KeysetPage, Page as Listing
from app.pages.errors import DomainNotVerified, VerificationUnavailable
from kit.dns import Unreachable, lookup, resolver_for
from models.pages import CustomDomain, DomainCheck
from models.pages.site import CheckOutcome, DomainStatus, outcome_of, record_check, record_name, record_value

@dataclass(frozen=True)
class Attempt:
    outcome: CheckOutcome
    detail: str


async def create(conn: BaseDBAsyncClient, tenant: str, name: str) -> CustomDomain:
    if await CustomDomain.filter(tenant_id=tenant, name=name).using_db(conn).exists():
        raise errors.Conflict("This account already has this domain.")
    try:
        return await CustomDomain.create(using_db=conn, tenant_id=tenant, name=name, token=secrets.token_hex(16))
    except IntegrityError:
        raise errors.Conflict("This account already has this domain.") from None


async def find(conn: BaseDBAsyncClient, tenant: str, domain_id: str) -> CustomDomain:
    found = await CustomDomain.filter(tenant_id=tenant, public_id=domain_id).using_db(conn).first()
    if found is None:
        raise errors.NotFound("Domain not found.")
    return found


async def last_check(conn: BaseDBAsyncClient, domain: CustomDomain) -> DomainCheck | None:
    return await DomainCheck.filter(domain_id=domain.id).using_db(conn).order_by("-id").first()


async def list_domains(conn: BaseDBAsyncClient, tenant: str, paging: KeysetPage) -> Listing:
    return await paging.fetch(conn, CustomDomain.filter(tenant_id=tenant).using_db(conn), audience=f"domains:{tenant}")


async def delete(conn: BaseDBAsyncClient, tenant: str, domain_id: str) -> None:
    domain = await find(conn, tenant, domain_id)
    await domain.delete(using_db=conn)


async def look_up(domain: CustomDomain, nameservers: tuple[str, ...]) -> Attempt:
    """Asks DNS for the verification record; no database work."""
    try:
        values = await lookup(resolver_for(nameservers), record_name(domain), "TXT")
    except Unreachable as error:
        return Attempt(CheckOutcome.UNREACHABLE, str(error)[:500])
    return Attempt(*outcome_of(domain, values))


async def record(conn: BaseDBAsyncClient, domain_pk: int, attempt: Attempt) -> CustomDomain:
    """Records the attempt (models/pages/site.py: record_check)."""
    domain = await record_check(conn, domain_pk, attempt.outcome, attempt.detail)
    if domain is None:  # deleted meanwhile
        raise errors.NotFound("Domain not found.")
    return domain


async def held_elsewhere(conn: BaseDBAsyncClient, domain: CustomDomain) -> bool:
    return await CustomDomain.filter(name=domain.name, status=DomainStatus.VERIFIED.value).exclude(
        tenant_id=domain.tenant_id).using_db(conn).exists()


def raise_for(attempt: Attempt, domain: CustomDomain) -> None:
    """The answer to an attempt that did not verify (after it was recorded)."""
    if attempt.outcome is CheckOutcome.UNREACHABLE:
        raise VerificationUnavailable()
    if attempt.outcome is CheckOutcome.ABSENT:
        raise DomainNotVerified(
            f"Publish a TXT record at {record_name(domain)} with the value {record_value(domain)}, then verify again.",
            details={"RecordType": "TXT", "RecordName": record_name(domain), "RecordValue": record_value(domain),
                     "Found": attempt.detail})


async def tls_authorized(conn: BaseDBAsyncClient, host: str) -> bool:
    return await CustomDomain.filter(name=host, status=DomainStatus.VERIFIED.value).using_db(conn).exists()


async def verified_names(conn: BaseDBAsyncClient, tenant: str) -> list[str]:
    """The account's verified custom domains, by name."""
    return sorted(await CustomDomain.filter(tenant_id=tenant, status=DomainStatus.VERIFIED.value).using_db(conn)
                  .values_list("name", flat=True))


async def verified_tenants(conn: BaseDBAsyncClient, host: str) -> list[str]:
    return list(await CustomDomain.filter(name=host, status=DomainStatus.VERIFIED.value).using_db(conn)
                .values_list("tenant_id", flat=True))
