"""Verifying a sender domain against DNS (dnspython): one attempt, recorded, state updated.

Required records: SPF (a ``v=spf1`` TXT on the domain that includes ``_spf.<MAIL_DOMAIN>``) and
DKIM (the TXT at ``<selector>._domainkey.<domain>`` whose ``p=`` is the domain's public key).
DMARC and the return-path CNAME are looked up and reported, never required.

Outcomes: ``verified`` (both found: ``verified_at`` set); ``failed`` (DNS answered and a required
record is missing or different: ``verified_at`` cleared; a domain that was verified has *lost*
verification, and its queued messages are handed to delivery again, whose re-check fails them);
``unreachable`` (a timeout or SERVFAIL: nothing concluded, ``unreachable_since`` set).
The resolver's nameservers come from DNS_NAMESERVERS (``ip`` or ``ip:port``, comma separated),
else from the system.
"""

from __future__ import annotations

from datetime import datetime, timezone

import dns.asyncresolver
import dns.exception
import dns.nameserver
import dns.resolver
from tortoise.transactions import in_transaction

from models.platform.domain import CheckOutcome, DomainCheck, SenderDomain, dns_records

TIMEOUT_SECONDS = 4.0


class Unreachable(Exception):
    pass


def resolver_for(nameservers: tuple[str, ...] | list[str], timeout: float = TIMEOUT_SECONDS):
    resolver = dns.asyncresolver.Resolver(configure=not nameservers)
    if nameservers:
        servers = []
        for entry in nameservers:
            host, _, port = entry.rpartition(":") if entry.count(":") == 1 else (entry, "", "")
            servers.append(dns.nameserver.Do53Nameserver(host or entry, int(port) if port else 53))
        resolver.nameservers = servers
    resolver.lifetime = timeout
    resolver.timeout = timeout
    return resolver


async def _lookup(resolver, name: str, rdtype: str) -> list[str]:
    """Values at ``name`` (TXT strings joined, CNAME targets); [] when DNS says there are none."""
    try:
        answer = await resolver.resolve(name, rdtype)
    except (dns.resolver.NXDOMAIN, dns.resolver.NoAnswer):
        return []
    except (dns.exception.Timeout, dns.resolver.NoNameservers, OSError) as error:
        raise Unreachable(f"{rdtype} {name}: {type(error).__name__}") from error
    if rdtype == "TXT":
        return [b"".join(record.strings).decode("utf-8", "replace") for record in answer]
    return [record.to_text().rstrip(".").lower() for record in answer]


def _tags(value: str) -> dict[str, str]:
    tags = {}
    for part in value.split(";"):
        name, _, tag_value = part.strip().partition("=")
        if name:
            tags[name.strip().lower()] = "".join(tag_value.split())
    return tags


def _matches(record: dict, values: list[str], domain: SenderDomain, mail_domain: str) -> bool:
    purpose = record["Purpose"]
    if purpose == "spf":
        return any(v.lower().startswith("v=spf1") and f"include:_spf.{mail_domain}" in v.lower().split()
                   for v in values)
    if purpose == "dkim":
        return any(_tags(v).get("p") == domain.dkim_public_key for v in values)
    if purpose == "dmarc":
        return any(v.strip().lower().startswith("v=dmarc1") for v in values)
    return record["Value"].lower() in values


async def check_domain(domain: SenderDomain, *, nameservers: tuple[str, ...] | list[str], mail_domain: str,
                       timeout: float = TIMEOUT_SECONDS) -> DomainCheck:
    resolver = resolver_for(nameservers, timeout)
    found: list[dict] = []
    unreachable: str | None = None
    for record in dns_records(domain, mail_domain):
        entry = {"Purpose": record["Purpose"], "Type": record["Type"], "Name": record["Name"],
                 "Required": record["Required"]}
        try:
            values = await _lookup(resolver, record["Name"], record["Type"])
        except Unreachable as error:
            entry.update(Found=None, Reason=str(error))
            if record["Required"]:
                unreachable = str(error)
        else:
            entry["Found"] = _matches(record, values, domain, mail_domain)
            if not entry["Found"]:
                entry["Reason"] = "not published" if not values else "published with another value"
        found.append(entry)
    if unreachable is not None:
        outcome = CheckOutcome.UNREACHABLE
    elif all(entry["Found"] for entry in found if entry["Required"]):
        outcome = CheckOutcome.VERIFIED
    else:
        outcome = CheckOutcome.FAILED
    return await record_check(domain, outcome, found)


_REDELIVER = """
INSERT INTO outbox (actor, queue, args, delay_ms, created_at)
SELECT 'email.deliver', 'email', jsonb_build_array(id), 0, now() FROM messages
WHERE tenant_id = $1 AND channel = 'email' AND status = 'queued'
  AND (lower(sender) LIKE '%@' || $2 OR lower(sender) LIKE '%@' || $2 || '>')
RETURNING id
"""


async def record_check(domain: SenderDomain, outcome: CheckOutcome, found: list[dict]) -> DomainCheck:
    """Record one attempt and move the domain's state; returns the attempt."""
    now = datetime.now(timezone.utc)
    async with in_transaction("platform") as conn:
        # Lock the row: a re-check and `herald domain verify` may run at once.
        current = await SenderDomain.filter(id=domain.id).select_for_update().using_db(conn).first()
        lost = False
        if outcome is CheckOutcome.VERIFIED:
            updates = {"verified_at": current.verified_at or now, "checked_at": now, "unreachable_since": None}
        elif outcome is CheckOutcome.FAILED:
            lost = current.verified_at is not None
            updates = {"verified_at": None, "checked_at": now, "unreachable_since": None}
        else:
            updates = {"unreachable_since": current.unreachable_since or now}
        await SenderDomain.filter(id=domain.id).using_db(conn).update(**updates)
        detail = {"Records": found}
        if lost:
            rows = await conn.execute_query_dict(_REDELIVER, [domain.tenant_id, domain.name])
            detail["LostVerification"] = True
            detail["QueuedMessagesRechecked"] = len(rows)
        check = await DomainCheck.create(domain_id=domain.id, outcome=outcome.value, detail=detail, using_db=conn)
    for name, value in updates.items():
        setattr(domain, name, value)
    return check
