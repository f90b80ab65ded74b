"""SPF (RFC 7208) for received mail: may the client's address send for the MAIL FROM domain (or the
HELO name when MAIL FROM is empty)? ``check_host`` with the mechanisms ``all``, ``include``, ``a``,
``mx``, ``ip4``, ``ip6``, ``exists`` and the ``redirect`` modifier, at most :data:`MAX_LOOKUPS`
DNS-querying terms. Not evaluated (they match nothing): ``ptr`` (deprecated by the RFC) and macros
(a term holding ``%``). DNS through kit/dns (DNS_NAMESERVERS, else the system's).

Results: ``pass``, ``fail``, ``softfail``, ``neutral``, ``none`` (no record), ``temperror`` (DNS did
not answer), ``permerror`` (a broken record, too many lookups)."""

from __future__ import annotations

import ipaddress

from kit.dns import Lookup, Unreachable

MAX_LOOKUPS = 10
QUALIFIERS = {"+": "pass", "-": "fail", "~": "softfail", "?": "neutral"}


class PermError(Exception):
    pass


class _Budget:
    def __init__(self) -> None:
        self.left = MAX_LOOKUPS

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise PermError("more than 10 DNS lookups")


async def check(lookup: Lookup, ip: str, domain: str) -> str:
    try:
        return await _check_host(lookup, ipaddress.ip_address(ip), domain.lower().rstrip("."), _Budget())
    except PermError:
        return "permerror"
    except Unreachable:
        return "temperror"
    except ValueError:  # the client's address is not an IP (a Unix socket): nothing to judge
        return "none"


async def _record(lookup: Lookup, domain: str) -> str | None:
    found = [text for text in await lookup(domain, "TXT") if text.lower().startswith("v=spf1")
             and (len(text) == 6 or text[6] == " ")]
    if len(found) > 1:
        raise PermError("more than one SPF record")
    return found[0] if found else None


def _target(argument: str, domain: str) -> tuple[str, int | None, int | None]:
    """(domain, IPv4 prefix, IPv6 prefix) of an ``a``/``mx`` argument such as ``:mail.example/24//64``."""
    spec, v4, v6 = argument, None, None
    if "//" in spec:
        spec, _, raw6 = spec.partition("//")
        v6 = int(raw6)
    if "/" in spec:
        spec, _, raw4 = spec.partition("/")
        v4 = int(raw4)
    spec = spec[1:] if spec.startswith(":") else spec
    return (spec or domain).lower().rstrip("."), v4, v6


def _in(ip, address: str, v4: int | None, v6: int | None) -> bool:
    try:
        network = ipaddress.ip_network(f"{address}/{(v4 if ip.version == 4 else v6) or ip.max_prefixlen}", strict=False)
    except ValueError:
        return False
    return ip.version == network.version and ip in network


async def _addresses(lookup: Lookup, ip, name: str) -> list[str]:
    return await lookup(name, "A" if ip.version == 4 else "AAAA")


async def _matches(lookup: Lookup, ip, domain: str, name: str, argument: str, budget: _Budget) -> bool:
    if name == "all":
        return True
    if name in ("ip4", "ip6"):
        try:
            return ip in ipaddress.ip_network(argument.lstrip(":"), strict=False)
        except ValueError:
            raise PermError(f"bad {name}") from None
    if name == "include":
        budget.spend()
        result = await _check_host(lookup, ip, argument.lstrip(":").lower().rstrip("."), budget)
        if result in ("none", "permerror"):
            raise PermError("include of a domain without a usable record")
        if result == "temperror":
            raise Unreachable("include")
        return result == "pass"
    if name in ("a", "mx"):
        budget.spend()
        target, v4, v6 = _target(argument, domain)
        hosts = [target]
        if name == "mx":
            hosts = [value.split()[-1] for value in await lookup(target, "MX")][:10]
        for host in hosts:
            if any(_in(ip, address, v4, v6) for address in await _addresses(lookup, ip, host)):
                return True
        return False
    if name == "exists":
        budget.spend()
        return bool(await lookup(argument.lstrip(":"), "A"))
    if name == "ptr":
        budget.spend()
        return False
    raise PermError(f"unknown mechanism {name}")


async def _check_host(lookup: Lookup, ip, domain: str, budget: _Budget) -> str:
    record = await _record(lookup, domain)
    if record is None:
        return "none"
    redirect = None
    for term in record.split()[1:]:
        if "%" in term:
            continue  # macros are not expanded: the term matches nothing
        lowered = term.lower()
        if lowered.startswith("redirect="):
            redirect = lowered.partition("=")[2]
            continue
        if "=" in lowered.split(":")[0]:
            continue  # another modifier (exp=): not used here
        qualifier = QUALIFIERS.get(lowered[0])
        body = lowered[1:] if qualifier else lowered
        name, argument = body, ""
        for separator in (":", "/"):
            if separator in body:
                head, _, tail = body.partition(separator)
                if len(head) < len(name):
                    name, argument = head, separator + tail
        if await _matches(lookup, ip, domain, name, argument, budget):
            return qualifier or "pass"
    if redirect:
        budget.spend()
        result = await _check_host(lookup, ip, redirect, budget)
        return "permerror" if result == "none" else result
    return "neutral"
