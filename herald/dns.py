"""Sender-domain verification against DNS (dnspython): the lookups, and the one check that both the
``domains.verify`` actor (tasks/dns.py) and ``herald domain verify`` run.

Required records: SPF (a ``v=spf1`` TXT on the domain that includes ``_spf.<MAIL_DOMAIN>``) and
DKIM (the TXT at ``<selector>._domainkey.<domain>`` whose ``p=`` is the domain's public key).
DMARC and the return-path CNAME are looked up and reported, never required; what counts as
found is :func:`models.platform.domain.record_found`.

Outcomes: ``verified`` (both found: ``verified_at`` set); ``failed`` (DNS answered and a required
record is missing or different: ``verified_at`` cleared; a domain that was verified has *lost*
verification, and its queued messages are handed to delivery again, whose re-check fails them);
``unreachable`` (a timeout or SERVFAIL: nothing concluded, ``unreachable_since`` set). The attempt
is recorded by :func:`models.platform.domain.record_check`.
The resolver's nameservers come from DNS_NAMESERVERS (``ip`` or ``ip:port``, comma separated),
else from the system.
"""

from __future__ import annotations

import dns.asyncresolver
import dns.exception
import dns.nameserver
import dns.resolver

from models.platform.domain import CheckOutcome, DomainCheck, SenderDomain, dns_records, record_check, record_found

TIMEOUT_SECONDS = 4.0


class Unreachable(Exception):
    """DNS did not answer (a timeout, no nameserver answering): nothing can be concluded."""


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


async def lookup(resolver, name: str, rdtype: str) -> list[str]:
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


async def check_domain(domain: SenderDomain, *, nameservers: tuple[str, ...] | list[str], mail_domain: str,
                       timeout: float = TIMEOUT_SECONDS) -> DomainCheck:
    """One verification attempt of ``domain``, recorded; returns the attempt."""
    resolver = resolver_for(nameservers, timeout)
    found: list[dict] = []
    unreachable: str | None = None
    for record in dns_records(domain, mail_domain):
        entry = {"Purpose": record["Purpose"], "Type": record["Type"], "Name": record["Name"],
                 "Required": record["Required"]}
        try:
            values = await lookup(resolver, record["Name"], record["Type"])
        except Unreachable as error:
            entry.update(Found=None, Reason=str(error))
            if record["Required"]:
                unreachable = str(error)
        else:
            entry["Found"] = record_found(record, values, domain, mail_domain)
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
