"""Sender domains: adding one (its DKIM key pair made and sealed), verifying it against DNS now,
listing an account's. What ``herald domain add|verify|list`` does (herald/domains.py).

Operator services: no principal. Refusals are :class:`app.platform.errors.DomainError` and its
subclasses. The DNS check itself (herald/dns.py) is shared with the ``domains.verify`` actor.
"""

from __future__ import annotations

import re

from tortoise.exceptions import IntegrityError

from app.platform.errors import DomainError, UnknownDomain
from herald.dns import check_domain
from models.platform.domain import (SANDBOX_DOMAIN, DomainCheck, SenderDomain, generate_dkim_key, new_selector,
                                    seal_dkim_key)
from models.platform.tenant import Tenant

_LABEL = r"(?!-)[a-z0-9-]{1,63}(?<!-)"


def normalise_domain(name: str) -> str:
    name = name.strip().rstrip(".").lower()
    if len(name) > 253 or not re.fullmatch(rf"{_LABEL}(\.{_LABEL})+", name) or name == SANDBOX_DOMAIN:
        raise DomainError(f"{name!r} is not a domain name that can be added")
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
    return domain, await check_domain(domain, nameservers=nameservers, mail_domain=mail_domain)


async def list_domains(tenant: Tenant) -> list[SenderDomain]:
    return await SenderDomain.filter(tenant_id=tenant.id).order_by("name")
