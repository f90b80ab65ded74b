"""DNS lookups (dnspython) for the checks that judge what a tenant published: sender domains
(:func:`models.platform.domain.check_domain`, given :func:`lookup_with`) and pages' custom domains.

The resolver's nameservers come from DNS_NAMESERVERS (``ip`` or ``ip:port``, comma separated),
else from the system.
"""

from __future__ import annotations

import dns.asyncresolver
import dns.exception
import dns.nameserver
import dns.resolver

from typing import Awaitable, Callable

TIMEOUT_SECONDS = 4.0

# The values at a name for one record type: what a check is given, so the check itself does no I/O.
Lookup = Callable[[str, str], Awaitable[list[str]]]


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


def lookup_with(nameservers: tuple[str, ...] | list[str], timeout: float = TIMEOUT_SECONDS) -> Lookup:
    """A :data:`Lookup` through ``nameservers`` (DNS_NAMESERVERS; the system's when empty)."""
    resolver = resolver_for(nameservers, timeout)

    async def lookup_at(name: str, rdtype: str) -> list[str]:
        return await lookup(resolver, name, rdtype)

    return lookup_at
