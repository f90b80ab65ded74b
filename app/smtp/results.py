"""What a received message's authentication says, recorded beside it (RFC 8601's words):

- DKIM: every ``DKIM-Signature`` checked with dkimpy against DNS (DNS_NAMESERVERS, else the system's):
  ``pass`` when the first verifies, ``fail`` when it does not, ``temperror`` when DNS did not answer,
  ``none`` without a signature.
- SPF: app/smtp/spf.py, for the client's address and the MAIL FROM domain (the HELO name when MAIL
  FROM is empty).
- DMARC (RFC 7489): the policy at ``_dmarc.<From domain>``, else at its organizational domain: the
  public suffix and one label more, by the Public Suffix List the ``publicsuffixlist`` package bundles
  (``mail.shop.example.co.uk`` -> ``example.co.uk``). No record:
  ``none``. Else ``pass`` when DKIM passed for, or SPF passed for, a domain aligned (relaxed) with the
  From domain, ``fail`` otherwise, ``temperror`` when DNS did not answer.

dkimpy is synchronous: it runs in a thread, bounded by :data:`TIMEOUT_SECONDS`."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from functools import lru_cache

import dkim
import dns.exception
import dns.resolver
from publicsuffixlist import PublicSuffixList

from app.smtp import spf
from app.smtp.mime import parse
from kit.dns import TIMEOUT_SECONDS as DNS_TIMEOUT
from kit.dns import Lookup, Unreachable, lookup_with

log = logging.getLogger("herald.smtp")

TIMEOUT_SECONDS = 15.0


@dataclass(frozen=True)
class Results:
    spf: str = "none"
    dkim: str = "none"
    dmarc: str = "none"


class DnsTrouble(Exception):
    pass


def _resolver(nameservers: tuple[str, ...]) -> dns.resolver.Resolver:
    resolver = dns.resolver.Resolver(configure=not nameservers)
    if nameservers:
        hosts, port = [], 53
        for entry in nameservers:
            host, _, number = entry.rpartition(":") if entry.count(":") == 1 else (entry, "", "")
            hosts.append(host or entry)
            port = int(number) if number else port
        resolver.nameservers, resolver.port = hosts, port
    resolver.lifetime = resolver.timeout = DNS_TIMEOUT
    return resolver


def _dkim(raw: bytes, nameservers: tuple[str, ...]) -> tuple[str, str | None]:
    """The verdict on the first signature, and the domain (d=) it names."""
    if b"dkim-signature:" not in raw.lower():
        return "none", None
    resolver = _resolver(nameservers)

    def txt(name: bytes, timeout: int = 5) -> bytes:
        try:
            answer = resolver.resolve(name.decode().rstrip("."), "TXT")
        except (dns.resolver.NXDOMAIN, dns.resolver.NoAnswer):
            return b""
        except (dns.exception.Timeout, dns.resolver.NoNameservers, OSError) as error:
            raise DnsTrouble(str(error)) from error
        return b"".join(next(iter(answer)).strings)

    checker = dkim.DKIM(raw)
    try:
        verdict = "pass" if checker.verify(dnsfunc=txt) else "fail"
    except DnsTrouble:
        return "temperror", None
    except Exception as error:  # noqa: BLE001 - a malformed signature is a failed one, never a crash
        log.info("DKIM check failed on a malformed message: %r", error)
        return "fail", None
    domain = checker.domain.decode("ascii", "replace").lower() if checker.domain else None
    return verdict, domain


@lru_cache(maxsize=1)
def _suffixes() -> PublicSuffixList:
    return PublicSuffixList()  # parses the bundled list once, on the first message that needs it


def organizational(domain: str) -> str:
    """The registrable domain (RFC 7489 section 3.2); a name that is itself a public suffix, or
    unknown to the list's rules, is its own."""
    domain = domain.rstrip(".").lower()
    return _suffixes().privatesuffix(domain) or domain


def aligned(one: str | None, other: str) -> bool:
    return bool(one) and organizational(one) == organizational(other)  # type: ignore[arg-type]


def from_domain(raw: bytes) -> str | None:
    try:
        addresses = parse(raw)["From"].addresses
    except (AttributeError, TypeError, ValueError, IndexError):
        return None
    domains = {address.domain.lower().rstrip(".") for address in addresses if address.domain}
    return domains.pop() if len(domains) == 1 else None  # none, or several: no DMARC verdict


async def _policy(lookup: Lookup, domain: str) -> bool:
    for name in dict.fromkeys((domain, organizational(domain))):
        if any(text.lower().startswith("v=dmarc1") for text in await lookup(f"_dmarc.{name}", "TXT")):
            return True
    return False


async def dmarc(lookup: Lookup, raw: bytes, dkim_verdict: str, dkim_domain: str | None, spf_verdict: str,
                spf_domain: str) -> str:
    author = from_domain(raw)
    if author is None:
        return "none"
    try:
        if not await _policy(lookup, author):
            return "none"
    except Unreachable:
        return "temperror"
    if (dkim_verdict == "pass" and aligned(dkim_domain, author)) or (spf_verdict == "pass"
                                                                      and aligned(spf_domain, author)):
        return "pass"
    return "fail"


async def judge(raw: bytes, nameservers: tuple[str, ...], client_ip: str, mail_from: str, helo: str) -> Results:
    lookup = lookup_with(nameservers)
    try:
        dkim_verdict, dkim_domain = await asyncio.wait_for(asyncio.to_thread(_dkim, raw, nameservers),
                                                           TIMEOUT_SECONDS)
    except asyncio.TimeoutError:
        dkim_verdict, dkim_domain = "temperror", None
    spf_domain = (mail_from.rpartition("@")[2] if "@" in mail_from else helo).lower().rstrip(".")
    spf_verdict = "none"
    if spf_domain:
        try:
            spf_verdict = await asyncio.wait_for(spf.check(lookup, client_ip, spf_domain), TIMEOUT_SECONDS)
        except asyncio.TimeoutError:
            spf_verdict = "temperror"
    try:
        dmarc_verdict = await asyncio.wait_for(
            dmarc(lookup, raw, dkim_verdict, dkim_domain, spf_verdict, spf_domain), TIMEOUT_SECONDS)
    except asyncio.TimeoutError:
        dmarc_verdict = "temperror"
    return Results(spf=spf_verdict, dkim=dkim_verdict, dmarc=dmarc_verdict)
