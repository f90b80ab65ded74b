"""The contract's listing of senders: ``Domains[]`` (``Name``, ``Verified``, ``UsableFor``:
``emails/send`` while the domain may be a Source, ``DnsStatus``: ``ok`` | ``pending``) and
``Mailboxes[]`` (the mail API's, app/mail/: ``Address``, ``UsableFor``: ``emails/send`` and
``mail:/v1/emails`` while the mailbox's domain may be a Source)."""

from __future__ import annotations

from typing import Any

from app.http.openapi import STRING, described, reply_of, shape
from models.platform.domain import SANDBOX_DOMAIN, SenderDomain, SenderState

EMAILS_SEND = "emails/send"
MAIL_EMAILS = "mail:/v1/emails"


def sandbox_view() -> dict[str, Any]:
    return {"Name": SANDBOX_DOMAIN, "Verified": True, "UsableFor": [EMAILS_SEND], "DnsStatus": "ok"}


def domain_usable_for(domain: SenderDomain) -> list[str]:
    return [EMAILS_SEND] if domain.state() is SenderState.VERIFIED else []


def domain_view(domain: SenderDomain) -> dict[str, Any]:
    return {"Name": domain.name, "Verified": domain.verified, "UsableFor": domain_usable_for(domain),
            "DnsStatus": domain.dns_status}


def mailbox_view(address: str, usable_domains: set[str]) -> dict[str, Any]:
    usable = address.rpartition("@")[2] in usable_domains
    return {"Address": address, "UsableFor": [EMAILS_SEND, MAIL_EMAILS] if usable else []}


def senders_view(domains: list[SenderDomain], *, sandbox: bool, mailboxes: list[str] = ()) -> dict[str, Any]:
    listed = [sandbox_view()] if sandbox else []
    usable = {domain.name for domain in domains if domain.state() is SenderState.VERIFIED}
    if sandbox:
        usable.add(SANDBOX_DOMAIN)
    return {"Domains": listed + [domain_view(domain) for domain in domains],
            "Mailboxes": [mailbox_view(address, usable) for address in mailboxes]}


# The answer's shape, for the OpenAPI document (app/http/openapi.py).
_USABLE = described({"type": "array", "items": STRING}, "Where it may be the sender: `emails/send` (a Source of "
                                                        "/v1/emails/send), `mail:/v1/emails` (the mail API).")
SENDERS = reply_of(
    Domains=described({"type": "array", "items": shape(
        Name=described(STRING, "The domain."), Verified=described({"type": "boolean"}, "Whether it is verified."),
        UsableFor=_USABLE, DnsStatus=described({"enum": ["ok", "pending"]}, "Whether its DNS records are in place."))},
        "The domains the account may send from (the sandbox domain for a test-mode key)."),
    Mailboxes=described({"type": "array", "items": shape(Address=described(STRING, "The mailbox's address."),
                                                         UsableFor=_USABLE)}, "The mail API's mailboxes."))
