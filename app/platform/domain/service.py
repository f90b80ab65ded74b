"""Sender domains: adding one (its DKIM key pair made and sealed), verifying it against DNS now,
listing and removing an account's. What ``herald domain add|verify|list`` does (herald/domains.py),
and what the mail system (internal.py) and the dashboard's /api/domains (api.py) call.

Operator functions take a :class:`Tenant`; the account's own take its primary key. Refusals are
:class:`app.platform.errors.DomainError` and its subclasses (404 for a domain the account does not
have, like a missing one), and 409 ``Conflict`` for a name an account outside this one's tree has
verified (the first account to verify a domain owns it; an unverified add blocks nobody). The DNS
check itself (models/platform/domain.py) is shared with the ``domains.verify`` actor.
"""

from __future__ import annotations

import re

from redis.exceptions import RedisError
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.exceptions import IntegrityError

from app.http import errors
from app.platform.errors import DomainError, UnknownDomain
from kit.dns import lookup_with
from models.platform.domain import (SANDBOX_DOMAIN, UNREACHABLE_RECHECK_SECONDS, CheckOutcome, DomainCheck, SenderDomain, check_domain, generate_dkim_key,
                                    new_selector, owned_elsewhere, seal_dkim_key)
from models.platform.tenant import Tenant

_LABEL = r"(?!-)[a-z0-9-]{1,63}(?<!-)"


class OwnedElsewhere(errors.Conflict):
    message = "Another account has verified this domain; it can be used only there until that account removes it."


def normalise_domain(name: str) -> str:
    name = name.strip().rstrip(".").lower()
    if len(name) > 253 or not re.fullmatch(rf"{_LABEL}(\.{_LABEL})+", name) or name == SANDBOX_DOMAIN:
        raise DomainError(f"{name!r} is not a domain name that can be added",
                          details={"Name": "a domain name such as example.com"})
    return name


async def add_sender_domain(tenant_pk: int, name: str, *, dmarc: bool = False) -> SenderDomain:
    """A new, unverified domain with its DKIM key pair; adding an existing one returns it unchanged."""
    name = normalise_domain(name)
    existing = await SenderDomain.get_or_none(tenant_id=tenant_pk, name=name)
    if existing is not None:
        return existing
    public, pem = generate_dkim_key()
    try:
        return await SenderDomain.create(tenant_id=tenant_pk, name=name, dkim_selector=new_selector(),
                                         dkim_public_key=public, dkim_private_key=seal_dkim_key(pem), dmarc=dmarc)
    except IntegrityError:  # added concurrently
        return await SenderDomain.get(tenant_id=tenant_pk, name=name)


async def find_domain(tenant: Tenant, name: str) -> SenderDomain:
    domain = await SenderDomain.get_or_none(tenant_id=tenant.id, name=normalise_domain(name))
    if domain is None:
        raise UnknownDomain(f"no domain {name} on {tenant.public_id}; add it first")
    return domain


async def verify_domain(tenant: Tenant, name: str, *, nameservers: tuple[str, ...] | list[str],
                        mail_domain: str) -> tuple[SenderDomain, DomainCheck]:
    """Check the domain's DNS records now and record the attempt; the domain with its new state."""
    domain = await find_domain(tenant, name)
    if not domain.dkim_public_key:
        raise DomainError(f"{domain.name} has no DKIM key and cannot be verified by DNS")
    return domain, await check_domain(domain, lookup=lookup_with(nameservers), mail_domain=mail_domain)


async def list_domains(tenant: Tenant) -> list[SenderDomain]:
    return await SenderDomain.filter(tenant_id=tenant.id).order_by("name")


# --- the account's own (the mail system's internal routes, the dashboard's /api/domains) -----------

async def tenant_pk_of(conn: BaseDBAsyncClient, account: str) -> int:
    """The primary key of the account ``acc_...`` (404 for none)."""
    rows = await conn.execute_query_dict("SELECT id FROM tenants WHERE public_id = $1", [account])
    if not rows:
        raise errors.NotFound("No such account.")
    return rows[0]["id"]


async def account_domain(conn: BaseDBAsyncClient, tenant_pk: int, name: str) -> SenderDomain:
    """One domain of the account; another account's answers 404 exactly like a missing one."""
    try:
        name = normalise_domain(name)
    except DomainError:
        raise UnknownDomain("No such domain.") from None
    domain = await SenderDomain.filter(tenant_id=tenant_pk, name=name).using_db(conn).first()
    if domain is None:
        raise UnknownDomain("No such domain.")
    return domain


async def account_domains(conn: BaseDBAsyncClient, tenant_pk: int) -> list[SenderDomain]:
    return await SenderDomain.filter(tenant_id=tenant_pk).using_db(conn).order_by("name")


async def add_account_domain(conn: BaseDBAsyncClient, tenant_pk: int, name: str, *,
                             dmarc: bool = False) -> tuple[SenderDomain, bool]:
    """(the domain, whether it was made now); 409 when an account outside this one's tree holds it."""
    name = normalise_domain(name)
    existing = await SenderDomain.filter(tenant_id=tenant_pk, name=name).using_db(conn).first()
    if existing is not None:
        return existing, False
    if await owned_elsewhere(conn, tenant_pk, name):
        raise OwnedElsewhere()
    return await add_sender_domain(tenant_pk, name, dmarc=dmarc), True


async def verify_account_domain(conn: BaseDBAsyncClient, tenant_pk: int, name: str, *,
                                nameservers: tuple[str, ...] | list[str],
                                mail_domain: str) -> tuple[SenderDomain, DomainCheck]:
    """Check the domain's records now; the attempt is recorded whatever it found (the caller maps
    its outcome to the answer: :func:`raise_for`)."""
    domain = await account_domain(conn, tenant_pk, name)
    if await owned_elsewhere(conn, tenant_pk, domain.name):
        raise OwnedElsewhere()
    return domain, await check_domain(domain, lookup=lookup_with(nameservers), mail_domain=mail_domain)


# A page that follows an unverified domain asks at most this often, whoever watches it.
WATCH_SECONDS = 10


async def claim_watch(redis, domain: SenderDomain) -> bool:
    """Whether a watching page may have DNS asked about ``domain`` now: true for the first asker in
    each WATCH_SECONDS (one Redis key per domain, set only when absent), so any number of open
    pages cost one DNS check per domain per interval."""
    try:
        return bool(await redis.set(f"herald:domain-watch:{domain.id}", b"1", nx=True, ex=WATCH_SECONDS))
    except (RedisError, OSError):
        return False  # Redis away: the page reads the domain as it stands; the button still checks


async def remove_account_domain(conn: BaseDBAsyncClient, tenant_pk: int, name: str) -> None:
    domain = await account_domain(conn, tenant_pk, name)
    await SenderDomain.filter(id=domain.id).using_db(conn).delete()


async def last_check(conn: BaseDBAsyncClient, domain: SenderDomain) -> DomainCheck | None:
    return await DomainCheck.filter(domain_id=domain.id).using_db(conn).order_by("-id").first()


def missing_records(check: DomainCheck) -> list[dict]:
    """The required records an attempt did not find (what a 422 names)."""
    return [record for record in check.detail.get("Records", []) if record.get("Required") and not record.get("Found")]


class DomainNotVerified(errors.Unprocessable):
    code = "DomainNotVerified"
    message = "The domain's DNS records were not found."


def raise_for(check: DomainCheck) -> None:
    """The answer of a verification attempt that did not verify: 422 ``DomainNotVerified`` naming
    the records DNS lacks, 503 ``VerificacaoIndisponivel`` with Retry-After when DNS did not answer,
    409 when an account outside this one's tree verified the name first."""
    if check.outcome == CheckOutcome.UNREACHABLE:
        raise errors.VerificationUnavailable("DNS did not answer; the domain's verification could not be concluded. "
                                             "Try again shortly.", retry_after=UNREACHABLE_RECHECK_SECONDS)
    if check.outcome == CheckOutcome.CONFLICT:
        raise OwnedElsewhere()
    if check.outcome == CheckOutcome.FAILED:
        missing = missing_records(check)
        named = "; ".join(f"{record['Type']} {record['Name']} ({record['Purpose']}: "
                          f"{record.get('Reason', 'not found')})" for record in missing)
        raise DomainNotVerified(f"Not found as published: {named}.",
                                details={record["Purpose"]: record.get("Reason", "not found") for record in missing})
